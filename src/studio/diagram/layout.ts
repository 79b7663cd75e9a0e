// The flow's drawing (flow-edges.ts) laid out for the studio's diagram by dagre, a layered graph
// layout (Sugiyama's method, as Graphviz's dot): states in ranks from the start downwards, edges
// routed between them with room kept for their labels. Sizes come from the text's length, so the
// layout needs no page and runs in the studio's worker.

import dagre from '@dagrejs/dagre';
import { END, ERROR } from '../../engine/language/flow.ts';
import type { FlowDrawing, FlowEdge, FlowNode, NodeKind } from '../../engine/language/flow-edges.ts';

/** A state placed: its box (centre and size), its name and what is marked on it. */
export interface PlacedNode {
  id: string;
  kind: NodeKind;
  initial: boolean;
  x: number;
  y: number;
  width: number;
  height: number;
  /** the name shown: the state's id, "end", "error" */
  name: string;
  /**
   * The marks under the name: where a visit starts, its screen, its gate, the tools waiting for a
   * yes, what runs on entering; `names` is what the mark is about (the page words it, in its
   * language, from `kind`), `text` the mark in English (for `vfdl graph`'s readers and the box's size).
   */
  marks: { kind: 'start' | 'screen' | 'gate' | 'yes' | 'calls' | 'missing'; names: string; text: string }[];
}

/** An edge placed: the line's points and its label's lines where dagre put them. */
export interface PlacedEdge {
  from: string;
  to: string;
  points: { x: number; y: number }[];
  /** the label's lines; `condition`: a line of the guard in words (drawn apart from the ways) */
  label: { x: number; y: number; width: number; height: number; lines: { text: string; condition: boolean }[] };
  /** the guard in words, or "otherwise", when the edge has one */
  condition?: string;
  /** the full label, for screen readers and the text form of the diagram */
  text: string;
}

export interface DiagramLayout {
  width: number;
  height: number;
  nodes: PlacedNode[];
  edges: PlacedEdge[];
}

/** Average advance of the diagram's 13 px sans-serif text; a box a little too wide is no harm. */
const CHAR = 7.4;
const LINE = 17;
const LABEL_CHARS = 18;

/** Words wrapped into lines of at most `width` characters (a longer word stands alone). */
export function wrap(text: string, width = LABEL_CHARS): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

function marksOf(n: FlowNode): PlacedNode['marks'] {
  const marks: PlacedNode['marks'] = [];
  if (n.initial) marks.push({ kind: 'start', names: '', text: 'where a visit starts' });
  if (n.kind === 'missing') marks.push({ kind: 'missing', names: '', text: 'not in the flow' });
  if (n.screen) marks.push({ kind: 'screen', names: n.screen, text: n.screen });
  if (n.gate) marks.push({ kind: 'gate', names: n.gate.join(', '), text: `gate: ${n.gate.join(', ')}` });
  if (n.waitsForYes.length) marks.push({ kind: 'yes', names: n.waitsForYes.join(', '), text: `waits for a yes: ${n.waitsForYes.join(', ')}` });
  if (n.callsOnEntering.length) marks.push({ kind: 'calls', names: n.callsOnEntering.join(', '), text: `runs ${n.callsOnEntering.join(', ')}` });
  return marks;
}

const nameOf = (n: FlowNode) => (n.id === END ? 'end' : n.id === ERROR ? 'error' : n.id);

function edgeLines(e: FlowEdge): { text: string; condition: boolean }[] {
  const ways = wrap(e.ways.map((w) => w.text).join(' or '));
  const when = e.condition === undefined ? [] : wrap(e.condition === 'otherwise' ? 'otherwise' : `if ${e.condition}`);
  const sets = e.sets ? wrap(`sets ${e.sets}`) : [];
  return [...ways.map((text) => ({ text, condition: false })), ...when.map((text) => ({ text, condition: true })), ...sets.map((text) => ({ text, condition: false }))];
}

/** Lays the drawing out, top to bottom. */
export function layOut(drawing: FlowDrawing): DiagramLayout {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 24, ranksep: 40, edgesep: 12, marginx: 8, marginy: 8 });
  g.setDefaultEdgeLabel(() => ({}));
  const placed = new Map<string, PlacedNode>();
  for (const n of drawing.nodes) {
    const marks = marksOf(n);
    const name = nameOf(n);
    const width = Math.max(90, Math.ceil(Math.max(name.length * 8.4, ...marks.map((m) => m.text.length * 6.6)) + 28));
    const height = 30 + marks.length * 16 + (marks.length ? 6 : 0);
    placed.set(n.id, { id: n.id, kind: n.kind, initial: n.initial, x: 0, y: 0, width, height, name, marks });
    g.setNode(n.id, { width, height });
  }
  drawing.edges.forEach((e, i) => {
    const lines = edgeLines(e);
    const width = Math.ceil(Math.max(...lines.map((l) => l.text.length)) * CHAR) + 10;
    g.setEdge(e.from, e.to, { width, height: lines.length * LINE + 4, labelpos: 'c', lines, index: i }, `e${i}`);
  });
  dagre.layout(g);
  for (const id of g.nodes()) {
    const box = g.node(id);
    const node = placed.get(id);
    if (node && box) Object.assign(node, { x: box.x ?? 0, y: box.y ?? 0 });
  }
  const edges: PlacedEdge[] = drawing.edges.map((e, i) => {
    const label = g.edge({ v: e.from, w: e.to, name: `e${i}` });
    return {
      from: e.from,
      to: e.to,
      points: label.points ?? [],
      label: { x: label.x ?? 0, y: label.y ?? 0, width: label.width ?? 0, height: label.height ?? 0, lines: label['lines'] as { text: string; condition: boolean }[] },
      ...(e.condition ? { condition: e.condition } : {}),
      text: e.label,
    };
  });
  const graph = g.graph();
  return { width: Math.ceil(graph.width ?? 0), height: Math.ceil(graph.height ?? 0), nodes: [...placed.values()], edges };
}
