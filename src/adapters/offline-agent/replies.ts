// What the offline agent says, in the visit's language: the screen's heading, the next question
// (built from the first empty field, the gate's question, a pending action), read-backs, short
// acknowledgements, why a value is not taken, and how to change a card. Values are said as a
// visitor reads them. The words are each language's (languages/*.ts); this file puts them together.

import type { Field } from '../../engine/language/flow.ts';
import { displayValue, interpolate, templateNames } from '../../engine/language/interpolate.ts';
import { dateInWords, monthName } from './dates.ts';
import { hearChoice } from './choices.ts';
import { answeredPlainTool, type Refusal } from './fill.ts';
import { fieldFor, flowTools, optionsFor, parameterCount, readParams, type ParamInfo, type Screen } from './screen.ts';
import { isBlank } from '../../engine/language/values.ts';
import { kioskSentence } from '../../engine/runtime/kiosk-sentences.ts';
import { humanize, normalizePhrase } from './text.ts';
import { wantsChange } from './yes-no.ts';

/** Text as caption sentences: lines joined, each ending with punctuation, spaces collapsed. */
function sentence(text: string): string {
  return text
    .split(/\n+/)
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .map((l) => (/[.!?…:؟]$/u.test(l) ? l : `${l}.`))
    .join(' ');
}

/** The parts that are not empty, joined; a part repeating an earlier one is left out. */
export function join(...parts: (string | undefined)[]): string {
  const out: string[] = [];
  for (const p of parts) {
    if (p === undefined || p.trim() === '') continue;
    if (out.some((o) => normalizePhrase(o) === normalizePhrase(p))) continue;
    out.push(p.trim());
  }
  return out.join(' ');
}

function askWhat(screen: Screen, label: string, choices: readonly string[]): string {
  const say = screen.lang.say;
  const q = say.ask(label);
  return choices.length > 0 ? `${q} ${say.youCanSay(say.orList(choices))}` : q;
}

/** "What's your first name?" from a field (its label as written when it is already a question). */
function fieldQuestion(screen: Screen, field: Field): string {
  const say = screen.lang.say;
  const choices = (field.options ?? []).map((o) => o.label);
  const label = field.label.trim();
  if (/[?؟]$/.test(label)) return choices.length > 0 ? `${label} ${say.youCanSay(say.orList(choices))}` : label;
  const what = say.label(label || humanize(field.id));
  return askWhat(screen, field.type === 'tel' ? say.phoneLabel(what) : what, choices);
}

/** The question for a tool parameter: its field's question, else one from its name. */
export function paramQuestion(screen: Screen, p: ParamInfo): string {
  const field = fieldFor(screen, p.name);
  const choices = p.choices.map((c) => String(c.names[c.names.length - 1]));
  if (field && (field.options?.length || choices.length === 0)) return fieldQuestion(screen, field);
  const say = screen.lang.say;
  const what = field ? say.label(field.label) : humanize(p.name);
  return askWhat(screen, p.kind === 'phone' ? say.phoneLabel(what) : what, choices);
}

/** The question for a variable the screen has a field for ("What's your date of birth?"). */
export function fieldQuestionFor(screen: Screen, name: string): string | undefined {
  const field = fieldFor(screen, name);
  return field && fieldQuestion(screen, field);
}

/**
 * A value as the kiosk says it: a choice by its label, a date in words as the visit's locale
 * writes it ("March 5, 1984", "5. März 1984"), never "1984-03-05"; a number with the locale's
 * decimal sign.
 */
function spokenValue(screen: Screen, name: string, value: unknown): string {
  const option = optionsFor(screen, name).find((o) => o.id === String(value));
  if (option) return option.label;
  if (typeof value === 'number' && Number.isFinite(value) && !Number.isInteger(value)) {
    return new Intl.NumberFormat(screen.tag, { useGrouping: false, maximumFractionDigits: 15 }).format(value);
  }
  return (typeof value === 'string' ? dateInWords(value, screen.tag) : undefined) ?? displayValue(value);
}

/** The gate's question for the pending values: the flow's own wording once every value it names is there. */
export function gateQuestion(screen: Screen): string | undefined {
  if (screen.pending.length === 0) return undefined;
  const spoken = Object.fromEntries(Object.entries(screen.values).map(([k, v]) => [k, spokenValue(screen, k, v)]));
  const prompt = screen.gatePrompt;
  if (prompt && templateNames(prompt).every((n) => !isBlank(screen.values[n]))) return interpolate(prompt, spoken);
  return screen.lang.say.heard(screen.pending.map((v) => spoken[v] ?? ''));
}

