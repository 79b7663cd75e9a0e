// From what the visitor said to tool calls: fill each offered tool's parameters from the
// utterance, pick the tool that gets furthest, and map plain requests ("yes", "start over") to
// the tools that take no parameters.

import type { ToolSpec } from '../../engine/runtime/messages.ts';
import { hearChoice, type Choice } from './choices.ts';
import { extractImpossibleDate, type ImpossibleDate } from './dates.ts';
import { bareName, bareText, extractDate, extractEmail, extractName, extractNumber, extractPhone, extractTime } from './extract.ts';
import { isNegated } from './negation.ts';
import { flowTools, parameterCount, readParams, type ParamInfo, type ParamKind, type Screen } from './screen.ts';
import { isBlank } from '../../engine/language/values.ts';
import type { Language } from './languages/index.ts';
import { mask, normalizePhrase, type Found } from './text.ts';
import { anyOf, foldInPlace } from './languages/patterns.ts';
import { perLanguage } from './languages/language.ts';
import { classifyYesNo, type YesNo } from './yes-no.ts';
import { correctedDate, correctedName, namedPart } from './corrections.ts';

export interface PlannedCall {
  tool: string;
  args: Record<string, unknown>;
  /** the message index of the kept words the call was made from (kept.ts), said in its id */
  kept?: number;
}

/** Kinds in the order they are looked for: the most recognisable shapes take their words first. */
const ORDER: readonly ParamKind[] = ['email', 'date', 'time', 'phone', 'choice', 'number', 'name', 'boolean'];

/** What a value is read against: the visit's language, today, how its locale writes dates, and the values held. */
interface Reading {
  lang: Language;
  today: string;
  monthFirst: boolean;
  /** the values the step holds (waiting or not): a value said in part corrects its own (corrections.ts) */
  held: Readonly<Record<string, unknown>>;
  /** words that name what a value is (the form's labels, "born"): said around a short answer, not part of it */
  labels: RegExp;
}

/** The form's labels and the language's birth words, as words to take off a short answer given with others. */
function labelWords(screen: Screen): RegExp {
  const labels = (screen.artifact?.fields ?? []).map((f) => f.label.replace(/[:?¿؟]/g, ' ').trim()).filter((l) => l !== '');
  const lang = screen.lang;
  return new RegExp(`${anyOf([...labels, ...lang.birth, ...lang.talk.between])}[\\s:,.-]*`, 'giu');
}

/** A clause that takes back what follows it, after a comma: ", not Maria", ", nicht Maria", ", pas Marie". */
const deniedTail = perLanguage((lang: Language) => new RegExp(`[,;]\\s*${anyOf([...lang.clauses.negators, ...lang.clauses.denyRightBefore])}.*$`, 'iu'));

/**
 * What is left of an answer for a short one (a name, a free text) once the other values, the
 * words naming them and a clause denying another ("Marta, not Maria") are taken off.
 */
function bareLeft(rest: string, r: Reading): string {
  let left = withoutShapes(rest, r);
  const folded = foldInPlace(left);
  for (const m of folded.matchAll(r.labels)) left = mask(left, { start: m.index, end: m.index + m[0].length });
  const denied = deniedTail(r.lang).exec(foldInPlace(left));
  if (denied) left = left.slice(0, denied.index);
  return left.replace(/\s+/g, ' ').replace(/^[\s,.;:-]+|[\s,.;:-]+$/g, '').trim();
}

/** Dates, times, phones and emails blanked out, so that their digits are not read as numbers. */
function withoutShapes(text: string, r: Reading): string {
  let t = text;
  const shapes: ((t: string) => Found<unknown> | undefined)[] = [
    (x) => extractEmail(x, r.lang),
    (x) => extractDate(x, r.lang, { today: r.today, monthFirst: r.monthFirst }),
    (x) => extractTime(x, r.lang),
    (x) => extractPhone(x, r.lang),
  ];
  for (const extract of shapes) {
    for (let f = extract(t); f; f = extract(t)) t = mask(t, f);
  }
  return t;
}

