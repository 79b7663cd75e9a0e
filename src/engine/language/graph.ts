// The flow as a Mermaid state diagram, written from the flow's drawing (flow-edges.ts, which the
// studio's diagram draws too): one edge per place a state leads to under one condition, labelled
// with every way that takes it and the guard in words; a note on a state for its gate and the
// tools the engine makes there, the tools that wait for the visitor's yes, and what runs on entering.

import { END, ERROR, type Flow } from './flow.ts';
import { flowDrawing, type FlowNode } from './flow-edges.ts';

const node = (id: string) => (id === END ? '[*]' : id === ERROR ? 'error_state' : id);
/** Text Mermaid reads as a label: no `:`, `;`, `#`, braces, angle brackets or straight quotes. */
const label = (text: string) => text.replace(/[:;#{}<>"]/g, ' ').replace(/\s+/g, ' ').trim();

/** The lines of a state's note: its gate and generated tools, the tools waiting for a yes, the calls on entering. */
function noteLines(n: FlowNode): string[] {
  const lines: string[] = [];
  if (n.gate) lines.push(`gate on ${n.gate.join(', ')}`, `generated tools ${n.generatedTools.join(', ')}`);
  if (n.waitsForYes.length) lines.push(`${n.waitsForYes.join(', ')} ${n.waitsForYes.length === 1 ? 'waits' : 'wait'} for the visitor's yes`);
  if (n.callsOnEntering.length) lines.push(`on entering runs ${n.callsOnEntering.join(', ')}`);
  return lines;
}

/** Mermaid `stateDiagram-v2` text for a flow. */
export function flowToMermaid(flow: Flow): string {
  const drawing = flowDrawing(flow);
  const out = ['stateDiagram-v2', `  [*] --> ${node(flow.initial)}`];
  for (const n of drawing.nodes) {
    if (n.kind !== 'state') continue;
    for (const e of drawing.edges.filter((edge) => edge.from === n.id)) out.push(`  ${node(e.from)} --> ${node(e.to)}: ${label(e.label)}`);
    const note = noteLines(n);
    if (note.length) out.push(`  note right of ${node(n.id)}`, ...note.map((line) => `    ${label(line)}`), '  end note');
  }
  const all = drawing.everywhere;
  if (all) {
    const but = all.except.length ? ` but ${all.except.join(', ')}` : '';
    out.push(`  note right of ${node(flow.initial)}`, `    from every state${but}`, ...all.ways.map((w) => `    ${label(`${w.text} to ${w.to}`)}`), '  end note');
  }
  if (drawing.visitLimit) {
    const to = drawing.visitLimit.to === END ? 'the end' : drawing.visitLimit.to;
    out.push(`  note left of ${node(flow.initial)}`, `    any state goes to ${to} after ${drawing.visitLimit.seconds}s`, '  end note');
  }
  return `${out.join('\n')}\n`;
}
