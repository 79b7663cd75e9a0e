// `vfdl graph FILE`: prints the flow as a Mermaid state diagram.

import { formatDiagnostic } from '../engine/language/diagnostics.ts';
import { flowToMermaid } from '../engine/language/graph.ts';
import { loadFlow } from '../engine/language/load-flow.ts';
import { readText, type Io } from './io.ts';

export function runGraph(files: readonly string[], io: Io): number {
  if (files.length !== 1) {
    io.err('vfdl graph: give exactly one flow file');
    return 2;
  }
  const file = files[0]!;
  const read = readText(file);
  if ('problem' in read) {
    io.err(`${file}: error: cannot read: ${read.problem}`);
    return 2;
  }
  const result = loadFlow(read.text, file);
  if (!result.loaded) {
    for (const d of result.diagnostics) io.err(formatDiagnostic(d));
    return 1;
  }
  io.out(flowToMermaid(result.loaded.flow));
  return 0;
}
