#!/usr/bin/env node
// Makes sure the Chromiums of the browser tests are there. Playwright cannot download its own
// browsers on our machines, so we use the system's: the full browser ($CHROMIUM_PATH, or Debian's
// `chromium`) and its headless shell ($CHROMIUM_SHELL_PATH, or Debian's `chromium-headless-shell`),
// which runs most touch tests at a lower cost (tests/e2e/support/chromium.ts); and for the HTTPS
// tests, NSS's certutil (with which Chromium is made to trust a test certificate authority) and
// Caddy (the reverse proxy of deploy/Caddyfile). When we run as root, whatever is missing is
// installed with apt-get. Prints the path of the full browser.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const browsers = [
  { name: 'chromium', package: 'chromium', paths: [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'] },
  { name: 'the headless shell', package: 'chromium-headless-shell', paths: [process.env.CHROMIUM_SHELL_PATH, '/usr/bin/chromium-headless-shell'] },
  { name: 'certutil', package: 'libnss3-tools', paths: ['/usr/bin/certutil'] },
  { name: 'caddy', package: 'caddy', paths: ['/usr/bin/caddy'] },
];
const found = (browser) => browser.paths.filter(Boolean).find((p) => existsSync(p));

const missing = browsers.filter((b) => !found(b));
if (missing.length > 0) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (root) {
    const names = missing.map((b) => b.package);
    console.error(`Installing Debian's ${names.join(' and ')} for the browser tests (this takes a few minutes)...`);
    const run = (args) => execFileSync('apt-get', args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    run(['update', '-qq']);
    run(['install', '-y', '-qq', '--no-install-recommends', ...names]);
  }
}

const [full, shell, certutil, caddy] = browsers;
if (!found(full)) {
  console.error(
    'The browser tests need Chromium, and none was found.\n' +
      'Install it (on Debian or Ubuntu: sudo apt-get install -y chromium chromium-headless-shell), or set\n' +
      'CHROMIUM_PATH to a Chromium or Chrome binary, then run the tests again.',
  );
  process.exit(1);
}
if (!found(shell)) {
  console.error(
    "Chromium's headless shell was not found: every browser test runs in the full browser, which takes\n" +
      'longer. Install it (sudo apt-get install -y chromium-headless-shell) or set CHROMIUM_SHELL_PATH.',
  );
}
if (!found(certutil) || !found(caddy)) {
  console.error("The HTTPS tests need NSS's certutil and Caddy, and one was not found. Install them (sudo apt-get install -y libnss3-tools caddy).");
}
console.log(found(full));
