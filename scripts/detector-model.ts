// Silero v5 as the kiosk runs it. vad-web's model holds its network twice, for 16 kHz and for
// 8 kHz audio, behind an `If` on its `sr` input, and inside each its LSTM twice, for a state given
// or not, behind an `If` on the state's shape. The kiosk always feeds 16 kHz and vad-web's state of
// [2, 1, 128], so the build keeps only the branches those take: onnxruntime then makes a session of
// a third of the nodes, in a fraction of the time (the kiosk's wait before it listens), and scores
// every frame to the same bits (tests/unit/detector-model.test.ts).
//
// The branches are worked out, not assumed: the nodes whose values follow from `sr` and the state's
// shape alone (Constant, Shape, Gather, Squeeze, Cast, Equal) are evaluated, and each If whose
// condition is then known is replaced by the nodes of the branch it takes. Nodes whose outputs
// nothing needs any more are left out; everything else is kept as it came (onnx-wire.ts).

import { ATTRIBUTE, BOOL, concat, GRAPH, INT64, integers, lengthField, MODEL, NODE, readFields, strings, TENSOR, type WireField } from './onnx-wire.ts';

/** What the kiosk feeds the model, always. */
export interface DetectorFeed {
  /** the `sr` input's value */
  sampleRate: number;
  /** the `state` input's shape */
  stateShape: readonly number[];
}

/** vad-web's feed: 16 kHz frames, and its LSTM state of two layers of 128. */
export const KIOSK_FEED: DetectorFeed = { sampleRate: 16000, stateShape: [2, 1, 128] };

interface Node {
  bytes: Uint8Array;
  inputs: string[];
  outputs: string[];
  name: string;
  opType: string;
  /** attribute name to its fields */
  attributes: Map<string, WireField[]>;
}

/** int64 (and bool, as 0 and 1) values known before the model runs, flattened */
type Known = Map<string, bigint[]>;

function parseNode(bytes: Uint8Array): Node {
  const fields = readFields(bytes);
  const attributes = new Map<string, WireField[]>();
  for (const f of fields.filter((x) => x.no === NODE.attribute)) {
    const attribute = readFields(f.payload);
    attributes.set(strings(attribute, ATTRIBUTE.name)[0] ?? '', attribute);
  }
  const one = (no: number) => strings(fields, no)[0] ?? '';
  return { bytes, inputs: strings(fields, NODE.input), outputs: strings(fields, NODE.output), name: one(NODE.name), opType: one(NODE.opType), attributes };
}

function identity(from: string, to: string, name: string): Node {
  return parseNode(concat([lengthField(NODE.input, from), lengthField(NODE.output, to), lengthField(NODE.name, name), lengthField(NODE.opType, 'Identity')]));
}

const nodesOf = (graph: readonly WireField[]) => graph.filter((f) => f.no === GRAPH.node).map((f) => parseNode(f.payload));
const outputsOf = (graph: readonly WireField[]) => graph.filter((f) => f.no === GRAPH.output).map((f) => strings(readFields(f.payload), 1)[0] ?? '');
const integer = (node: Node, attribute: string) => (node.attributes.has(attribute) ? integers(node.attributes.get(attribute)!, ATTRIBUTE.i)[0] : undefined);

/** The int64 values of a Constant's tensor, when it holds int64s. */
function constantValues(node: Node): bigint[] | null {
  const value = node.attributes.get('value');
  const tensor = value?.find((f) => f.no === ATTRIBUTE.t);
  if (!tensor) return null;
  const fields = readFields(tensor.payload);
  if (integers(fields, TENSOR.dataType)[0] !== BigInt(INT64)) return null;
  const raw = fields.find((f) => f.no === TENSOR.rawData);
  if (!raw) return integers(fields, TENSOR.int64Data);
  const view = new DataView(raw.payload.buffer, raw.payload.byteOffset, raw.payload.byteLength);
  return Array.from({ length: raw.payload.byteLength / 8 }, (_, i) => view.getBigInt64(i * 8, true));
}

