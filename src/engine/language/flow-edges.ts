// The flow as a drawing sees it: its states (with their gate, the tools waiting for the visitor's
// yes, what runs on entering) and one edge for each place a state leads to under one condition,
// however many ways lead there (a tap, a tool and a spoken rule to the same state are one edge,
// "tap option_select or tool save_reason, if visit_reason is appointment"). `vfdl graph` writes it
// as Mermaid (graph.ts) and the studio lays it out; neither reads the transitions itself.

import { generatedToolNames } from './catalog.ts';
import { END, ERROR, resolveTool, type Branch, type Flow, type SourcePath, type StateDef } from './flow.ts';
import { globalIn } from './global.ts';
import { guardWords } from './guard-words.ts';

/** What takes an edge. */
export type WayKind = 'decided' | 'tap' | 'tool' | 'said' | 'timeout' | 'retries-used' | 'not-understood' | 'action-done' | 'action-failed' | 'confirmed' | 'rejected' | 'ends';

/** One way of leaving a state: a tap of an event, a tool, a spoken rule, a time-out... */
export interface Way {
  kind: WayKind;
  /** the event, tool or rule number it is about (empty where there is none) */
  name: string;
  /** in words: "tap form_submit", "tool check_in", "said rule 1", "after 90 s" */
  text: string;
  /** where it is written in the flow file */
  at: SourcePath;
}

/** One edge: every way from one state to another under one condition. */
export interface FlowEdge {
  from: string;
  to: string;
  ways: Way[];
  /** the branch's guard in words, or "otherwise" for a branch without one after guarded ones */
  condition?: string;
  /** the values the branch sets, in words ("consent = true") */
  sets?: string;
  /** what a drawing writes on it: the ways joined by "or", then the condition and the values set */
  label: string;
}

/** What a node of the drawing stands for. */
export type NodeKind = 'state' | 'end' | 'error' | 'missing';

export interface FlowNode {
  id: string;
  kind: NodeKind;
  initial: boolean;
  /** a state with no way out: entering it ends the visit */
  terminal: boolean;
  /** the variables its confirmation gate holds until the visitor's yes */
  gate?: readonly string[];
  /** the tools offered here whose action waits for the visitor's yes (`confirm: true`) */
  waitsForYes: readonly string[];
  /** the tools the engine makes here (confirm_…, reject_…, set_language) */
  generatedTools: readonly string[];
  /** the tools whose action runs on entering (`on_enter: [{call: …}]`) */
  callsOnEntering: readonly string[];
  /** the kind of screen: form, options, card */
  screen?: string;
  at: SourcePath;
}

/** The ways out of every state (`global`), and the visit's own time limit. */
export interface Everywhere {
  /** states where `global` does not apply */
  except: readonly string[];
  ways: readonly { text: string; to: string }[];
}

export interface FlowDrawing {
  nodes: FlowNode[];
  edges: FlowEdge[];
  everywhere?: Everywhere;
  /** `settings.max_duration_secs`: every state goes to `to` (the end when absent) after `seconds` */
  visitLimit?: { seconds: number; to: string };
}

/** Collects a state's ways, merging those that lead to the same place under the same condition. */
class Edges {
  readonly list: FlowEdge[] = [];
  private readonly byKey = new Map<string, FlowEdge>();

  constructor(private readonly flow: Flow) {}

  /** A list of branches taken by `way`: each its own edge, the unguarded one after guarded ones "otherwise". */
  branches(from: string, way: Way, branches: readonly Branch[]): void {
    let guardedBefore = false;
    for (const b of branches) {
      const condition = b.guard ? guardWords(b.guard, this.flow) : guardedBefore ? 'otherwise' : undefined;
      guardedBefore ||= b.guard !== undefined;
      this.add(from, b.target, way, condition, setsWords(b.set));
    }
  }

  add(from: string, to: string, way: Way, condition?: string, sets?: string): void {
    const key = JSON.stringify([from, to, condition ?? '', sets ?? '']);
    let edge = this.byKey.get(key);
    if (!edge) {
      edge = { from, to, ways: [], ...(condition ? { condition } : {}), ...(sets ? { sets } : {}), label: '' };
      this.byKey.set(key, edge);
      this.list.push(edge);
    }
    if (!edge.ways.some((w) => w.text === way.text)) edge.ways.push(way);
    const when = edge.condition === 'otherwise' ? 'otherwise' : edge.condition && `if ${edge.condition}`;
    edge.label = [edge.ways.map((w) => w.text).join(' or '), when, edge.sets && `sets ${edge.sets}`].filter(Boolean).join(', ');
  }
}

function setsWords(set: Readonly<Record<string, unknown>>): string | undefined {
  const entries = Object.entries(set);
  return entries.length ? entries.map(([k, v]) => `${k} = ${typeof v === 'string' ? v : JSON.stringify(v)}`).join(', ') : undefined;
}

/** "a", "a and b", "a, b and c" */
const andList = (names: readonly string[]) => (names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? ''));

const way = (kind: WayKind, name: string, text: string, at: SourcePath): Way => ({ kind, name, text, at });

