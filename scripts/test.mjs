#!/usr/bin/env node
// `npm test`: every test, in two lanes that run side by side so the slow one is not queued behind
// the fast one. The browser lane (Chromium, the production build, Playwright) is mostly waiting on
// screens and real-time speech; the checking lane (type checks, unit and property tests, the flow
// checks and conversation tests) is mostly CPU, so it runs at a lower priority: the browsers'
// real-time audio comes first. The browser lane prints as it goes; the checking lane's output is
// printed whole when it is done. Exits non-zero when either lane fails.

import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

/** How much lower the checking lane runs (a nice value: 0 is normal, 19 the lowest). */
const CHECKING_NICE = 10;

/** Runs `npm run <script>`; resolves with its exit code. Output goes to `sink` (and the run is niced), or straight through. */
function run(script, sink) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: sink ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: process.env });
    if (sink) {
      try {
        setPriority(child.pid, CHECKING_NICE);
      } catch {
        // not allowed here: the lane runs at the normal priority
      }
      child.stdout.on('data', (d) => sink.push(d));
      child.stderr.on('data', (d) => sink.push(d));
    }
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Runs scripts one after another, stopping at the first that fails; resolves with the failing script or null. */
async function lane(scripts, sink) {
  for (const script of scripts) {
    const started = Date.now();
    const code = await run(script, sink);
    const line = `[npm test] ${script}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(0)} s\n`;
    if (sink) sink.push(Buffer.from(line));
    else process.stdout.write(line);
    if (code !== 0) return script;
  }
  return null;
}

const started = Date.now();
// Chromium first and alone: it may be installed with apt-get, which says what it does.
const chromium = await run('test:chromium');
if (chromium !== 0) process.exit(chromium);

const checking = [];
const [checkFailed, browserFailed] = await Promise.all([
  lane(['typecheck', 'test:unit', 'test:flows'], checking).then((failed) => {
    process.stdout.write(`\n---- type checks, unit tests, flow checks ----\n${Buffer.concat(checking).toString()}---- end of the checking lane ----\n\n`);
    return failed;
  }),
  lane(['build:quiet', 'test:browser']),
]);

const minutes = ((Date.now() - started) / 60_000).toFixed(1);
const failed = [checkFailed, browserFailed].filter(Boolean);
console.log(failed.length ? `npm test: FAILED (${failed.join(', ')}) after ${minutes} min` : `npm test: everything passed in ${minutes} min`);
process.exit(failed.length ? 1 : 0);