/** A pending action's summary as a question: "Check in Maria. Shall I go ahead?". */
export function actionQuestion(screen: Screen, summary: string): string {
  return screen.lang.say.goAhead(summary.trim().replace(/[.!?]+$/, ''));
}

/** The artifact's heading and text, as sentences. */
export function introduction(screen: Screen): string | undefined {
  const a = screen.artifact;
  if (!a) return undefined;
  return join(a.title === undefined ? undefined : sentence(a.title), a.text === undefined ? undefined : sentence(a.text)) || undefined;
}

/** "I have first name: Alex, date of birth: March 15, 1995." for the values, by their fields' labels. */
function haveLine(screen: Screen, values: Readonly<Record<string, unknown>>): string | undefined {
  const say = screen.lang.say;
  const items = Object.entries(values).map(([name, v]): [string, string] => {
    const label = fieldFor(screen, name)?.label.trim();
    return [label === undefined || /[?؟]$/.test(label) ? humanize(name) : say.label(label), spokenValue(screen, name, v)];
  });
  return items.length > 0 ? say.have(items) : undefined;
}

/** The filled fields read back. */
function readBack(screen: Screen): string | undefined {
  const filled = (screen.artifact?.fields ?? []).filter((f) => !isBlank(screen.values[f.id]));
  return haveLine(screen, Object.fromEntries(filled.map((f) => [f.id, screen.values[f.id]])));
}

/** "Thanks. I have appointment time: 10:30." for values heard and kept until the rest is known. */
export function heardLine(screen: Screen, heard: Readonly<Record<string, unknown>>): string {
  return join(screen.lang.say.thanks, haveLine(screen, heard));
}

/** Why a value that was heard is not taken, in one sentence. */
export function refusalLine(screen: Screen, r: Refusal): string {
  const say = screen.lang.say;
  switch (r.kind) {
    case 'declined':
      return say.notThese(say.orList(r.choices.map((c) => String(c.names[c.names.length - 1]))));
    case 'future':
      return say.future(dateInWords(r.date, screen.tag) ?? r.date);
    case 'no_such_day':
      // Only February's days depend on the year.
      return say.noSuchDay(monthName(r.date.month, screen.tag, r.date.month === 2 ? r.date.year : undefined), r.date.days);
  }
}

/** How to change what a card shows when only one of its buttons does that: "To make changes, tap “Change my details”." */
export function changeHint(screen: Screen): string | undefined {
  const action = screen.artifact?.actions.find((a) => wantsChange(a.event) || wantsChange(a.label, screen.lang));
  return action && screen.lang.say.changeHint(action.label);
}

/**
 * For a yes, or the label said, on a step whose one way on is a button of its own that no tool
 * stands for (a card's "I agree"): where that button is. A button that changes things, or one of
 * several, is not.
 */
export function goOnHint(screen: Screen, said: string, yes: boolean): string | undefined {
  const onward = (screen.artifact?.actions ?? []).filter((a) => a.tool === undefined && a.event !== 'start_over' && !wantsChange(a.event) && !wantsChange(a.label, screen.lang));
  const only = onward.length === 1 ? onward[0]! : undefined;
  if (!only || !(yes || hearChoice(said, [{ value: only.event, names: [], phrases: [only.label] }], screen.lang).chosen)) return undefined;
  return screen.lang.say.goOnHint(only.label);
}

function firstEmptyField(screen: Screen): Field | undefined {
  const empty = (screen.artifact?.fields ?? []).filter((f) => f.type !== 'checkbox' && isBlank(screen.values[f.id]));
  return empty.find((f) => f.required) ?? empty[0];
}

/** "Please choose: red, green, blue or yellow." for an options screen. */
function choiceLine(screen: Screen): string | undefined {
  const a = screen.artifact;
  if (a?.type !== 'options' || a.options.length === 0) return undefined;
  if (a.variable !== undefined && !isBlank(screen.values[a.variable])) return undefined;
  return screen.lang.say.choose(screen.lang.say.orList(a.options.map((o) => o.label)));
}

/** A required parameter still empty, on a step with nothing on screen (voice only). */
function firstOpenParam(screen: Screen): ParamInfo | undefined {
  if (screen.artifact !== null) return undefined;
  for (const tool of flowTools(screen)) {
    if (parameterCount(tool) === 0) continue;
    const open = readParams(screen, tool).find((p) => p.required && isBlank(screen.values[p.name]));
    if (open) return open;
  }
  return undefined;
}

/** A step whose way on is to agree (accept_rules, agree_terms) asks for consent, not whether it is correct. */
const CONSENT = /^(?:accept|agree|approve|consent)(?:_|$)/;

