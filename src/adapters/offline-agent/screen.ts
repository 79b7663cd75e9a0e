// What the offline agent knows about the current step: the scene the runtime hands it (artifact,
// gate, values, pending items) and the tools on offer, with each parameter's kind of value.

import { GO_BACK, SET_LANGUAGE, type Artifact, type ChoiceOption, type Field, type UiAction } from '../../engine/language/flow.ts';
import type { ToolSpec } from '../../engine/runtime/messages.ts';
import type { TurnRequest } from '../../ports/language-model.ts';
import type { Choice } from './choices.ts';
import { writesMonthFirst } from './dates.ts';
import { LANGUAGES, languageFor, type Language } from './languages/index.ts';
import type { NamePart } from './names.ts';
import { humanize } from './text.ts';
import { wordsOf } from '../../engine/runtime/words.ts';

export interface Screen {
  state: string;
  /** the visit's language tag ("en-GB", "de-DE"): how dates are written and said */
  tag: string;
  /** the assistant's words for it (English where it has none) */
  lang: Language;
  /** the visit's locale writes dates month first ("03/05/1984" is March 5) */
  monthFirst: boolean;
  artifact: Artifact | null;
  /** the state's system prompt, as the engine wrote it */
  prompt: string | undefined;
  /** timeout re-entries so far */
  retry: number;
  /** the state ends the flow once entered */
  terminal: boolean;
  /** the step has Back (the flow's allow_back, and a step before it) */
  canGoBack: boolean;
  /** the gated variables of the state */
  gated: readonly string[];
  gatePrompt: string | undefined;
  values: Readonly<Record<string, unknown>>;
  pending: readonly string[];
  pendingAction: string | undefined;
  /** an action of this step is being sent: its answer comes by itself */
  running: boolean;
  tools: readonly ToolSpec[];
  /** the tools offered only by the flow's `global` (flow_state.global_tools): ways out, never the step's way on */
  globalTools: readonly string[];
  /** the flow's buttons on every step (flow_state.global_actions): a label that names a global tool asks for it */
  globalButtons: readonly UiAction[];
  /** the kiosk's date today, as YYYY-MM-DD */
  today: string;
}

export function readScreen(request: TurnRequest, today: string): Screen {
  const scene = request.scene;
  const state = scene?.state;
  const tag = state?.language || 'en-US';
  return {
    state: state?.state ?? '',
    tag,
    lang: languageFor(tag),
    monthFirst: writesMonthFirst(tag),
    artifact: state?.artifact ?? null,
    prompt: state?.agent.system_prompt,
    retry: state?.agent.retry ?? 0,
    terminal: state?.terminal ?? false,
    canGoBack: state?.can_go_back ?? false,
    gated: Object.keys(state?.gate ?? {}),
    gatePrompt: state?.gate_prompt,
    values: scene?.values ?? {},
    pending: scene?.pending ?? [],
    pendingAction: scene?.pendingAction,
    running: (scene?.running?.length ?? 0) > 0,
    tools: request.tools,
    globalTools: state?.global_tools ?? [],
    globalButtons: state?.global_actions ?? [],
    today,
  };
}

export function offers(screen: Screen, name: string): boolean {
  return screen.tools.some((t) => t.function.name === name);
}

/** The buttons the engine's go_back tool may go back by here (Back, "Change my details"): none when it is not offered. */
export function backButtonsOffered(screen: Screen): string[] {
  const button = screen.tools.find((t) => t.function.name === GO_BACK)?.function.parameters.properties['button'];
  const events = typeof button === 'object' && button !== null ? (button as { enum?: unknown }).enum : undefined;
  return Array.isArray(events) ? events.filter((e): e is string => typeof e === 'string') : [];
}

/** The engine's own tools: confirm_/reject_ for a gated variable or the state, the action pair, set_language, go_back. */
function isGenerated(screen: Screen, tool: ToolSpec): boolean {
  const name = tool.function.name;
  if (name === 'confirm_action' || name === 'reject_action' || name === SET_LANGUAGE || name === GO_BACK) return true;
  const m = /^(?:confirm|reject)_(.+)$/.exec(name);
  if (!m) return false;
  const subject = m[1]!;
  if (screen.state === '') return Object.keys(tool.function.parameters.properties).length === 0;
  return subject === screen.state || screen.gated.includes(subject);
}

/**
 * The step's own tools offered now, in offer order: not the generated ones, and not the flow's
 * global ways out (ways-out.ts), which a yes, a bare answer or a lone free-text parameter must
 * never reach.
 */
export function flowTools(screen: Screen): ToolSpec[] {
  return screen.tools.filter((t) => !isGenerated(screen, t) && !screen.globalTools.includes(t.function.name));
}

/** The flow's global ways out offered now ("ask_for_person"), in offer order. */
export function globalTools(screen: Screen): ToolSpec[] {
  return screen.tools.filter((t) => screen.globalTools.includes(t.function.name) && !isGenerated(screen, t));
}

export function parameterCount(tool: ToolSpec): number {
  return Object.keys(tool.function.parameters.properties).length;
}

