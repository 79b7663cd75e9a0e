// The Chromiums the browser tests run: the system's (Playwright cannot download its own browsers
// here), with the flags that keep them quiet on a machine without a network beyond localhost.
//
// Two builds of the same Chromium. The headless shell, Chromium without its browser shell, runs
// most browser tests, voice and touch: the same engine, at about 60 % of the CPU of a touch test
// and 75 % of a voice test, which on a two-core machine is minutes of `npm test`. The full browser
// runs the few tests that need something only it has, tagged FULL_BROWSER: a screen wake lock
// (the shell always refuses one), a microphone the browser blocks (the shell, which has no prompt,
// calls every microphone unsupported), the browser's on-device speech recognition (the shell
// closes a page that asks for it). scripts/ensure-chromium.mjs installs both.

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
