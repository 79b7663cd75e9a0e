#!/usr/bin/env node
// `npm test`: every test, arranged so that the slow parts are not queued behind the fast ones and
// the real-time parts have first call on the machine. On a two-core machine each of the big parts
// keeps both cores busy (docs/testing.md#how-long-it-takes has the figures): the voice tests (real
// time, the speech detector running in every page), the touch tests (each opens a fresh kiosk)
// and the unit tests.
//
//   1. Chromium and its headless shell (installed with apt-get if missing), then the production
//      build and the type checks side by side.
//   2. The voice tests: real speech played into Chromium in real time, alone on the machine but
//      for the light checks at the lowest priority (the size check: no source file over 400 lines
//      and no function over 80 in src/, server/ and bin/; the import rules of
//      .dependency-cruiser.cjs; the README's check: its links resolve and the npm scripts it
//      names exist; the flow checks and conversation tests). A busy machine starves
//      the browser's audio threads, and a voice cut short is a test failing for nothing.
//   3. The touch tests (Chromium, waiting on the kiosk's own signals, which a busy machine only
//      slows down) beside the unit and property tests at a milder priority (one file per core).
//   4. The engine lanes, side by side after the touch tests (tests/engines: one browser each, a
//      test at a time): Safari's engine (WebKitGTK's MiniBrowser over WebDriver, on Xvfb) and
//      Firefox ESR (over WebDriver BiDi). Their browsers (and Xvfb and PulseAudio) are installed
//      with apt-get, if missing, beside Chromium at the start.
//
// The browser tests print as they go; the other lanes' output is printed whole when they are done.
// Exits non-zero when any part fails; a failed voice run still lets the rest run, to show all. The
// last lines name the tests that failed, for a log that keeps only its end.

import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

/** How much lower the lanes beside the browser tests run (a nice value: 0 is normal, 19 the lowest). */
const NICE_BESIDE_VOICE = 19;
const NICE_BESIDE_TOUCH = 10;

/** Everything every lane printed, kept to name the failed tests again at the very end. */
const printed = [];

/** Runs `npm run <script>` at a nice value; resolves with its exit code. Output goes to `sink`, or straight through. */
function run(script, sink, nice = 0) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    try {
      if (nice > 0) setPriority(child.pid, nice);
    } catch {
      // not allowed here: the lane runs at the normal priority
    }
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      from.on('data', (d) => {
        printed.push(d);
        if (sink) sink.push(d);
        else to.write(d);
      });
    }
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/**
 * The failed tests' names as the lanes printed them (Playwright's summary, vitest's FAIL lines),
 * once more at the end: a CI log that shows only its last lines still says which tests failed.
 */
function failedTests() {
  const lines = Buffer.concat(printed).toString().replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  const names = new Set();
  let inSummary = false;
  for (const line of lines) {
    if (/^\s+\d+ (failed|flaky)$/.test(line)) inSummary = true;
    else if (/^\s+\d+ (passed|skipped|did not run|interrupted)\b/.test(line)) inSummary = false;
    else if (inSummary && /›/.test(line)) names.add(line.trim().replace(/\s*─+$/, ''));
    if (/^\s*FAIL\s/.test(line) && />/.test(line)) names.add(line.trim());
  }
  return [...names];
}

/** Runs scripts one after another, stopping at the first that fails; resolves with the failing script or null. */
async function lane(scripts, sink, nice = 0) {
  for (const script of scripts) {
    const started = Date.now();
    const code = await run(script, sink, nice);
    const line = `[npm test] ${script}: ${code === 0 ? 'passed' : `FAILED (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(0)} s\n`;
    if (sink) sink.push(Buffer.from(line));
    else process.stdout.write(line);
    if (code !== 0) return script;
  }
  return null;
}

const started = Date.now();
// Chromium first and alone, then the engine lanes' browsers: each may be installed with apt-get,
// which says what it does (and takes the package lock, so one at a time).
const chromium = await run('test:chromium');
if (chromium !== 0) process.exit(chromium);
const engines = await run('test:engines-installed');
if (engines !== 0) process.exit(engines);

/** Runs a lane whose output is kept and printed whole, under `title`, when it is done. */
async function quietLane(title, scripts, nice) {
  const out = [];
  const failed = await lane(scripts, out, nice);
  process.stdout.write(`\n---- ${title} ----\n${Buffer.concat(out).toString()}---- end of ${title} ----\n\n`);
  return failed;
}

// The type checks beside the build, before anything runs in real time: both are short when they
// have the machine, and the lanes after them are long.
const [buildFailed, typesFailed] = await Promise.all([lane(['build:quiet']), quietLane('type checks', ['typecheck'])]);
const lightFailed = quietLane('size check, import rules, README check, flow checks', ['check:sizes', 'check:imports', 'check:readme', 'test:flows'], NICE_BESIDE_VOICE);
const voiceFailed = buildFailed ?? (await lane(['test:voice']));
const unitFailed = quietLane('unit tests', ['test:unit'], NICE_BESIDE_TOUCH);
const touchFailed = buildFailed ? null : await lane(['test:touch']);
const [webkitFailed, firefoxFailed] = buildFailed ? [null, null] : await Promise.all([quietLane("Safari's engine (WebKit)", ['test:webkit']), quietLane('Firefox', ['test:firefox'])]);
const checkFailed = [typesFailed, await lightFailed, await unitFailed];

const minutes = ((Date.now() - started) / 60_000).toFixed(1);
const failed = [buildFailed, voiceFailed, touchFailed, webkitFailed, firefoxFailed, ...checkFailed].filter(Boolean);
const names = failedTests();
if (names.length) console.log(`\nnpm test: the tests that failed (or passed only on a retry):\n${names.map((n) => `  ${n}`).join('\n')}\n`);
console.log(failed.length ? `npm test: FAILED (${failed.join(', ')}) after ${minutes} min` : `npm test: everything passed in ${minutes} min`);
process.exit(failed.length ? 1 : 0);
