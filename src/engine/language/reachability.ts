// Where a flow can go: the states each state may move to (which the runtime's statechart uses
// too), the states no visit reaches, whether a visit can end, and ways out that need the LLM.

import { END, ERROR, resolveTool, type Branch, type Flow, type StateDef } from './flow.ts';
import { globalIn } from './global.ts';
import { own } from './records.ts';
import type { Reporter } from './source.ts';
import { formTool, toolButtons } from './touch.ts';

/** Where each state can go, for reachability (gate, timeout and settings edges included). */
export function edgesOf(flow: Flow, s: StateDef): string[] {
  const out: string[] = [];
  const push = (bs: readonly Branch[]) => bs.forEach((b) => out.push(b.target));
  // A decision step leads only where it decides: the visitor is never there long enough for more.
  if (s.decide) {
    push(s.decide);
    return out;
  }
  Object.values(s.transitions.onUiEvent).forEach(push);
  Object.values(s.transitions.onToolCall).forEach(push);
  Object.values(s.transitions.onAction ?? {}).forEach((o) => [o.done, o.failed].forEach((bs) => bs && push(bs)));
  s.transitions.onUtterance.forEach((r) => push(r.branches));
  if (s.transitions.onTimeout) {
    out.push(s.transitions.onTimeout.target);
    if (s.transitions.onTimeout.fallback) out.push(s.transitions.onTimeout.fallback);
  }
  if (s.gate) {
    push(s.gate.onConfirm);
    out.push(s.gate.onReject.target ?? s.id);
  }
  if (flow.settings.maxDurationSecs !== undefined) out.push(flow.settings.onTimeout ?? END);
  const g = globalIn(flow, s);
  const noMatch = s.transitions.onNoMatch ?? g.onNoMatch;
  if (noMatch) out.push(noMatch.fallback);
  Object.values(g.onUiEvent).forEach(push);
  Object.values(g.onToolCall).forEach(push);
  g.onUtterance.forEach((r) => push(r.branches));
  return out;
}

/** Unreachable states, no reachable end, and states every way out of which depends on the LLM. */
export function checkGraph(r: Reporter, flow: Flow): void {
  if (!own(flow.states, flow.initial)) return;
  const seen = new Set<string>([flow.initial]);
  const queue = [flow.initial];
  let endReachable = false;
  while (queue.length) {
    const id = queue.shift()!;
    const s = own(flow.states, id);
    if (!s) {
      if (id === END) endReachable = true;
      continue;
    }
    if (s.terminal) endReachable = true;
    for (const t of edgesOf(flow, s)) {
      if (!seen.has(t)) {
        seen.add(t);
        queue.push(t);
      }
    }
  }
  for (const id of flow.stateOrder) {
    if (!seen.has(id) && id !== ERROR && id !== flow.settings.onError) {
      r.warn('unreachable-state', ['states', id], `state "${id}" cannot be reached from "${flow.initial}"`, true);
    }
  }
  const anyEnd = flow.stateOrder.some((id) => flow.states[id]!.terminal) || [...seen].includes(END) ||
    flow.stateOrder.some((id) => edgesOf(flow, flow.states[id]!).includes(END));
  if (!anyEnd) {
    r.warn('no-end', ['states'], `the flow has neither ${END} nor a terminal state: a visitor can never finish`, true);
  } else if (!endReachable) {
    r.warn('no-end', ['states'], `no path from "${flow.initial}" reaches ${END} or a terminal state`, true);
  }
  for (const id of flow.stateOrder) {
    const s = flow.states[id]!;
    if (s.terminal || s.decide || !seen.has(id)) continue;
    const t = s.transitions;
    const deterministic =
      Object.keys(t.onUiEvent).length > 0 ||
      t.onUtterance.length > 0 ||
      t.onTimeout !== undefined ||
      (s.gate !== undefined && (s.ui?.fields.length ?? 0) > 0) ||
      (s.gate?.confirmPhrases.length ?? 0) > 0 ||
      (flow.settings.allowBack && id !== flow.initial) ||
      // touch routes the kiosk makes from the state's tools (touch.ts)
      formTool(flow, s) !== undefined ||
      toolButtons(flow, s).length > 0 ||
      (s.ui?.actions ?? []).some((a) => a.tool !== undefined && resolveTool(flow, s, a.tool) !== undefined);
    if (!deterministic) {
      r.warn('llm-only-exit', ['states', id], `every way out of "${id}" depends on the LLM: add an on_ui_event, on_utterance or on_timeout`, true);
    }
  }
}
