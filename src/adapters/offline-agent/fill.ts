// From what the visitor said to tool calls: fill each offered tool's parameters from the
// utterance, pick the tool that gets furthest, and map plain requests ("yes", "start over") to
// the tools that take no parameters.

import type { ToolSpec } from '../../engine/messages.ts';
import { bareName, bareText, extractChoice, extractDate, extractEmail, extractName, extractNumber, extractPhone, extractTime } from './extract.ts';
import { flowTools, parameterCount, readParams, type ParamInfo, type ParamKind, type Screen } from './screen.ts';
import { isBlank } from '../../engine/values.ts';
import { mask, normalizePhrase, type Found } from './text.ts';
import { classifyYesNo, type YesNo } from './yes-no.ts';

export interface PlannedCall {
  tool: string;
  args: Record<string, unknown>;
}

/** Kinds in the order they are looked for: the most recognisable shapes take their words first. */
const ORDER: readonly ParamKind[] = ['email', 'date', 'time', 'phone', 'choice', 'number', 'name', 'boolean'];

/** Dates, times, phones and emails blanked out, so that their digits are not read as numbers. */
function withoutShapes(text: string): string {
  let t = text;
  for (const extract of [extractEmail, extractDate, extractTime, extractPhone]) {
    for (let f = extract(t); f; f = extract(t)) t = mask(t, f);
  }
  return t;
}

function find(p: ParamInfo, text: string): Found<unknown> | undefined {
  switch (p.kind) {
    case 'email':
      return extractEmail(text);
    case 'phone':
      return extractPhone(text);
    case 'date': {
      const d = extractDate(text);
      if (!d) return undefined;
      if (!p.isoDate) return { ...d, value: d.value.spoken };
      return d.value.iso === undefined ? undefined : { ...d, value: d.value.iso };
    }
    case 'time': {
      const t = extractTime(text);
      return t && { ...t, value: p.clock24 ? t.value.hhmm : t.value.spoken };
    }
    case 'number':
      return extractNumber(withoutShapes(text), p.integer);
    case 'choice':
      return extractChoice(text, p.choices);
    case 'boolean': {
      const answer = classifyYesNo(text);
      return answer === null ? undefined : { value: answer === 'yes', start: 0, end: text.length };
    }
    case 'name':
      return extractName(text, p.namePart);
    case 'text':
      return undefined;
  }
}

/**
 * Values for the parameters from one utterance. `bare` names the one parameter that a short answer
 * on its own ("Alex") may fill, with what is left of the utterance once the other values are taken.
 */
function extractArgs(params: readonly ParamInfo[], utterance: string, bare?: string): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  let rest = utterance;
  for (const kind of ORDER) {
    for (const p of params) {
      if (p.kind !== kind) continue;
      const f = find(p, rest);
      if (!f) continue;
      args[p.name] = f.value;
      rest = mask(rest, f);
    }
  }
  const target = params.find((p) => p.name === bare);
  if (target && args[target.name] === undefined) {
    const left = rest.replace(/\s+/g, ' ').trim();
    if (left !== '' && classifyYesNo(left) === null) {
      const value = target.kind === 'name' ? bareName(left, target.namePart) : bareText(left);
      if (value !== undefined) args[target.name] = value;
    }
  }
  return args;
}

/** The one free-text or name parameter still open (empty, or pending a yes), if there is exactly one. */
function bareTarget(screen: Screen, params: readonly ParamInfo[]): string | undefined {
  const isOpen = (p: ParamInfo) => isBlank(screen.values[p.name]) || screen.pending.includes(p.name);
  const open = new Set(params.filter((p) => (p.kind === 'name' || p.kind === 'text') && isOpen(p)).map((p) => p.name));
  return open.size === 1 ? [...open][0] : undefined;
}

interface Candidate {
  call: PlannedCall;
  index: number;
  fromLatest: number;
  requiredFilled: number;
  missing: ParamInfo[];
}

/** Best first: all required parameters filled, then the most filled, then the most heard just now. */
function better(a: Candidate, b: Candidate): number {
  return (
    Number(b.missing.length === 0) - Number(a.missing.length === 0) ||
    b.requiredFilled - a.requiredFilled ||
    b.fromLatest - a.fromLatest ||
    a.index - b.index
  );
}

export interface FillPlan {
  /** calls to make now (several when the visitor gave values for separate tools at once) */
  calls: PlannedCall[];
  /** the best tool's required parameters still unknown (then no call is made) */
  missing: ParamInfo[];
}

