// What the offline agent says: the screen's heading, the next question (built from the first
// empty field, the gate's question, a pending action), read-backs, short acknowledgements, why a
// value is not taken, and how to change a card. Values are said as a visitor reads them.

import type { Field } from '../../engine/language/flow.ts';
import { gateQuestionText } from '../../engine/runtime/gate.ts';
import { displayValue } from '../../engine/language/interpolate.ts';
import { dateInWords, monthName } from './dates.ts';
import { answeredPlainTool, type Refusal } from './fill.ts';
import { fieldFor, flowTools, optionsFor, parameterCount, readParams, type ParamInfo, type Screen } from './screen.ts';
import { isBlank } from '../../engine/language/values.ts';
import { humanize, normalizePhrase, orList } from './text.ts';
import { wantsChange } from './yes-no.ts';

/** Text as caption sentences: lines joined, each ending with punctuation, spaces collapsed. */
function sentence(text: string): string {
  return text
    .split(/\n+/)
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .map((l) => (/[.!?…:]$/u.test(l) ? l : `${l}.`))
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

/** "Email Address:" → "email address"; words in capitals (IELTS) are kept. */
function lowerLabel(label: string): string {
  return label
    .trim()
    .replace(/[:?]\s*$/, '')
    .replace(/^your\s+/i, '')
    .split(/\s+/)
    .map((w) => (/^\p{Lu}?[\p{Ll}'’-]*$/u.test(w) ? w.toLowerCase() : w))
    .join(' ');
}

/** "phone" → "phone number", "mobile" → "mobile number". */
function phoneNumber(label: string): string {
  return /number/i.test(label) ? label : `${label} number`;
}

function askWhat(label: string, choices: readonly string[]): string {
  const count = /^number of (.+)$/i.exec(label)?.[1];
  const q = count === undefined ? `What's your ${label}?` : `How many ${count}?`;
  return choices.length > 0 ? `${q} You can say ${orList(choices)}.` : q;
}

/** "What's your first name?" from a field (its label as written when it is already a question). */
function fieldQuestion(field: Field): string {
  const choices = (field.options ?? []).map((o) => o.label);
  const label = field.label.trim();
  if (label.endsWith('?')) return choices.length > 0 ? `${label} You can say ${orList(choices)}.` : label;
  const what = lowerLabel(label || humanize(field.id));
  return askWhat(field.type === 'tel' ? phoneNumber(what) : what, choices);
}

/** The question for a tool parameter: its field's question, else one from its name. */
export function paramQuestion(screen: Screen, p: ParamInfo): string {
  const field = fieldFor(screen, p.name);
  const choices = p.choices.map((c) => String(c.names[c.names.length - 1]));
  if (field && (field.options?.length || choices.length === 0)) return fieldQuestion(field);
  const what = field ? lowerLabel(field.label) : humanize(p.name);
  return askWhat(p.kind === 'phone' ? phoneNumber(what) : what, choices);
}

/** The question for a variable the screen has a field for ("What's your date of birth?"). */
export function fieldQuestionFor(screen: Screen, name: string): string | undefined {
  const field = fieldFor(screen, name);
  return field && fieldQuestion(field);
}

/** A value as the kiosk says it: a choice by its label, a date in words ("March 5, 1984"), never "1984-03-05". */
function spokenValue(screen: Screen, name: string, value: unknown): string {
  const option = optionsFor(screen, name).find((o) => o.id === String(value));
  if (option) return option.label;
  return (typeof value === 'string' ? dateInWords(value) : undefined) ?? displayValue(value);
}

/** The gate's question for the pending values; the engine's own wording when it shows them. */
export function gateQuestion(screen: Screen): string | undefined {
  if (screen.pending.length === 0) return undefined;
  const spoken = Object.fromEntries(Object.entries(screen.values).map(([k, v]) => [k, spokenValue(screen, k, v)]));
  return gateQuestionText(screen.gatePrompt, spoken, screen.pending);
}

export function actionQuestion(summary: string): string {
  return `${summary.trim().replace(/[.!?]+$/, '')}. Shall I go ahead?`;
}

/** The artifact's heading and text, as sentences. */
export function introduction(screen: Screen): string | undefined {
  const a = screen.artifact;
  if (!a) return undefined;
  return join(a.title === undefined ? undefined : sentence(a.title), a.text === undefined ? undefined : sentence(a.text)) || undefined;
}

/** "I have first name: Alex, date of birth: March 15, 1995." for the values, by their fields' labels. */
function haveLine(screen: Screen, values: Readonly<Record<string, unknown>>): string | undefined {
  const items = Object.entries(values).map(([name, v]) => {
    const label = fieldFor(screen, name)?.label.trim();
    return `${label === undefined || label.endsWith('?') ? humanize(name) : lowerLabel(label)}: ${spokenValue(screen, name, v)}`;
  });
  return items.length > 0 ? `I have ${items.join(', ')}.` : undefined;
}

/** The filled fields read back. */
function readBack(screen: Screen): string | undefined {
  const filled = (screen.artifact?.fields ?? []).filter((f) => !isBlank(screen.values[f.id]));
  return haveLine(screen, Object.fromEntries(filled.map((f) => [f.id, screen.values[f.id]])));
}

/** "Thanks. I have appointment time: 10:30." for values heard and kept until the rest is known. */
export function heardLine(screen: Screen, heard: Readonly<Record<string, unknown>>): string {
  return join('Thanks.', haveLine(screen, heard));
}

/** Why a value that was heard is not taken, in one sentence. */
export function refusalLine(r: Refusal): string {
  switch (r.kind) {
    case 'declined':
      return `All right, not ${orList(r.choices.map((c) => String(c.names[c.names.length - 1])))}.`;
    case 'future':
      return `Sorry, ${dateInWords(r.date) ?? r.date} is in the future.`;
    case 'no_such_day': {
      // Only February's days depend on the year.
      const year = r.date.month === 2 && r.date.year !== undefined ? ` ${r.date.year}` : '';
      return `Sorry, ${monthName(r.date.month)}${year} has only ${r.date.days} days.`;
    }
  }
}

/** How to change what a card shows when only one of its buttons does that: "To make changes, tap “Change my details”." */
export function changeHint(screen: Screen): string | undefined {
  const action = screen.artifact?.actions.find((a) => wantsChange(`${a.event} ${a.label}`));
  return action && `To make changes, tap “${action.label}”.`;
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
  return `Please choose: ${orList(a.options.map((o) => o.label))}.`;
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

/** The question after a read-back: a "no" to it means something shown is wrong (offline-agent.ts asks what). */
export const READ_BACK_QUESTION = 'Is that all correct?';

/** A step whose way on is to agree (accept_rules, agree_terms) asks for consent, not whether it is correct. */
const CONSENT = /^(?:accept|agree|approve|consent)(?:_|$)/;

/**
 * What to ask now: a pending action, the gate's question, the first empty field, the options,
 * a voice-only parameter, or, with everything filled and a tool to go on, a read-back (or, where
 * going on means agreeing, "Do you agree?", to which a "no" is a no).
 */
export function nextQuestion(screen: Screen): string | undefined {
  if (screen.pendingAction !== undefined) return actionQuestion(screen.pendingAction);
  const gate = gateQuestion(screen);
  if (gate) return gate;
  const field = firstEmptyField(screen);
  if (field) return fieldQuestion(field);
  const choices = choiceLine(screen);
  if (choices) return choices;
  const param = firstOpenParam(screen);
  if (param) return paramQuestion(screen, param);
  // Everything is in: read it back (a card shows it already) when a tool is there to go on.
  const back = readBack(screen);
  const goOn = answeredPlainTool(screen, 'yes');
  if ((back !== undefined || screen.artifact?.type === 'card') && goOn) return join(back, CONSENT.test(goOn.tool) ? 'Do you agree?' : READ_BACK_QUESTION);
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
 * plain goodbye. The state's own prompt is the system prompt's last paragraph.
 */
export function farewell(screen: Screen): string {
  const own = (screen.prompt ?? '').split(/\n\s*\n/).pop() ?? '';
  const instructions = own
    .split(/(?<=[.!?])\s+|\s+and\s+(?=(?:say|bid|wish|hope|thank)\b)/i)
    .map((i) => i.trim())
    .filter(Boolean);
  const said = instructions.map(spokenInstruction);
  if (said.length > 0 && said.every((s) => s !== undefined)) return said.join(' ');
  return 'Thank you. Goodbye!';
}
