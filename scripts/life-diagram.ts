// The kiosk's life machine (src/ui/kiosk-life.ts) drawn as a Mermaid state diagram, read from the
// machine itself: its state nodes, nested and parallel, their initial states, and every
// transition with its event, delay, guard and actions. `npx tsx scripts/life-diagram.ts` prints
// it; with `--write` (`npm run docs:diagrams`) it replaces the block between the kiosk-life
// markers in docs/architecture.md, and the clinic-graph block with what `vfdl graph` draws of
// flows/clinic-checkin.yaml. tests/unit/architecture-doc.test.ts fails when either differs.

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AnyStateNode } from 'xstate';
import { flowToMermaid } from '../src/engine/language/graph.ts';
import { loadFlow } from '../src/engine/language/load-flow.ts';
import { kioskLife } from '../src/ui/kiosk-life.ts';

export const DOC_PATH = fileURLToPath(new URL('../docs/architecture.md', import.meta.url));

/** Plain words for some delays; any other delay is called by its name in kiosk-life.ts. */
const DELAY_WORDS: Readonly<Record<string, string>> = { untilAsked: 'idle time' };

type Transition = AnyStateNode['transitions'] extends Map<string, (infer T)[]> ? T : never;

/** A Mermaid id for a state node: its XState id with dots made underscores. */
function mid(node: AnyStateNode): string {
  return node.id.replace(/[^A-Za-z0-9_]/g, '_');
}

/** Text Mermaid reads as a label: no `#` or `;` (they end the line), no quotes. */
function clean(text: string): string {
  return text.replace(/[#;"]/g, '');
}

function children(node: AnyStateNode): AnyStateNode[] {
  return Object.values(node.states) as AnyStateNode[];
}

/** A state value as a path: `{ life: { visit: { step: 'failed' } } }` is `life.visit.step.failed`. */
function statePath(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    return Object.entries(value)
      .map(([k, v]) => `${k}.${statePath(v)}`)
      .join(', ');
  }
  return String(value);
}

/** A guard in words: its name, or `a and not in …` for XState's and/or/not/stateIn. */
function guardText(guard: unknown): string {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const g = guard as { name: string; guards?: unknown[]; stateValue?: unknown };
    if (g.stateValue !== undefined) return `in ${statePath(g.stateValue)}`;
    if (g.guards && g.name === 'not') return `not ${guardText(g.guards[0])}`;
    if (g.guards && (g.name === 'and' || g.name === 'or')) return g.guards.map(guardText).join(` ${g.name} `);
    return 'a condition';
  }
  if (guard && typeof guard === 'object' && 'type' in guard) return String(guard.type);
  return 'a condition';
}

/** The named actions of a transition (inline ones have no name worth showing). */
function actionNames(actions: readonly unknown[]): string[] {
  return actions.flatMap((a) => {
    if (typeof a === 'string') return [a];
    if (a && typeof a === 'object' && 'type' in a && typeof a.type === 'string') return [a.type];
    return [];
  });
}

function delayText(delay: unknown): string {
  if (typeof delay === 'number') return `${delay} ms`;
  if (typeof delay === 'string') return DELAY_WORDS[delay] ? `${DELAY_WORDS[delay]} (${delay})` : delay;
  return 'a delay';
}

function edgeLabel(t: Transition, always: boolean): string {
  const delay = (t as { delay?: unknown }).delay;
  let label = always ? 'always' : delay !== undefined ? `after ${delayText(delay)}` : String(t.eventType);
  if (t.guard !== undefined) label += ` [${guardText(t.guard)}]`;
  const actions = actionNames(t.actions);
  if (actions.length) label += ` / ${actions.join(', ')}`;
  return clean(label);
}

/** The nested state declarations of `node`, indented; parallel regions are split by `--`. */
function declare(node: AnyStateNode, indent: string): string[] {
  const head = `${indent}state "${clean(node.key)}" as ${mid(node)}`;
  const kids = children(node);
  if (kids.length === 0) {
    // What an atomic state does on its own, as its description (such as holdTaps, the kiosk's).
    const own = [...actionNames(node.entry).map((a) => `entry / ${a}`), ...actionNames(node.exit).map((a) => `exit / ${a}`)];
    return [head, ...own.map((text) => `${indent}${mid(node)} : ${clean(text)}`)];
  }
  const inner = indent + '  ';
  const lines = [`${head} {`];
  if (node.type === 'parallel') {
    kids.forEach((kid, i) => {
      if (i > 0) lines.push(`${inner}--`);
      lines.push(...declare(kid, inner));
    });
  } else {
    for (const kid of kids) lines.push(...declare(kid, inner));
    const first = node.initial.target[0] as AnyStateNode | undefined;
    if (first) lines.push(`${inner}[*] --> ${mid(first)}`);
    for (const kid of kids) if (kid.type === 'final') lines.push(`${inner}${mid(kid)} --> [*]`);
  }
  lines.push(`${indent}}`);
  return lines;
}

