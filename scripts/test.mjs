#!/usr/bin/env node
// `npm test`: every test, arranged so that the slow parts are not queued behind the fast ones and
// the real-time parts have first call on the machine. On a two-core machine each of the big parts
// keeps both cores busy (docs/testing.md#how-long-it-takes has the figures): the voice tests (real
// time, the speech detector running in every page), the touch tests (each opens a fresh kiosk)
// and the unit tests.
//
//   1. Chromium and its headless shell (installed with apt-get if missing), then the production
//      build and the two type checks (svelte-check, tsc) side by side.
//   2. The voice tests: real speech played into Chromium in real time, with only the lanes at
//      the lowest priority beside them (nice 19, which takes a core only when nothing else wants
//      it): the light checks (the size check: no source file over 400 lines and no function over
//      80 in src/, server/ and bin/; the import rules of .dependency-cruiser.cjs; the README's
//      check: its links resolve and the npm scripts it names exist; the flow checks and
//      conversation tests) and the unit and property tests (one file per core). A busy machine
//      starves the browser's audio threads, and a voice cut short is a test failing for nothing;
//      the voice tests keep about two thirds of the machine busy, and the unit tests use the rest.
//   3. The touch tests (Chromium, waiting on the kiosk's own signals, which a busy machine only
//      slows down), with what is left of the unit tests beside them at a milder priority (nice 10,
//      for root, who may raise a priority again; elsewhere they stay at 19).
//   4. The engine lanes, side by side, once the unit tests are done (beside the touch tests'
//      last minute), or after the touch tests if those end first (tests/engines: one browser
//      each, a test at a time): Safari's engine (WebKitGTK's MiniBrowser over WebDriver, on Xvfb)
//      and Firefox ESR (over WebDriver BiDi). Their browsers (and Xvfb and PulseAudio) are
//      installed with apt-get, if missing, beside Chromium at the start.
//
// The browser tests print as they go; the other lanes' output is printed whole when they are done.
// Exits non-zero when any part fails; a failed voice run still lets the rest run, to show all. The
// last lines name the tests that failed, for a log that keeps only its end.

import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/** How much lower the lanes beside the browser tests run (a nice value: 0 is normal, 19 the lowest). */
const NICE_BESIDE_VOICE = 19;
const NICE_BESIDE_TOUCH = 10;

/** Everything every lane printed, kept to name the failed tests again at the very end. */
const printed = [];

/** A lane's priority: its nice value (0 is normal, 19 the lowest) and the process it runs now. */
function priority(nice = 0) {
  return { nice, pid: null };
}

/** The threads of process `pid` and of all its descendants (Linux keeps a nice value per thread). */
function threadsOf(pid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const threads = [];
  for (const queue = [pid]; queue.length; ) {
    const p = queue.pop();
    try {
      threads.push(...readdirSync(`/proc/${p}/task`).map(Number));
    } catch {
      // gone meanwhile
    }
    queue.push(...(children.get(p) ?? []));
  }
  return threads;
}

/**
 * Gives a lane a new nice value, from now on and for every process it runs now. Raising a
 * priority is for root (CI) only; elsewhere the lane keeps the one it had.
 */
function renice(lanePriority, nice) {
  lanePriority.nice = nice;
  if (lanePriority.pid === null) return;
  for (const thread of threadsOf(lanePriority.pid)) {
    try {
      setPriority(thread, nice);
    } catch {
      // not allowed here, or gone meanwhile
    }
  }
}

/** Runs `npm run <script>` at the lane's priority; resolves with its exit code. Output goes to `sink`, or straight through. */
function run(script, sink, lanePriority = priority()) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    lanePriority.pid = child.pid;
    try {
      if (lanePriority.nice > 0) setPriority(child.pid, lanePriority.nice);
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
async function lane(scripts, sink, lanePriority = priority()) {
  for (const script of scripts) {
    const started = Date.now();
    const code = await run(script, sink, lanePriority);
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
async function quietLane(title, scripts, lanePriority) {
  const out = [];
  const failed = await lane(scripts, out, lanePriority);
  process.stdout.write(`\n---- ${title} ----\n${Buffer.concat(out).toString()}---- end of ${title} ----\n\n`);
  return failed;
}

// The two type checks (svelte-check and tsc, one after the other in `npm run typecheck`) side by
// side with the build, before anything runs in real time: all three are short when they have the
// machine. Then the lanes that only fill what the voice tests leave idle, at the lowest priority;
// once the voice tests are done, what is left of the unit tests runs at a milder one beside the
// touch tests.
const [buildFailed, svelteTypesFailed, nodeTypesFailed] = await Promise.all([
  lane(['build:quiet']),
  quietLane('type checks: the page (svelte-check)', ['typecheck:svelte']),
  quietLane('type checks: Node, tests and tools (tsc)', ['typecheck:node']),
]);
const typesFailed = svelteTypesFailed ?? nodeTypesFailed;
const lightFailed = quietLane('size check, import rules, README check, flow checks', ['check:sizes', 'check:imports', 'check:readme', 'test:flows'], priority(NICE_BESIDE_VOICE));
const unitPriority = priority(NICE_BESIDE_VOICE);
const unitFailed = quietLane('unit tests', ['test:unit'], unitPriority);
const voiceFailed = buildFailed ?? (await lane(['test:voice']));
renice(unitPriority, NICE_BESIDE_TOUCH);
const touchRun = buildFailed ? Promise.resolve(null) : lane(['test:touch']);
// The engine lanes once the unit tests are done, or the touch tests if they end first: the touch
// tests' last minute leaves room beside them.
const enginesRun = buildFailed
  ? Promise.resolve([null, null])
  : Promise.race([touchRun, unitFailed]).then(() => Promise.all([quietLane("Safari's engine (WebKit)", ['test:webkit']), quietLane('Firefox', ['test:firefox'])]));
const touchFailed = await touchRun;
const [webkitFailed, firefoxFailed] = await enginesRun;
const checkFailed = [typesFailed, await lightFailed, await unitFailed];

const minutes = ((Date.now() - started) / 60_000).toFixed(1);
const failed = [buildFailed, voiceFailed, touchFailed, webkitFailed, firefoxFailed, ...checkFailed].filter(Boolean);
const names = failedTests();
if (names.length) console.log(`\nnpm test: the tests that failed (or passed only on a retry):\n${names.map((n) => `  ${n}`).join('\n')}\n`);
console.log(failed.length ? `npm test: FAILED (${failed.join(', ')}) after ${minutes} min` : `npm test: everything passed in ${minutes} min`);
process.exit(failed.length ? 1 : 0);
