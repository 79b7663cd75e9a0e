#!/usr/bin/env node
// `npm test`: every test, arranged so that the slow parts are not queued behind the fast ones and
// the real-time parts have first call on the machine.
//
//   1. Chromium (installed with apt-get if missing), then the production build and the type
//      checks side by side.
//   2. The voice tests: real speech played into Chromium in real time. They leave most of the two
//      cores idle (the speech plays at its own pace), so the checking lane starts beside them at
//      the lowest priority, taking only what the browsers leave: a busy machine can starve the
//      browser's audio threads, and a voice cut short is a test failing for nothing. The checking
//      lane is the size check (no source file over 400 lines and no function over 80 in src/,
//      server/ and bin/), the import rules of .dependency-cruiser.cjs, unit and property tests,
//      the flow checks and conversation tests; mostly CPU.
//   3. The touch tests once the voice tests are done (Chromium, waiting on the kiosk's own
//      signals, which a busy machine only slows down), beside what is left of the checking lane,
//      whose next scripts run at a milder priority. The browser tests print as they go; the
//      checking lane's output is printed whole when it is done.
//
// Exits non-zero when any part fails; a failed voice run still lets the rest run, to show all.

import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

/** How much lower the checking lane runs (a nice value: 0 is normal, 19 the lowest): beside the voice tests, and after them. */
const NICE_BESIDE_VOICE = 19;
const NICE_AFTER_VOICE = 10;
let checkingNice = NICE_BESIDE_VOICE;

/** Runs `npm run <script>`; resolves with its exit code. Output goes to `sink` (and the run is niced), or straight through. */
function run(script, sink) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: sink ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: process.env });
    if (sink) {
      try {
        setPriority(child.pid, checkingNice);
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
// The type checks beside the build, before anything runs in real time: both are short when they
// have the machine, and the lanes after them are long.
const [buildFailed, typesFailed] = await Promise.all([lane(['build:quiet']), lane(['typecheck'], checking)]);
const checkingLane = (typesFailed ? Promise.resolve(typesFailed) : lane(['check:sizes', 'check:imports', 'test:unit', 'test:flows'], checking)).then((failed) => {
  process.stdout.write(`\n---- type checks, size check, import rules, unit tests, flow checks ----\n${Buffer.concat(checking).toString()}---- end of the checking lane ----\n\n`);
  return failed;
});
const voiceFailed = buildFailed ?? (await lane(['test:voice']));
checkingNice = NICE_AFTER_VOICE;
const touchFailed = buildFailed ? null : await lane(['test:touch']);
const checkFailed = await checkingLane;

const minutes = ((Date.now() - started) / 60_000).toFixed(1);
const failed = [voiceFailed, checkFailed, touchFailed].filter(Boolean);
console.log(failed.length ? `npm test: FAILED (${failed.join(', ')}) after ${minutes} min` : `npm test: everything passed in ${minutes} min`);
process.exit(failed.length ? 1 : 0);