/** A value heard but not taken, and where it was said. */
export type Refusal = { param: ParamInfo; start: number; end: number } & (
  | { kind: 'declined'; choices: Choice[] } // "I don't like blue"
  | { kind: 'future'; date: string } // a date of birth still to come (YYYY-MM-DD)
  | { kind: 'no_such_day'; date: ImpossibleDate } // "31 February"
);

/** A value found, and whether it corrects the value held in part (a word of a name, a day of a date). */
type Heard = (Found<unknown> & { corrects?: true }) | { refusal: Refusal } | undefined;

/** A name found, as the correction of the one held when it corrects a word of it (corrections.ts). */
function correctName(p: ParamInfo, found: Found<string> | undefined, text: string, r: Reading): Heard {
  const old = r.held[p.name];
  if (!found || p.namePart !== 'full' || typeof old !== 'string') return found;
  const merged = correctedName(old, found.value, namedPart(text, r.lang));
  return merged === undefined ? found : { ...found, value: merged, corrects: true };
}

/** The first value `extract` finds that the visitor does not deny ("not the 5th, the 6th"). */
function meant<T>(text: string, extract: (t: string) => Found<T> | undefined, lang: Language): Found<T> | undefined {
  let t = text;
  for (let f = extract(t); f; f = extract(t)) {
    if (!isNegated(text, f.start, lang)) return f;
    t = mask(t, f);
  }
  return undefined;
}

function findDate(p: ParamInfo, text: string, r: Reading): Heard {
  const ctx = { today: r.today, past: p.past, monthFirst: r.monthFirst };
  const d = meant(text, (t) => extractDate(t, r.lang, ctx), r.lang);
  const old = r.held[p.name];
  if ((!d || d.value.iso === undefined) && p.isoDate && typeof old === 'string') {
    const part = correctedDate(old, text, r.lang, ctx);
    if (part) return { ...part, corrects: true };
  }
  if (!d) {
    const bad = extractImpossibleDate(text, r.lang, ctx);
    return bad && { refusal: { kind: 'no_such_day', param: p, date: bad.value, start: bad.start, end: bad.end } };
  }
  const iso = d.value.iso;
  if (p.past && iso !== undefined && iso > r.today) return { refusal: { kind: 'future', param: p, date: iso, start: d.start, end: d.end } };
  if (!p.isoDate) return { ...d, value: d.value.spoken };
  return iso === undefined ? undefined : { ...d, value: iso };
}

function findChoice(p: ParamInfo, text: string, lang: Language): Heard {
  const heard = hearChoice(text, p.choices, lang);
  if (heard.chosen) return heard.chosen;
  const first = heard.declined[0];
  return first && { refusal: { kind: 'declined', param: p, choices: heard.declined.map((d) => d.value), start: first.start, end: first.end } };
}

function find(p: ParamInfo, text: string, r: Reading): Heard {
  switch (p.kind) {
    case 'email':
      return extractEmail(text, r.lang);
    case 'phone':
      return extractPhone(text, r.lang);
    case 'date':
      return findDate(p, text, r);
    case 'time': {
      const t = meant(text, (x) => extractTime(x, r.lang), r.lang);
      return t && { ...t, value: p.clock24 ? t.value.hhmm : t.value.spoken };
    }
    case 'number':
      return meant(withoutShapes(text, r), (t) => extractNumber(t, p.integer, r.lang), r.lang);
    case 'choice':
      return findChoice(p, text, r.lang);
    case 'boolean': {
      const answer = classifyYesNo(text, r.lang.code);
      return answer === null ? undefined : { value: answer === 'yes', start: 0, end: text.length };
    }
    case 'name':
      // Never a name out of an email or a date said with it ("c'est helene.martin@example.fr").
      return correctName(p, extractName(withoutShapes(text, r), p.namePart, r.lang), text, r);
    case 'text':
      return undefined;
  }
}

/** The values one utterance gives a tool's parameters, and the ones it gives but that are not taken. */
interface Extracted {
  args: Record<string, unknown>;
  refusals: Refusal[];
  /** the parameters whose value corrects the one held in part */
  corrected: string[];
}

/**
 * Values for the parameters from one utterance. `bare` names the one parameter that a short answer
 * on its own ("Alex") may fill, with what is left of the utterance once the other values are taken.
 */