/** The form field showing a variable, if the screen has one. */
export function fieldFor(screen: Screen, name: string): Field | undefined {
  return screen.artifact?.fields.find((f) => f.id === name);
}

// ------------------------------------------------------------------ parameters

export type ParamKind = 'email' | 'phone' | 'date' | 'time' | 'number' | 'boolean' | 'choice' | 'name' | 'text';

export interface ParamInfo {
  name: string;
  kind: ParamKind;
  required: boolean;
  /** for `choice`: the allowed values */
  choices: readonly Choice[];
  /** for `date`: YYYY-MM-DD wanted (else the date as said) */
  isoDate: boolean;
  /** for `date`: a date that cannot be in the future (a date of birth) */
  past: boolean;
  /** for `time`: HH:MM wanted (else the time as said) */
  clock24: boolean;
  integer: boolean;
  namePart: NamePart;
}

const PERSON_NAME = /^(?:(first|given|last|family|sur|full|middle|nick|visitor|guest|customer|patient|child|contact|your|user|person)_?)?name$/i;
const EMAIL_NAME = /e-?mail/i;
const PHONE_NAME = /phone|mobile|(?:^|_)(?:tel|cell)(?:$|_)/i;
const DATE_NAME = /(?:^|_)(?:date|dob|birthday|birthdate|day)(?:$|_)/i;
const TIME_NAME = /(?:^|_)(?:time|slot|hour)(?:$|_)/i;
/** Words of a birth date's name or label, in every language ("date_of_birth", "Geburtsdatum", "date de naissance"). */
const BIRTH: ReadonlySet<string> = new Set(LANGUAGES.flatMap((l) => l.birth.map((w) => wordsOf(w)[0]?.text ?? '')));

function isBirth(text: string): boolean {
  return wordsOf(text).some((w) => BIRTH.has(w.text) || [...BIRTH].some((b) => b.length >= 5 && w.text.startsWith(b)));
}

function namePartOf(name: string): NamePart {
  const qualifier = PERSON_NAME.exec(name)?.[1]?.toLowerCase();
  if (qualifier === 'first' || qualifier === 'given' || qualifier === 'nick') return 'first';
  if (qualifier === 'last' || qualifier === 'family' || qualifier === 'sur') return 'last';
  return 'full';
}

/** The options the screen shows for a variable (a select field's, or an options screen's). */
export function optionsFor(screen: Screen, name: string): readonly ChoiceOption[] {
  return fieldFor(screen, name)?.options ?? (screen.artifact?.variable === name ? screen.artifact.options : undefined) ?? [];
}

/** A choice for an allowed value: named by the value and its option's label, or by the option's description said whole. */
function choiceOf(value: unknown, option: ChoiceOption | undefined): Choice {
  const names = option && option.label !== option.id ? [String(value), option.label] : [String(value)];
  return { value, names, ...(option?.description ? { phrases: [option.description] } : {}) };
}

function choicesFor(screen: Screen, name: string, allowed: readonly unknown[] | undefined): Choice[] {
  const options = optionsFor(screen, name);
  if (allowed) return allowed.map((value) => choiceOf(value, options.find((o) => o.id === String(value))));
  return options.map((o) => choiceOf(o.id, o));
}

function kindOf(name: string, schema: Record<string, unknown>, field: Field | undefined, choices: readonly Choice[]): ParamKind {
  const type = schema['type'];
  const format = schema['format'];
  const description = typeof schema['description'] === 'string' ? schema['description'] : '';
  if (choices.length > 0) return 'choice';
  if (type === 'number' || type === 'integer') return 'number';
  if (type === 'boolean') return 'boolean';
  if (format === 'email') return 'email';
  if (format === 'date' || format === 'date-time') return 'date';
  if (format === 'time') return 'time';
  switch (field?.type) {
    case 'email':
      return 'email';
    case 'tel':
      return 'phone';
    case 'number':
      return 'number';
    case 'date':
      return 'date';
    case 'checkbox':
      return 'boolean';
    default:
      break;
  }
  if (EMAIL_NAME.test(name)) return 'email';
  if (PHONE_NAME.test(name) || /phone number/i.test(description)) return 'phone';
  if (DATE_NAME.test(name)) return 'date';
  if (TIME_NAME.test(name)) return 'time';
  if (PERSON_NAME.test(name)) return 'name';
  return 'text';
}

/** The parameters of a tool, each with the kind of value to listen for. */
export function readParams(screen: Screen, tool: ToolSpec): ParamInfo[] {
  const { properties, required } = tool.function.parameters;
  return Object.entries(properties).map(([name, schema]) => {
    const field = fieldFor(screen, name);
    const allowed = Array.isArray(schema['enum']) ? (schema['enum'] as unknown[]) : undefined;
    const choices = choicesFor(screen, name, allowed);
    const kind = kindOf(name, schema, field, choices);
    return {
      name,
      kind,
      required: required.includes(name),
      choices,
      isoDate: schema['format'] === 'date' || field?.type === 'date',
      past: kind === 'date' && isBirth(`${humanize(name)} ${field?.label ?? ''}`),
      clock24: schema['format'] === 'time',
      integer: schema['type'] === 'integer',
      namePart: namePartOf(name),
    };
  });
}