/** Every transition of `node` and the nodes below it, as edges (a targetless one loops back). */
function edges(node: AnyStateNode, indent: string): string[] {
  const out: string[] = [];
  const add = (t: Transition, always: boolean) => {
    const targets = (t.target ?? [node]) as readonly AnyStateNode[];
    for (const target of targets) out.push(`${indent}${mid(node)} --> ${mid(target)} : ${edgeLabel(t, always)}`);
  };
  for (const t of node.always ?? []) add(t, true);
  for (const list of node.transitions.values()) for (const t of list) add(t, false);
  for (const kid of children(node)) out.push(...edges(kid, indent));
  return out;
}

/** The kiosk's life machine as Mermaid source (a `stateDiagram-v2`, without the fence). */
export function lifeDiagram(): string {
  const root = kioskLife.root as AnyStateNode;
  return [
    'stateDiagram-v2',
    '  %% Generated from src/ui/kiosk-life.ts by scripts/life-diagram.ts (npm run docs:diagrams).',
    ...declare(root, '  '),
    // Edges come after every state is declared, at the top level: a state Mermaid first meets
    // inside a block would be put in that block.
    ...edges(root, '  '),
  ].join('\n');
}

/** The kiosk's life machine in a fenced mermaid block. */
export function lifeDiagramBlock(): string {
  return ['```mermaid', lifeDiagram(), '```'].join('\n');
}

/** The example flow drawn by `vfdl graph flows/clinic-checkin.yaml`, in a fenced mermaid block. */
export function clinicGraphBlock(): string {
  const file = fileURLToPath(new URL('../flows/clinic-checkin.yaml', import.meta.url));
  const result = loadFlow(readFileSync(file, 'utf8'), 'flows/clinic-checkin.yaml');
  if (!result.loaded) throw new Error(`flows/clinic-checkin.yaml does not load: run vfdl check on it`);
  return ['```mermaid', flowToMermaid(result.loaded.flow).trimEnd(), '```'].join('\n');
}

/** The generated blocks of docs/architecture.md, each between `<!-- NAME:start -->` and `<!-- NAME:end -->`. */
export const DIAGRAMS: readonly { name: string; generate: () => string }[] = [
  { name: 'kiosk-life', generate: lifeDiagramBlock },
  { name: 'clinic-graph', generate: clinicGraphBlock },
];

function markers(name: string): [string, string] {
  return [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`];
}

/** Where the block `name` sits in `doc` (just inside its markers), or null when a marker is missing. */
function span(doc: string, name: string): [number, number] | null {
  const [start, end] = markers(name);
  const from = doc.indexOf(start);
  const to = from < 0 ? -1 : doc.indexOf(end, from);
  return from < 0 || to < 0 ? null : [from + start.length, to];
}

/** The block `name` as `doc` has it, or null when its markers are missing. */
export function diagramIn(doc: string, name: string): string | null {
  const at = span(doc, name);
  return at ? doc.slice(at[0], at[1]).trim() : null;
}

/** `doc` with every generated block replaced by what the code gives now. */
export function withDiagrams(doc: string): string {
  let out = doc;
  for (const { name, generate } of DIAGRAMS) {
    const at = span(out, name);
    if (!at) throw new Error(`docs/architecture.md: the markers of ${name} are missing`);
    out = `${out.slice(0, at[0])}\n${generate()}\n${out.slice(at[1])}`;
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--write')) {
    const doc = readFileSync(DOC_PATH, 'utf8');
    const next = withDiagrams(doc);
    if (next !== doc) writeFileSync(DOC_PATH, next);
    console.log(next === doc ? 'docs/architecture.md: the diagrams are up to date' : 'docs/architecture.md: diagrams written');
  } else {
    console.log(lifeDiagramBlock());
  }
}
