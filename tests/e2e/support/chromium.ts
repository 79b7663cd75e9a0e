// The Chromium the browser tests run: the system's (Playwright cannot download its own here),
// with the flags that keep it quiet on a machine without a network beyond localhost.

/** $CHROMIUM_PATH, else Debian's chromium (scripts/ensure-chromium.mjs installs it). */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

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
