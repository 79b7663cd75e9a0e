// Checking one `expect` of a conversation test against the engine: its state now, and the messages
// since the previous `expect` (or the start). Returns what differed, one line each.

import type { EngineView } from '../engine/runtime/engine.ts';
import type { EngineMessage, FlowStateMessage, ToolSpec } from '../engine/runtime/messages.ts';
import type { Expectation, MessageExpectation } from './script-types.ts';
import { describe, explain, field, match, show, type Pattern } from './expect-pattern.ts';

/** What an expectation is checked against. */
export interface Observed {
  view: EngineView;
  /** the messages since the previous expect (or the start), in order */
  window: readonly EngineMessage[];
  /** the latest flow_state: the current state's prompt */
  flowState: FlowStateMessage | null;
  /** the tools offered to the LLM now, as it gets them */
  toolSpecs: readonly ToolSpec[];
  /** the end screen's list of what the visitor takes away, as it stands now (shown-values.ts, takeAwayLines) */
  given: readonly { label: string; value: unknown }[];
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && new Set([...a, ...b]).size === new Set(a).size;

function isSubsequence(wanted: readonly string[], seen: readonly string[]): boolean {
  let i = 0;
  for (const s of seen) if (i < wanted.length && s === wanted[i]) i++;
  return i === wanted.length;
}

/** The differences between an expectation and what happened; empty when it holds. */
export function compare(ex: Expectation, o: Observed): string[] {
  const v = o.view;
  const diffs: string[] = [];
  if (ex.state !== undefined && v.state !== ex.state) diffs.push(`state is "${v.state}", expected "${ex.state}"`);
  if (ex.ended !== undefined && v.ended !== ex.ended) diffs.push(`ended is ${v.ended}, expected ${ex.ended}`);
  for (const [name, p] of ex.variables ?? []) diffs.push(...explain(match(p, field(v.values, name)), `variable ${name}`));
  if (ex.pending && !sameSet(v.pending, ex.pending)) diffs.push(`pending is [${v.pending.join(', ')}], expected [${ex.pending.join(', ')}]`);
  if (ex.tools && !sameSet(v.tools, ex.tools)) diffs.push(`tools are [${v.tools.join(', ')}], expected [${ex.tools.join(', ')}]`);

  const types = o.window.map((m) => m.type);
  if (ex.emitted?.length === 0 && types.length) diffs.push(`emitted [${types.join(', ')}], expected nothing`);
  else if (ex.emitted && !isSubsequence(ex.emitted, types)) diffs.push(`emitted [${types.join(', ')}], expected [${ex.emitted.join(', ')}] in this order`);
  for (const t of ex.not_emitted ?? []) if ((types as string[]).includes(t)) diffs.push(`${t} was emitted, expected not`);

  const rejections = o.window.flatMap((m) => (m.type === 'tool_rejected' ? [m] : []));
  const reasons = rejections.map((m) => m.reason);
  if (ex.rejected?.length === 0 && rejections.length) {
    diffs.push(`rejected ${rejections.map((m) => `${m.tool} (${m.reason}: ${m.detail})`).join(', ')}, expected no rejection`);
  } else if (ex.rejected && !isSubsequence(ex.rejected, reasons)) {
    diffs.push(`rejections were [${reasons.join(', ')}], expected [${ex.rejected.join(', ')}] in this order`);
  }

  if (ex.messages) diffs.push(...matchMessages(ex.messages, o.window));
  if (ex.requests) diffs.push(...matchRequests(ex.requests, o.window));
  if (ex.system_prompt) diffs.push(...explain(match(ex.system_prompt, o.flowState?.agent.system_prompt), 'system_prompt', 2000));
  for (const [tool, p] of ex.tool_schema ?? []) diffs.push(...matchSchema(tool, p, o));
  if (ex.given) diffs.push(...matchGiven(ex.given, o.given));
  return diffs;
}

/** `given`: the end screen's lines are exactly these, in order. */
function matchGiven(items: readonly Pattern[], lines: Observed['given']): string[] {
  const shown = lines.map((l) => `${l.label}: ${String(l.value)}`).join('; ');
  if (items.length !== lines.length) return [`given: the end screen lists ${lines.length} line(s) ([${shown}]), expected ${items.length}`];
  return items.flatMap((p, i) => explain(match(p, { label: lines[i]!.label, value: lines[i]!.value }), `given[${i}]`));
}

/** `messages`: each item matches a later message than the one before it; [] means no message. */
function matchMessages(items: readonly MessageExpectation[], window: readonly EngineMessage[]): string[] {
  if (items.length === 0) {
    return window.length ? [`messages: expected none, got [${window.map((m) => m.type).join(', ')}]`] : [];
  }
  let from = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    const found = window.findIndex((m, j) => j >= from && match(item.pattern, m).length === 0);
    if (found < 0) return [unmatched(item, i, window, from)];
    from = found + 1;
  }
  return [];
}

/** `requests`: the action_run messages are exactly these, in order ([] means none was made). */
function matchRequests(items: readonly MessageExpectation[], window: readonly EngineMessage[]): string[] {
  const runs = window.filter((m) => m.type === 'action_run');
  const shown = runs.map((m) => `${m.method} ${m.url}`).join(', ');
  if (runs.length !== items.length) return [`requests: ${runs.length} made ([${shown}]), expected ${items.length}`];
  return items.flatMap((item, i) => explain(match(item.pattern, runs[i]), `requests[${i}] (line ${item.line})`));
}

/** Why a `messages` item matched nothing: no message of its type, the order, or the closest one. */
function unmatched(item: MessageExpectation, i: number, window: readonly EngineMessage[], from: number): string {
  const label = `messages[${i}] (line ${item.line}) ${describe(item.pattern)}`;
  const candidates = window.flatMap((m, j) => (m.type === item.type ? [{ m, j, misses: match(item.pattern, m) }] : []));
  if (candidates.length === 0) {
    return `${label}: no ${item.type} message was emitted (emitted [${window.map((m) => m.type).join(', ')}])`;
  }
  if (candidates.some((c) => c.misses.length === 0)) {
    return `${label}: the ${item.type} that matches came before the message matched by messages[${i - 1}]: the order differs`;
  }
  // The fewest differences wins; on a tie, a message after the previous item's match.
  const best = candidates.reduce((a, b) => {
    const rank = (c: typeof a) => c.misses.length * 2 + (c.j >= from ? 0 : 1);
    return rank(b) < rank(a) ? b : a;
  });
  const shown = Object.fromEntries(fieldsOf(item.pattern).map((k) => [k, field(best.m as unknown as Record<string, unknown>, k)]));
  const n = candidates.length;
  return `${label}: no ${item.type} matched (${n} emitted); the closest is ${show(shown, 300)}: ${explain(best.misses).join('; ')}`;
}

function fieldsOf(p: Pattern): string[] {
  return p.op === 'fields' ? p.fields.map(([k]) => k) : [];
}

/** `tool_schema`: the tool's parameters as a JSON Schema, with the tool's description. */
function matchSchema(tool: string, p: Pattern, o: Observed): string[] {
  const spec = o.toolSpecs.find((s) => s.function.name === tool);
  if (!spec) {
    const offered = o.toolSpecs.map((s) => s.function.name);
    return [`tool_schema: ${tool} is not offered in state "${o.view.state}"${o.view.ended ? ' (the flow has ended)' : ''}; offered: [${offered.join(', ')}]`];
  }
  const schema = { description: spec.function.description, ...spec.function.parameters };
  return explain(match(p, schema), `tool_schema.${tool}`);
}
