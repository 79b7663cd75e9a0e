// `vfdl test SCRIPT...`: runs conversation tests (a folder's *.test.yaml files) headless on a virtual clock, the LLM's part
// scripted (play-script.ts plays each). Exit 0 when every expectation holds, 1 when one does not (naming the script, the
// step's line and what differed), 2 when a flow or script is invalid.

import { dirname, resolve, relative } from 'node:path';
import { formatDiagnostic } from '../engine/language/diagnostics.ts';
import { loadFlow, type LoadedFlow } from '../engine/language/load-flow.ts';
import { checkNames, parseScript } from './conversation-script.ts';
import { expandFiles, readText, skippedLine, type Io } from './io.ts';
import { play, type Outcome } from './play-script.ts';
import type { Script } from './script-types.ts';

export function runTests(paths: readonly string[], io: Io): number {
  const { files, skipped } = expandFiles(paths, 'scripts');
  if (skipped.length) io.err(skippedLine('test', skipped, 'scripts'));
  if (files.length === 0) {
    io.err('vfdl test: no conversation tests given (a folder\'s tests are its *.test.yaml files)');
    return 2;
  }
  let passed = 0;
  let failed = 0;
  let invalid = 0;
  for (const file of files) {
    const outcome = runScript(file, io);
    if (outcome.status === 'passed') {
      passed++;
      if (!io.json) io.out(`ok    ${file} (${outcome.steps} steps)`);
    } else if (outcome.status === 'failed') {
      failed++;
      io.out(`FAIL  ${file}\n${outcome.message}`);
    } else {
      invalid++;
      io.out(`ERROR ${file}\n${outcome.message}`);
    }
  }
  if (!io.json) io.out(`${passed} passed, ${failed + invalid} failed`);
  if (invalid) return 2;
  return failed ? 1 : 0;
}

/** Runs one script: its flow loaded and its names checked, then its steps played against the engine. */
function runScript(file: string, io: Io): Outcome {
  const ready = loadScript(file);
  if ('status' in ready) return ready;
  return play(ready.script, ready.loaded, io.json ? (ms) => ms.forEach((m) => io.out(JSON.stringify(m))) : undefined);
}

/** A script and the flow it tests, read and checked; an invalid outcome when either cannot be read or is not valid. */
function loadScript(file: string): { script: Script; loaded: LoadedFlow } | Outcome {
  const read = readText(file);
  if ('problem' in read) return { status: 'invalid', message: `${file}: error: cannot read: ${read.problem}` };
  const parsed = parseScript(read.text, file);
  if ('diagnostics' in parsed) return { status: 'invalid', message: parsed.diagnostics.map(formatDiagnostic).join('\n') };
  const script = parsed.script;
  const flowPath = relative(process.cwd(), resolve(dirname(file), script.flow));
  const flowText = readText(flowPath);
  if ('problem' in flowText) return { status: 'invalid', message: `${flowPath}: error: cannot read: ${flowText.problem}` };
  const result = loadFlow(flowText.text, flowPath);
  if (!result.loaded) {
    return { status: 'invalid', message: result.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic).join('\n') };
  }
  const unknownNames = checkNames(script, result.loaded);
  if (unknownNames.length) return { status: 'invalid', message: unknownNames.map(formatDiagnostic).join('\n') };
  return { script, loaded: result.loaded };
}