function extractArgs(params: readonly ParamInfo[], utterance: string, r: Reading, bare?: string): Extracted {
  const args: Record<string, unknown> = {};
  const refusals: Refusal[] = [];
  const corrected: string[] = [];
  let rest = utterance;
  for (const kind of ORDER) {
    for (const p of params) {
      if (p.kind !== kind) continue;
      const f = find(p, rest, r);
      if (!f) continue;
      if ('refusal' in f) refusals.push(f.refusal);
      else args[p.name] = f.value;
      if ('corrects' in f) corrected.push(p.name);
      rest = mask(rest, 'refusal' in f ? f.refusal : f);
    }
  }
  const target = params.find((p) => p.name === bare);
  if (target && args[target.name] === undefined) {
    const left = bareLeft(rest, r);
    if (left !== '' && classifyYesNo(left, r.lang.code) === null) {
      const bare = target.kind === 'name' ? bareName(left, target.namePart, r.lang) : bareText(left, r.lang);
      const value = target.kind === 'name' && bare !== undefined ? correctName(target, { value: bare, start: 0, end: 0 }, utterance, r) : bare && { value: bare };
      if (value && !('refusal' in value)) {
        args[target.name] = value.value;
        if ('corrects' in value) corrected.push(target.name);
      }
    }
  }
  return { args, refusals, corrected };
}

/** The one free-text or name parameter still open (empty, or pending a yes), if there is exactly one. */
function bareTarget(screen: Screen, params: readonly ParamInfo[], textOnly: boolean): string | undefined {
  const isOpen = (p: ParamInfo) => isBlank(screen.values[p.name]) || screen.pending.includes(p.name);
  const open = new Set(params.filter((p) => (p.kind === 'text' || (p.kind === 'name' && !textOnly)) && isOpen(p)).map((p) => p.name));
  return open.size === 1 ? [...open][0] : undefined;
}

interface Candidate {
  call: PlannedCall;
  index: number;
  /** the values the latest utterance gave */
  heard: Record<string, unknown>;
  requiredFilled: number;
  missing: ParamInfo[];
  /** the parameters whose value corrects the one held in part */
  corrected: string[];
}

/** Best first: all required parameters filled, then the most filled, then the most heard just now. */
function better(a: Candidate, b: Candidate): number {
  return (
    Number(b.missing.length === 0) - Number(a.missing.length === 0) ||
    b.requiredFilled - a.requiredFilled ||
    Object.keys(b.heard).length - Object.keys(a.heard).length ||
    a.index - b.index
  );
}

export interface FillPlan {
  /** calls to make now (several when the visitor gave values for separate tools at once) */
  calls: PlannedCall[];
  /** the best tool's required parameters still unknown (then no call is made) */
  missing: ParamInfo[];
  /** the values the latest utterance gave the best tool (kept for its call once `missing` are known) */
  heard: Record<string, unknown>;
  /** values heard but not taken, one for each parameter, none for a parameter that got a value */
  refusals: Refusal[];
  /** the parameters of the calls whose value corrects the one the step holds in part (corrections.ts) */
  corrected: string[];
}

/** Options for planFill. */
export interface FillOptions {
  /** what the visitor said earlier in this step, latest first */
  earlier?: readonly string[];
  /**
   * false: a short answer alone ("Alex") fills nothing (for words carried over from another step);
   * 'text': it fills a free-text parameter only, never a name (for words kept from earlier)
   */
  bare?: boolean | 'text';
  /** only parameters still empty on screen are filled (for words kept from earlier) */
  onlyBlank?: boolean;
  /** a tool counts only when the utterance gives one of its parameters of this kind */
  needs?: ParamKind;
  /** the tools to fill (by default the step's own, flowTools) */
  tools?: readonly ToolSpec[];
  /** a short answer alone fills only one of these (the values just rejected), never another one waiting */
  bareFor?: readonly string[];
}

/**
 * Tool calls for what the visitor just said. A parameter the latest utterance leaves open is taken
 * from what they said earlier in this state, then from the values already held. A tool is called
 * only with all its required parameters; otherwise `missing` says what to ask for.
 */