/**
 * Tool calls for what the visitor just said. A parameter the latest utterance leaves open is taken
 * from what they said earlier in this state, then from the values already held. A tool is called
 * only with all its required parameters; otherwise `missing` says what to ask for.
 */
export function planFill(screen: Screen, utterance: string, earlier: readonly string[]): FillPlan | undefined {
  const tools = flowTools(screen).filter((t) => parameterCount(t) > 0);
  const paramsOf = new Map<ToolSpec, ParamInfo[]>(tools.map((t) => [t, readParams(screen, t)]));
  const bare = bareTarget(screen, [...paramsOf.values()].flat());
  const candidates: Candidate[] = [];
  tools.forEach((tool, index) => {
    const params = paramsOf.get(tool)!;
    const args = extractArgs(params, utterance, bare);
    const fromLatest = Object.keys(args).length;
    if (fromLatest === 0) return;
    for (const said of earlier) {
      const open = params.filter((p) => args[p.name] === undefined);
      if (open.length === 0) break;
      Object.assign(args, extractArgs(open, said));
    }
    for (const p of params) {
      if (args[p.name] === undefined && !isBlank(screen.values[p.name])) args[p.name] = screen.values[p.name];
    }
    const required = params.filter((p) => p.required);
    const missing = required.filter((p) => args[p.name] === undefined);
    candidates.push({ call: { tool: tool.function.name, args }, index, fromLatest, requiredFilled: required.length - missing.length, missing });
  });
  const ranked = candidates.sort(better);
  const best = ranked[0];
  if (!best) return undefined;
  if (best.missing.length > 0) return { calls: [], missing: best.missing };
  // Values meant for separate tools ("I'm Alex, born 15 March 1995") go to each of them.
  const calls = [best.call];
  const taken = new Set(Object.keys(best.call.args));
  for (const c of ranked.slice(1)) {
    const names = Object.keys(c.call.args);
    if (c.missing.length > 0 || names.some((n) => taken.has(n))) continue;
    calls.push(c.call);
    for (const n of names) taken.add(n);
  }
  return { calls, missing: [] };
}

// ------------------------------------------------------------------ tools without parameters

const GENERIC_VERBS = new Set(['save', 'set', 'get', 'capture', 'update', 'record', 'store', 'log', 'show']);
const GO_ON = /^(?:confirm|finish|complete|continue|proceed|begin|start|next|done|accept|approve|submit|agree|book|yes|ok)$/;
const GO_BACK = /^(?:restart|cancel|back|change|edit|reject|decline|retry|redo|reset|no|end|quit|exit|stop)$/;

function nameWords(tool: ToolSpec): string[] {
  return tool.function.name.toLowerCase().split(/[_\W]+/).filter(Boolean);
}

/** The flow's tools that take no parameters. */
function plainTools(screen: Screen): ToolSpec[] {
  return flowTools(screen).filter((t) => parameterCount(t) === 0);
}

/** A tool without parameters named in what the visitor said ("restart booking", "finish"). */
export function namedPlainTool(screen: Screen, utterance: string): PlannedCall | undefined {
  const said = new Set(normalizePhrase(utterance).split(' '));
  const named = plainTools(screen).filter((t) => {
    const words = nameWords(t);
    const verb = words[0] ?? '';
    return words.every((w) => said.has(w)) || (!GENERIC_VERBS.has(verb) && said.has(verb));
  });
  return named.length === 1 ? { tool: named[0]!.function.name, args: {} } : undefined;
}

/** For a yes or a no: the one tool without parameters that means going on, or going back. */
export function answeredPlainTool(screen: Screen, answer: YesNo): PlannedCall | undefined {
  const meaning = answer === 'yes' ? GO_ON : GO_BACK;
  const plain = plainTools(screen);
  const matching = plain.filter((t) => meaning.test(nameWords(t)[0] ?? ''));
  if (matching.length === 1) return { tool: matching[0]!.function.name, args: {} };
  // One thing to do here ("check_in"): a yes means do it, unless its name says go back.
  const only = plain.length === 1 ? plain[0]! : undefined;
  if (answer === 'yes' && matching.length === 0 && only && !GO_BACK.test(nameWords(only)[0] ?? '')) {
    return { tool: only.function.name, args: {} };
  }
  return undefined;
}