/**
 * What to ask now: a pending action, the gate's question, the first empty field, a required box
 * to tick, the options,
 * a voice-only parameter, or, with everything filled and a tool to go on, a read-back (or, where
 * going on means agreeing, "Do you agree?", to which a "no" is a no).
 */
export function nextQuestion(screen: Screen): string | undefined {
  if (screen.pendingAction !== undefined) return actionQuestion(screen, screen.pendingAction);
  const gate = gateQuestion(screen);
  if (gate) return gate;
  const field = firstEmptyField(screen);
  if (field) return fieldQuestion(screen, field);
  // A required box not ticked is a consent not given: the step waits for the visitor's own tick.
  const box = (screen.artifact?.fields ?? []).find((f) => f.type === 'checkbox' && f.required && screen.values[f.id] !== true);
  if (box) return kioskSentence('tick_box', screen.tag, { fields: box.label });
  const choices = choiceLine(screen);
  if (choices) return choices;
  const param = firstOpenParam(screen);
  if (param) return paramQuestion(screen, param);
  // Everything is in: read it back (a card shows it already) when a tool is there to go on.
  const back = readBack(screen);
  const goOn = answeredPlainTool(screen, 'yes');
  if ((back !== undefined || screen.artifact?.type === 'card') && goOn) return join(back, CONSENT.test(goOn.tool) ? screen.lang.say.agree : screen.lang.say.allCorrect);
  return undefined;
}

// ------------------------------------------------------------------ the last words

/** A farewell the prompt asks for: "say goodbye to Alex warmly" → "Goodbye, Alex!". */
const SAY_GOODBYE = /^(?:please\s+)?(?:say|bid|wish\s+\S+)\s+(?:a\s+)?(?:\w+\s+)?(?:goodbye|good-bye|farewell|bye)(?:\s+to\s+(.+?))?(?:\s+(?:warmly|kindly|politely|cheerfully))?$/i;
/** A wish: "wish the guest a pleasant stay" → "Have a pleasant stay!". */
const WISH = /^(?:please\s+)?wish\s+(?:the\s+\w+|them|him|her|\p{Lu}\p{L}*)\s+(an?\s+.+)$/iu;
/** A hope: "hope that the trip went well" → "I hope the trip went well." */
const HOPE = /^(?:please\s+)?hope\s+(?:that\s+)?(.+)$/i;
/** Thanks: "thank Alex for coming" → "Thank you for coming." */
const THANK = /^(?:please\s+)?thank\s+(?:the\s+\w+|them|him|her|\p{Lu}\p{L}*)(\s+.+)?$/iu;

/** One instruction of a closing prompt as the words it asks for, or undefined when it is not one of these. */
function spokenInstruction(instruction: string): string | undefined {
  const text = instruction.trim().replace(/[.!]+$/, '');
  const bye = SAY_GOODBYE.exec(text);
  if (bye) return bye[1] ? `Goodbye, ${bye[1]}!` : 'Goodbye!';
  const wish = WISH.exec(text);
  if (wish) return `Have ${wish[1]}!`;
  const hope = HOPE.exec(text);
  if (hope) return `I hope ${hope[1]}.`;
  const thanks = THANK.exec(text);
  if (thanks) return `Thank you${thanks[1] ?? ''}.`;
  return undefined;
}

/**
 * What to say on entering a step that ends the flow and shows nothing to read: the words its
 * prompt asks for, when it asks in one of the ways above ("Say goodbye to Alex warmly"), else a
 * plain goodbye. The state's own prompt is the system prompt's last paragraph but for the engine's
 * note on the visit's language.
 */
export function farewell(screen: Screen): string {
  // The engine's note on the visit's language, when there is one, comes after the state's own prompt.
  const paragraphs = (screen.prompt ?? '').split(/\n\s*\n/).filter((p) => !/^The visitor speaks \S/.test(p.trim()));
  const own = paragraphs.pop() ?? '';
  const instructions = own
    .split(/(?<=[.!?])\s+|\s+and\s+(?=(?:say|bid|wish|hope|thank)\b)/i)
    .map((i) => i.trim())
    .filter(Boolean);
  const say = screen.lang.say;
  // The instructions are read in English; in another language only a goodbye by name is said as asked.
  if (screen.lang.code !== 'en') {
    const name = instructions.map((i) => SAY_GOODBYE.exec(i.replace(/[.!]+$/, ''))?.[1]).find((n) => n !== undefined);
    return name === undefined ? say.goodbye : say.farewell(name);
  }
  const said = instructions.map(spokenInstruction);
  if (said.length > 0 && said.every((s) => s !== undefined)) return said.join(' ');
  return say.goodbye;
}
