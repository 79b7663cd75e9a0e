#!/usr/bin/env node
// Checks Prepatu's real flows (github.com/busytaal/prepatu), which live beside this project in
// ../shared/prepatu-flows and not in its repository: `vfdl check` on each, the conversation tests
// written for them and the unit tests that read them (tests/prepatu-real, with
// vitest.prepatu.config.ts), and the property test with them added (PREPATU_FLOWS). `npm test` needs none of this: it runs the same kinds of test on the flows in
// tests/fixtures/prepatu-dialect. Without the folder, says so and exits 0.
//
//   node scripts/check-prepatu.mjs [FOLDER]     FOLDER, else $PREPATU_FLOWS, else ../shared/prepatu-flows

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const REAL_TESTS = join(REPO, 'tests/prepatu-real');
const VFDL = join(REPO, 'bin/vfdl.js');
const VITEST = join(REPO, 'node_modules/vitest/vitest.mjs');
/** The property test takes the real flows as extra input; the rest are tests/prepatu-real/*.test.ts. */
const UNIT_TESTS = ['tests/unit/engine.property.test.ts'];

const given = process.argv[2] ?? process.env.PREPATU_FLOWS;
const folder = given ? resolve(given) : resolve(REPO, '../shared/prepatu-flows');

/** A path as printed: relative to where we run, unless that climbs more than one folder. */
function shown(path) {
  const near = relative(process.cwd(), path) || '.';
  return near.startsWith(join('..', '..')) ? path : near;
}

if (!existsSync(folder) || !statSync(folder).isDirectory()) {
  console.log(
    `check-prepatu: ${shown(folder)} does not exist, so Prepatu's real flows were not checked.\n` +
      'That is expected in a clone of this project: its own tests use tests/fixtures/prepatu-dialect.',
  );
  process.exit(0);
}

const flows = readdirSync(folder)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => join(folder, f));
if (flows.length === 0) {
  console.error(`check-prepatu: ${shown(folder)} holds no .yaml flow files`);
  process.exit(1);
}

/**
 * The conversation tests for the real flows. Each names its flow relative to itself (in
 * ../shared/prepatu-flows); when FOLDER is elsewhere, a copy pointing there is run instead.
 */
function conversationScripts(scratch) {
  return readdirSync(REAL_TESTS)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => {
      const script = join(REAL_TESTS, f);
      const text = readFileSync(script, 'utf8');
      const line = /^flow:[ \t]*(\S.*?)[ \t]*$/m.exec(text);
      if (!line) return relative(REPO, script); // vfdl test reports the missing key
      const target = join(folder, basename(line[1]));
      if (resolve(REAL_TESTS, line[1]) === target) return relative(REPO, script);
      const copy = join(scratch, f);
      writeFileSync(copy, text.replace(line[0], `flow: ${JSON.stringify(target)}`));
      return copy;
    });
}

/** Runs one step with node, in the repository; true when it exits 0. */
function run(title, args, env = {}) {
  console.log(`\ncheck-prepatu: ${title}`);
  const result = spawnSync(process.execPath, args, { cwd: REPO, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
}

function runConversations(scratch) {
  const scripts = conversationScripts(scratch);
  const copied = scripts.some((s) => s.startsWith(scratch));
  const title = `conversation tests in tests/prepatu-real${copied ? ` (run as copies in ${scratch} naming ${shown(folder)})` : ''}`;
  return run(title, [VFDL, 'test', ...scripts]);
}

const scratch = mkdtempSync(join(tmpdir(), 'check-prepatu-'));
let results;
try {
  results = [
    ['vfdl check', run(`vfdl check on ${shown(folder)}`, [VFDL, 'check', ...flows.map((f) => relative(REPO, f))])],
    ['conversation tests', runConversations(scratch)],
    ['property test', run(`${UNIT_TESTS.join(' and ')} with the real flows`, [VITEST, 'run', ...UNIT_TESTS], { PREPATU_FLOWS: folder })],
    ['unit tests', run('tests/prepatu-real/*.test.ts', [VITEST, 'run', '--config', 'vitest.prepatu.config.ts'], { PREPATU_FLOWS: folder })],
  ];
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const failed = results.filter(([, ok]) => !ok).map(([name]) => name);
console.log(
  failed.length === 0
    ? `\ncheck-prepatu: Prepatu's real flows in ${shown(folder)} pass`
    : `\ncheck-prepatu: failed: ${failed.join(', ')}`,
);
process.exit(failed.length === 0 ? 0 : 1);
