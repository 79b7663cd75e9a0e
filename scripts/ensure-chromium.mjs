#!/usr/bin/env node
// Makes sure a Chromium is there for the browser tests. Playwright cannot download its own
// browsers on our machines, so we use the system's: $CHROMIUM_PATH, or Debian's `chromium`,
// installed here with apt-get when we run as root. Prints the path it found.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
const found = () => candidates.find((p) => existsSync(p));

let path = found();
if (!path) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!root) {
    console.error(
      'The browser tests need Chromium, and none was found.\n' +
        'Install it (on Debian or Ubuntu: sudo apt-get install -y chromium), or set CHROMIUM_PATH\n' +
        'to a Chromium or Chrome binary, then run the tests again.',
    );
    process.exit(1);
  }
  console.error('Chromium is missing: installing Debian\'s chromium package (this takes a few minutes)...');
  const run = (args) => execFileSync('apt-get', args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  run(['update', '-qq']);
  run(['install', '-y', '-qq', '--no-install-recommends', 'chromium']);
  path = found();
  if (!path) {
    console.error('apt-get finished but no chromium binary was found at /usr/bin/chromium.');
    process.exit(1);
  }
}
console.log(path);