/** Every way out of one state, into `edges`. */
function stateWays(flow: Flow, s: StateDef, edges: Edges): void {
  const t = s.transitions;
  const at = [...s.at, 'transitions'];
  // A decision step leaves at once, by the first branch whose guard holds.
  if (s.decide) edges.branches(s.id, way('decided', '', 'decided on entering', [...s.at, 'decide']), s.decide);
  for (const [event, bs] of Object.entries(t.onUiEvent)) edges.branches(s.id, way('tap', event, `tap ${event}`, [...at, 'on_ui_event', event]), bs);
  for (const [tool, bs] of Object.entries(t.onToolCall)) {
    const where = [...at, 'on_tool_call', tool];
    const yes = resolveTool(flow, s, tool)?.confirm ? ' (after a yes)' : '';
    // A button that runs the tool takes the same way as the tool (a tap proposes it, or runs it).
    for (const a of s.ui?.actions ?? []) if (a.tool === tool) edges.branches(s.id, way('tap', a.event, `tap ${a.event}${yes}`, where), bs);
    edges.branches(s.id, way('tool', tool, `tool ${tool}${yes}`, where), bs);
  }
  for (const [tool, o] of Object.entries(t.onAction ?? {})) {
    if (o.done) edges.branches(s.id, way('action-done', tool, `${tool} done`, o.done[0]?.at ?? at), o.done);
    for (const b of o.failed ?? []) {
      const status = b.status ? ` with ${b.status.join(' or ')}` : '';
      edges.branches(s.id, way('action-failed', tool, `${tool} failed${status}`, b.at), [{ ...b, status: undefined }]);
    }
  }
  t.onUtterance.forEach((r, i) => {
    const text = `said rule ${i + 1}${r.requiresConfirmation ? ' (after a yes)' : ''}`;
    edges.branches(s.id, way('said', String(i + 1), text, r.at), r.branches);
  });
  if (t.onTimeout) {
    const o = t.onTimeout;
    const again = o.target === s.id && o.maxRetries !== undefined ? ` (up to ${o.maxRetries === 1 ? 'once' : `${o.maxRetries} times`})` : '';
    edges.add(s.id, o.target, way('timeout', '', `after ${o.seconds} s${again}`, o.at));
    if (o.fallback) edges.add(s.id, o.fallback, way('retries-used', '', `after ${o.seconds} s (tries used up)`, o.at));
  }
  if (t.onNoMatch) edges.add(s.id, t.onNoMatch.fallback, way('not-understood', '', `not understood after ${t.onNoMatch.maxRetries} tries`, t.onNoMatch.at));
  if (s.gate) {
    const gate = s.gate;
    edges.branches(s.id, way('confirmed', '', `yes to ${andList(gate.variables)}`, gate.at), gate.onConfirm);
    const rejectTarget = gate.onReject.target ?? s.id;
    if (gate.onReject.action === 'clear' || rejectTarget !== s.id) {
      edges.add(s.id, rejectTarget, way('rejected', '', gate.onReject.action === 'clear' ? 'no (cleared)' : 'no (kept)', gate.at));
    }
  }
  if (s.terminal) edges.add(s.id, END, way('ends', '', 'ends', s.at));
}

/** The tools a state offers (its own list, its buttons', and global ones) whose action waits for a yes. */
function waitingTools(flow: Flow, s: StateDef): string[] {
  const offered = [...s.agent.tools, ...(s.ui?.actions ?? []).flatMap((a) => (a.tool ? [a.tool] : [])), ...globalIn(flow, s).tools];
  return [...new Set(offered)].filter((name) => resolveTool(flow, s, name)?.confirm === true);
}

function stateNode(flow: Flow, s: StateDef): FlowNode {
  return {
    id: s.id,
    kind: 'state',
    initial: s.id === flow.initial,
    terminal: s.terminal,
    ...(s.gate ? { gate: s.gate.variables } : {}),
    waitsForYes: waitingTools(flow, s),
    generatedTools: generatedToolNames(flow, s),
    callsOnEntering: s.onEnter.flatMap((h) => (h.kind === 'call' ? [h.tool] : [])),
    ...(s.ui ? { screen: s.ui.declaredType } : {}),
    at: s.at,
  };
}

function everywhere(flow: Flow): Everywhere | undefined {
  const g = flow.global;
  if (!g) return undefined;
  const to = (bs: readonly Branch[]) => bs.map((b) => b.target).join(' or ');
  const ways = [
    ...Object.entries(g.onUiEvent).map(([event, bs]) => ({ text: `tap ${event}`, to: to(bs) })),
    ...Object.entries(g.onToolCall).map(([tool, bs]) => ({ text: `tool ${tool}`, to: to(bs) })),
    ...g.onUtterance.filter((r) => r.branches.length).map((r, i) => ({ text: `said rule ${i + 1}`, to: to(r.branches) })),
    ...(g.onNoMatch ? [{ text: `not understood after ${g.onNoMatch.maxRetries} tries`, to: g.onNoMatch.fallback }] : []),
  ];
  return ways.length ? { except: g.except, ways } : undefined;
}

/**
 * The drawing of a flow: a node per state (and the end, the error state and any state a
 * transition names that the flow lacks, where they are reached), an edge per place a state
 * leads to under one condition. Works on a flow with errors too (the studio draws as you type).
 */
export function flowDrawing(flow: Flow): FlowDrawing {
  const edges = new Edges(flow);
  const states = flow.stateOrder.flatMap((id) => (Object.hasOwn(flow.states, id) ? [flow.states[id]!] : []));
  for (const s of states) stateWays(flow, s, edges);
  const nodes = states.map((s) => stateNode(flow, s));
  const known = new Set(nodes.map((n) => n.id));
  const limit = flow.settings.maxDurationSecs;
  for (const id of edges.list.map((e) => e.to)) {
    if (known.has(id)) continue;
    known.add(id);
    const kind: NodeKind = id === END ? 'end' : id === ERROR ? 'error' : 'missing';
    nodes.push({ id, kind, initial: false, terminal: kind === 'end', waitsForYes: [], generatedTools: [], callsOnEntering: [], at: [] });
  }
  const all = everywhere(flow);
  return {
    nodes,
    edges: edges.list,
    ...(all ? { everywhere: all } : {}),
    ...(limit !== undefined ? { visitLimit: { seconds: limit, to: flow.settings.onTimeout ?? END } } : {}),
  };
}
