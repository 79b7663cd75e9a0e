#!/usr/bin/env node
// Makes sure the browsers of the engine lanes are there (tests/engines): for `webkit`, Debian's
// WebKitWebDriver (webkit2gtk-driver, which brings MiniBrowser, WebKitGTK's browser: Safari's
// engine) and Xvfb, an X display for it; for `firefox`, Firefox ESR and PulseAudio, the sound
// server that gives Firefox an audio output (it runs no AudioContext without one). Playwright
// cannot download its own WebKit or Firefox on our machines. When we run as root, whatever is
// missing is installed with apt-get; otherwise the lane stops with what to install.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const NEEDS = {
  webkit: [
    { package: 'webkit2gtk-driver', path: '/usr/bin/WebKitWebDriver' },
    { package: 'xvfb', path: '/usr/bin/Xvfb' },
  ],
  firefox: [
    { package: 'firefox-esr', path: '/usr/bin/firefox-esr' },
    { package: 'pulseaudio', path: '/usr/bin/pulseaudio' },
  ],
};

const engines = process.argv.slice(2);
if (engines.length === 0 || engines.some((e) => !(e in NEEDS))) {
  console.error('usage: node scripts/ensure-engines.mjs webkit|firefox ...');
  process.exit(2);
}
const missing = () => engines.flatMap((e) => NEEDS[e]).filter((n) => !existsSync(n.path));
if (missing().length > 0 && typeof process.getuid === 'function' && process.getuid() === 0) {
  const names = [...new Set(missing().map((n) => n.package))];
  console.error(`Installing Debian's ${names.join(', ')} for the ${engines.join(' and ')} tests (this takes a few minutes)...`);
  const run = (args) => execFileSync('apt-get', args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  run(['update', '-qq']);
  run(['install', '-y', '-qq', '--no-install-recommends', ...names]);
}
const still = missing();
if (still.length > 0) {
  console.error(
    `The ${engines.join(' and ')} tests need ${still.map((n) => n.path).join(', ')}, which ${still.length > 1 ? 'are' : 'is'} not here.\n` +
      `Install ${still.length > 1 ? 'them' : 'it'} (on Debian or Ubuntu: sudo apt-get install -y ${[...new Set(still.map((n) => n.package))].join(' ')}), then run the tests again.`,
  );
  process.exit(1);
}
