// The flow as a Mermaid state diagram: every transition with what triggers it, gates shown as
// notes naming the tools the engine generates, and the gate's confirm and reject edges labelled
// so a reader sees what confirming and rejecting do.

import { generatedToolNames } from './catalog.ts';
import { END, ERROR, type Branch, type Flow, type StateDef } from './flow.ts';

const node = (id: string) => (id === END ? '[*]' : id === ERROR ? 'error_state' : id);
const label = (text: string) => text.replace(/[:;#{}<>"]/g, ' ').replace(/\s+/g, ' ').trim();

function edges(from: string, branches: readonly Branch[], trigger: string, out: string[]): void {
  for (const b of branches) {
    const guarded = b.guard ? ' [guarded]' : '';
    const status = b.status ? ` with ${b.status.join(' or ')}` : '';
    out.push(`  ${node(from)} --> ${node(b.target)}: ${label(trigger + status + guarded)}`);
  }
}

function stateLines(flow: Flow, s: StateDef, out: string[]): void {
  const t = s.transitions;
  if (s.decide) edges(s.id, s.decide, 'decided on entering', out);
  for (const [event, bs] of Object.entries(t.onUiEvent)) edges(s.id, bs, `tap ${event}`, out);
  for (const [tool, bs] of Object.entries(t.onToolCall)) edges(s.id, bs, `tool ${tool}`, out);
  for (const [tool, o] of Object.entries(t.onAction ?? {})) {
    if (o.done) edges(s.id, o.done, `action ${tool} done`, out);
    if (o.failed) edges(s.id, o.failed, `action ${tool} failed`, out);
  }
  t.onUtterance.forEach((r, i) => edges(s.id, r.branches, `said pattern ${i + 1}${r.requiresConfirmation ? ' (confirmed)' : ''}`, out));
  if (t.onTimeout) {
    const retries = t.onTimeout.maxRetries !== undefined ? ` up to ${t.onTimeout.maxRetries}x` : '';
    out.push(`  ${node(s.id)} --> ${node(t.onTimeout.target)}: ${label(`timeout ${t.onTimeout.seconds}s${t.onTimeout.target === s.id ? retries : ''}`)}`);
    if (t.onTimeout.fallback) out.push(`  ${node(s.id)} --> ${node(t.onTimeout.fallback)}: ${label('timeout, retries used up')}`);
  }
  if (t.onNoMatch) out.push(`  ${node(s.id)} --> ${node(t.onNoMatch.fallback)}: ${label(`not understood after ${t.onNoMatch.maxRetries} tries`)}`);
  if (s.gate) {
    const gate = s.gate;
    edges(s.id, gate.onConfirm, `gate confirmed (${gate.variables.join(', ')})`, out);
    const rejectTarget = gate.onReject.target ?? s.id;
    if (gate.onReject.action === 'clear' || rejectTarget !== s.id) {
      out.push(`  ${node(s.id)} --> ${node(rejectTarget)}: ${label(`gate rejected, ${gate.onReject.action}`)}`);
    }
    out.push(`  note right of ${node(s.id)}`);
    out.push(`    gate on ${gate.variables.join(', ')}`);
    out.push(`    generated tools ${generatedToolNames(flow, s).join(', ')}`);
    out.push('  end note');
  }
  if (s.terminal) out.push(`  ${node(s.id)} --> [*]: ${label('terminal state')}`);
}

/** Mermaid `stateDiagram-v2` text for a flow. */
export function flowToMermaid(flow: Flow): string {
  const out = ['stateDiagram-v2', `  [*] --> ${node(flow.initial)}`];
  for (const id of flow.stateOrder) stateLines(flow, flow.states[id]!, out);
  const g = flow.global;
  if (g) {
    const ways = [
      ...Object.entries(g.onUiEvent).map(([event, bs]) => `tap ${event} to ${bs.map((b) => b.target).join(' or ')}`),
      ...Object.entries(g.onToolCall).map(([tool, bs]) => `tool ${tool} to ${bs.map((b) => b.target).join(' or ')}`),
      ...g.onUtterance.filter((r) => r.branches.length).map((r, i) => `said pattern ${i + 1} to ${r.branches.map((b) => b.target).join(' or ')}`),
      ...(g.onNoMatch ? [`not understood after ${g.onNoMatch.maxRetries} tries to ${g.onNoMatch.fallback}`] : []),
    ];
    if (ways.length) out.push(`  note right of ${node(flow.initial)}`, `    from every state${g.except.length ? ` but ${g.except.join(', ')}` : ''}`, ...ways.map((w) => `    ${label(w)}`), '  end note');
  }
  if (flow.settings.maxDurationSecs !== undefined) {
    out.push(`  note left of ${node(flow.initial)}`, `    any state goes to ${flow.settings.onTimeout ?? 'the end'} after ${flow.settings.maxDurationSecs}s`, '  end note');
  }
  return `${out.join('\n')}\n`;
}
