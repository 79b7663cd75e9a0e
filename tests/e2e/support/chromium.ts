// The Chromiums the browser tests run: the system's (Playwright cannot download its own browsers
// here), with the flags that keep them quiet on a machine without a network beyond localhost.
//
// Two builds of the same Chromium. The full browser runs the voice tests (real audio in and out,
// the microphone's permission prompts as a kiosk meets them) and the few touch tests that need a
// feature only it has (a screen wake lock). The headless shell, Chromium without its browser
// shell, runs the rest: the same engine, at about 60 % of the CPU per test, which on a two-core
// machine is minutes of `npm test`. scripts/ensure-chromium.mjs installs both.

import { existsSync } from 'node:fs';

/** $CHROMIUM_PATH, else Debian's chromium. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** $CHROMIUM_SHELL_PATH, else Debian's chromium-headless-shell; the full browser when neither is there. */
export const CHROMIUM_SHELL = [process.env['CHROMIUM_SHELL_PATH'], '/usr/bin/chromium-headless-shell'].find((p) => p && existsSync(p)) ?? CHROMIUM;

/** The tag of a touch test that needs the full browser (`test(name, { tag: FULL_BROWSER }, …)`). */
export const FULL_BROWSER = '@full-browser';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