export function planFill(screen: Screen, utterance: string, options: FillOptions = {}): FillPlan {
  const tools = (options.tools ?? flowTools(screen)).filter((t) => parameterCount(t) > 0);
  const paramsOf = new Map<ToolSpec, ParamInfo[]>(tools.map((t) => [t, readParams(screen, t)]));
  const params = [...paramsOf.values()].flat().filter((p) => options.bareFor === undefined || options.bareFor.includes(p.name));
  const bare = options.bare === false ? undefined : bareTarget(screen, params, options.bare === 'text');
  const candidates: Candidate[] = [];
  const refusals = new Map<string, Refusal>();
  const r: Reading = { lang: screen.lang, today: screen.today, monthFirst: screen.monthFirst, held: options.onlyBlank ? {} : screen.values, labels: labelWords(screen) };
  tools.forEach((tool, index) => {
    const params = paramsOf.get(tool)!;
    const latest = extractArgs(params, utterance, r, bare);
    for (const r of latest.refusals) if (!refusals.has(r.param.name)) refusals.set(r.param.name, r);
    const heard = latest.args;
    if (options.onlyBlank) for (const name of Object.keys(heard)) if (!isBlank(screen.values[name])) delete heard[name];
    if (Object.keys(heard).length === 0) return;
    if (options.needs && !params.some((p) => p.kind === options.needs && heard[p.name] !== undefined)) return;
    const args = { ...heard };
    for (const said of options.earlier ?? []) {
      const open = params.filter((p) => args[p.name] === undefined);
      if (open.length === 0) break;
      Object.assign(args, extractArgs(open, said, r).args);
    }
    for (const p of params) {
      if (args[p.name] === undefined && !isBlank(screen.values[p.name])) args[p.name] = screen.values[p.name];
    }
    const required = params.filter((p) => p.required);
    const missing = required.filter((p) => args[p.name] === undefined);
    const corrected = latest.corrected.filter((name) => heard[name] !== undefined);
    candidates.push({ call: { tool: tool.function.name, args }, index, heard, requiredFilled: required.length - missing.length, missing, corrected });
  });
  const ranked = candidates.sort(better);
  const best = ranked[0];
  const plan = (calls: PlannedCall[], missing: ParamInfo[]): FillPlan => {
    const given = new Set(calls.flatMap((c) => Object.keys(c.args)));
    const corrected = ranked.filter((c) => calls.includes(c.call)).flatMap((c) => c.corrected);
    return { calls, missing, heard: best?.heard ?? {}, refusals: [...refusals.values()].filter((r) => !given.has(r.param.name)), corrected };
  };
  if (!best) return plan([], []);
  if (best.missing.length > 0) return plan([], best.missing);
  // Values meant for separate tools ("I'm Alex, born 15 March 1995") go to each of them.
  const calls = [best.call];
  const taken = new Set(Object.keys(best.call.args));
  for (const c of ranked.slice(1)) {
    const names = Object.keys(c.call.args);
    if (c.missing.length > 0 || names.some((n) => taken.has(n))) continue;
    calls.push(c.call);
    for (const n of names) taken.add(n);
  }
  return plan(calls, []);
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

/**
 * A tool without parameters named in what the visitor said: by its name ("restart booking",
 * "finish"), or by the whole label of the button on screen that proposes it, in the visit's
 * language ("Einchecken, bitte" for check_in).
 */
export function namedPlainTool(screen: Screen, utterance: string): PlannedCall | undefined {
  const said = new Set(normalizePhrase(utterance).split(' '));
  const plain = plainTools(screen);
  const named = plain.filter((t) => {
    const words = nameWords(t);
    const verb = words[0] ?? '';
    return words.every((w) => said.has(w)) || (!GENERIC_VERBS.has(verb) && said.has(verb));
  });
  if (named.length === 1) return { tool: named[0]!.function.name, args: {} };
  const buttons = (screen.artifact?.actions ?? []).flatMap((a) => (a.tool && plain.some((t) => t.function.name === a.tool) ? [{ value: a.tool, names: [], phrases: [a.label] }] : []));
  const tapped = buttons.length > 0 ? hearChoice(utterance, buttons, screen.lang).chosen?.value : undefined;
  return typeof tapped === 'string' && named.length === 0 ? { tool: tapped, args: {} } : undefined;
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
