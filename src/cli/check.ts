// `vfdl check FILE...`: validates flows (a folder's .yaml files, not its *.test.yaml scripts). Exit 0 when every file is valid (warnings may print),
// 1 when any has an error, 2 when a file cannot be read or none is given.

import { formatDiagnostic, hasErrors, type Diagnostic } from '../engine/language/diagnostics.ts';
import { loadFlow } from '../engine/language/load-flow.ts';
import { expandFiles, readText, skippedLine, type Io } from './io.ts';

export function runCheck(paths: readonly string[], io: Io): number {
  const { files, skipped } = expandFiles(paths, 'flows');
  if (skipped.length) io.err(skippedLine('check', skipped, 'flows'));
  if (files.length === 0) {
    io.err('vfdl check: no flow files given');
    return 2;
  }
  const all: Diagnostic[] = [];
  let unreadableCount = 0;
  for (const file of files) {
    const read = readText(file);
    if ('problem' in read) {
      io.err(`${file}: error: cannot read: ${read.problem}`);
      unreadableCount++;
      continue;
    }
    all.push(...loadFlow(read.text, file).diagnostics);
  }
  if (io.json) {
    io.out(JSON.stringify({ files, diagnostics: all }, null, 2));
  } else {
    for (const d of all) io.out(formatDiagnostic(d));
    const errors = all.filter((d) => d.severity === 'error').length;
    const warnings = all.length - errors;
    const read = files.length - unreadableCount;
    io.out(`${read} file(s) checked: ${errors} error(s), ${warnings} warning(s)${unreadableCount ? `; ${unreadableCount} could not be read` : ''}`);
  }
  if (unreadableCount) return 2;
  return hasErrors(all) ? 1 : 0;
}