/** The node's output value, where its inputs are known and it is one of the few ops evaluated. */
function evaluate(node: Node, known: Known, shapes: ReadonlyMap<string, bigint[]>): bigint[] | null {
  const input = (i: number) => known.get(node.inputs[i] ?? '');
  switch (node.opType) {
    case 'Constant':
      return constantValues(node);
    case 'Shape':
      return node.attributes.size === 0 ? (shapes.get(node.inputs[0] ?? '') ?? null) : null;
    case 'Gather': {
      const [data, indices] = [input(0), input(1)];
      if (!data || !indices || (integer(node, 'axis') ?? 0n) !== 0n) return null;
      const picked = indices.map((i) => data[Number(i < 0n ? BigInt(data.length) + i : i)]);
      return picked.every((v) => v !== undefined) ? (picked as bigint[]) : null;
    }
    case 'Squeeze':
    case 'Unsqueeze':
    case 'Identity':
      return input(0) ?? null;
    case 'Cast': {
      const to = integer(node, 'to');
      const values = input(0);
      if (!values) return null;
      if (to === BigInt(BOOL)) return values.map((v) => (v !== 0n ? 1n : 0n));
      return to === BigInt(INT64) ? values : null;
    }
    case 'Equal': {
      const [a, b] = [input(0), input(1)];
      if (!a || !b || (a.length !== b.length && a.length !== 1 && b.length !== 1)) return null;
      return Array.from({ length: Math.max(a.length, b.length) }, (_, i) => (a[a.length === 1 ? 0 : i] === b[b.length === 1 ? 0 : i] ? 1n : 0n));
    }
    default:
      return null;
  }
}

/** The nodes with every If whose condition is known replaced by its branch's nodes; counts them in `folded`. */
function fold(nodes: readonly Node[], known: Known, shapes: ReadonlyMap<string, bigint[]>, folded: { count: number }): Node[] {
  const out: Node[] = [];
  for (const node of nodes) {
    const condition = node.opType === 'If' ? known.get(node.inputs[0] ?? '') : undefined;
    if (condition?.length === 1) {
      const branch = node.attributes.get(condition[0] !== 0n ? 'then_branch' : 'else_branch')?.find((f) => f.no === ATTRIBUTE.g);
      if (!branch) throw new Error(`the model's ${node.name} has no branch to take`);
      const graph = readFields(branch.payload);
      out.push(...fold(nodesOf(graph), known, shapes, folded));
      outputsOf(graph).forEach((from, i) => out.push(identity(from, node.outputs[i]!, `${node.name}/taken_${i}`)));
      folded.count += 1;
      continue;
    }
    const value = evaluate(node, known, shapes);
    if (value && node.outputs[0]) known.set(node.outputs[0], value);
    out.push(node);
  }
  return out;
}

/** Every name a node reads, its subgraphs' reads of the graphs around them too. */
function reads(node: Node, into: Set<string>): void {
  for (const name of node.inputs) into.add(name);
  for (const attribute of node.attributes.values())
    for (const g of attribute.filter((f) => f.no === ATTRIBUTE.g)) for (const inner of nodesOf(readFields(g.payload))) reads(inner, into);
}

/** The nodes something needs, for the graph's outputs. */
function live(nodes: readonly Node[], outputs: readonly string[]): Node[] {
  const needed = new Set(outputs);
  const kept: Node[] = [];
  for (const node of [...nodes].reverse()) {
    if (!node.outputs.some((o) => needed.has(o))) continue;
    kept.push(node);
    reads(node, needed);
  }
  return kept.reverse();
}

/** The model with only the branches `feed` takes; `folded` counts the Ifs replaced. */
export function foldDetector(model: Uint8Array, feed: DetectorFeed = KIOSK_FEED): { model: Uint8Array; folded: number } {
  const fields = readFields(model);
  const graphField = fields.find((f) => f.no === MODEL.graph);
  if (!graphField) throw new Error('the detector model has no graph');
  const graph = readFields(graphField.payload);
  const known: Known = new Map([['sr', [BigInt(feed.sampleRate)]]]);
  const shapes = new Map([['state', feed.stateShape.map(BigInt)]]);
  const folded = { count: 0 };
  const nodes = live(fold(nodesOf(graph), known, shapes, folded), outputsOf(graph));
  const firstNode = graph.findIndex((f) => f.no === GRAPH.node);
  const rest = graph.filter((f) => f.no !== GRAPH.node).map((f) => f.bytes);
  const newGraph = concat([...rest.slice(0, firstNode), ...nodes.map((n) => lengthField(GRAPH.node, n.bytes)), ...rest.slice(firstNode)]);
  return { model: concat(fields.map((f) => (f === graphField ? lengthField(MODEL.graph, newGraph) : f.bytes))), folded: folded.count };
}

/** The names of a model's top-level nodes' operators, in order (for tests). */
export function topLevelOps(model: Uint8Array): string[] {
  const graph = readFields(readFields(model).find((f) => f.no === MODEL.graph)!.payload);
  return nodesOf(graph).map((n) => n.opType);
}
