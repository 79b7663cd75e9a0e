// What the offline agent says: the screen's heading, the next question (built from the first
// empty field, the gate's question, a pending action), read-backs and short acknowledgements.

import type { Field } from '../../engine/flow.ts';
import { gateQuestionText } from '../../engine/gate.ts';
import { displayValue } from '../../engine/interpolate.ts';
import { answeredPlainTool } from './fill.ts';
import { fieldFor, flowTools, parameterCount, readParams, type ParamInfo, type Screen } from './screen.ts';
import { isBlank } from '../../engine/values.ts';
import { humanize, normalizePhrase, orList } from './text.ts';

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

/** The gate's question for the pending values; the engine's own wording when it shows them. */
export function gateQuestion(screen: Screen): string | undefined {
  if (screen.pending.length === 0) return undefined;
  return gateQuestionText(screen.gatePrompt, screen.values, screen.pending);
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

/** "I have first name: Alex, date of birth: 15 March 1995." from the filled fields. */
function readBack(screen: Screen): string | undefined {
  const filled = (screen.artifact?.fields ?? []).filter((f) => !isBlank(screen.values[f.id]));
  if (filled.length === 0) return undefined;
  const items = filled.map((f) => `${f.label.trim().endsWith('?') ? humanize(f.id) : lowerLabel(f.label)}: ${displayValue(screen.values[f.id])}`);
  return `I have ${items.join(', ')}.`;
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

/**
 * What to ask now: a pending action, the gate's question, the first empty field, the options,
 * a voice-only parameter, or, with everything filled and a tool to go on, a read-back.
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
  if ((back !== undefined || screen.artifact?.type === 'card') && answeredPlainTool(screen, 'yes')) return join(back, 'Is that all correct?');
  return undefined;
}
