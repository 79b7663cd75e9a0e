// What the studio works out from the flow's text, with the engine's own code: the diagnostics of
// `vfdl check` (the same loadFlow, so the same line and column), the drawing of its states and
// edges (flow-edges.ts, which `vfdl graph` writes), where each state is written in the text, and
// what the preview and the tests need to know of it. Pure: it runs in the studio's worker, and in
// Node for the unit tests.

import { isMap, isScalar } from 'yaml';
import type { Diagnostic } from '../engine/language/diagnostics.ts';
import { flowDrawing, type FlowDrawing } from '../engine/language/flow-edges.ts';
import type { Flow, ValueType } from '../engine/language/flow.ts';
import { loadFlow, type LoadResult } from '../engine/language/load-flow.ts';
import { readFlowSource } from '../engine/language/source.ts';
import { layOut, type DiagramLayout } from './diagram/layout.ts';

/** Where a state is written: its key, and the end of what it holds (character offsets). */
export interface StateRange {
  key: number;
  end: number;
}

/** What the studio's controls need to know of the flow (read from it as far as it could be read). */
export interface FlowSummary {
  title: string;
  languages: readonly string[];
  defaultLanguage: string;
  states: readonly string[];
  initial: string;
  variables: readonly { name: string; type: ValueType; enum?: readonly unknown[] }[];
  /** every tool the flow defines, its own and its states' */
  tools: readonly string[];
  /** the tools with an HTTP action, whose answers the preview gives */
  actionTools: readonly string[];
}

/** What the checker says of the text: shown as soon as it is known. */
export interface CheckResult {
  diagnostics: Diagnostic[];
  /** the flow has no error: it can run, be tested and be saved for the kiosks */
  runnable: boolean;
  summary: FlowSummary | null;
}

/** The flow drawn: worked out after the diagnostics are shown. */
export interface DrawResult {
  drawing: FlowDrawing | null;
  /** the drawing laid out for the diagram */
  layout: DiagramLayout | null;
  ranges: Record<string, StateRange>;
}

/** Where each state of the text is written (a text that is no YAML has none). */
export function stateRanges(text: string): Record<string, StateRange> {
  const src = readFlowSource(text, 'flow.yaml');
  const out: Record<string, StateRange> = {};
  const root = src.doc.contents;
  if (!isMap(root)) return out;
  const states = root.items.find((p) => isScalar(p.key) && p.key.value === 'states')?.value;
  if (!isMap(states)) return out;
  for (const pair of states.items) {
    if (!isScalar(pair.key) || !pair.key.range) continue;
    const value = pair.value as { range?: [number, number, number] } | null;
    out[String(pair.key.value)] = { key: pair.key.range[0], end: value?.range?.[1] ?? pair.key.range[1] };
  }
  return out;
}

/** The tools of a flow with an HTTP action, its own and its states', sorted. */
export function actionTools(flow: Flow): string[] {
  const tools = [...Object.values(flow.tools), ...Object.values(flow.states).flatMap((s) => Object.values(s.tools))];
  return [...new Set(tools.filter((t) => t.http).map((t) => t.name))].sort();
}

function summaryOf(flow: Flow): FlowSummary {
  return {
    title: flow.title,
    languages: flow.languages,
    defaultLanguage: flow.defaultLanguage,
    states: flow.stateOrder,
    initial: flow.initial,
    variables: Object.values(flow.variables).map((v) => ({ name: v.name, type: v.type, ...(v.enum ? { enum: v.enum } : {}) })),
    tools: [...new Set([...Object.keys(flow.tools), ...Object.values(flow.states).flatMap((s) => Object.keys(s.tools))])].sort(),
    actionTools: actionTools(flow),
  };
}

/** What the checker says of the text (`loaded`: its loadFlow, when already made). */
export function checkFlow(text: string, file: string, loaded: LoadResult = loadFlow(text, file)): CheckResult {
  const flow = loaded.loaded?.flow ?? loaded.draft;
  return { diagnostics: loaded.diagnostics, runnable: loaded.loaded !== undefined, summary: flow ? summaryOf(flow) : null };
}

/** The flow's drawing, laid out, and where each state is written. */
export function drawFlow(text: string, loaded: LoadResult): DrawResult {
  const flow = loaded.loaded?.flow ?? loaded.draft;
  const drawing = flow && flow.stateOrder.length > 0 ? flowDrawing(flow) : null;
  return { drawing, layout: drawing ? layOut(drawing) : null, ranges: stateRanges(text) };
}
