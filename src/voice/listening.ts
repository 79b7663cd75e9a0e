// What the kiosk listens for in the current step: the flow's `turn_taking` settings over the
// defaults, whether the answer awaited is one people dictate in groups (a phone number, a
// number, a date, an email), which gets a longer pause before the turn counts as finished, and
// the labels of what the step offers to choose (one said alone is a whole answer).

import { TURN_TAKING_DEFAULTS, type Field } from '../engine/language/flow.ts';
import type { FlowStateMessage, TurnTakingWire } from '../engine/runtime/messages.ts';
import type { Expectation, TurnTakingSettings } from './turn-taking.ts';

/** The flow's settings for a step (as `flow_state` carries them) over the defaults. */
export function turnTakingFor(wire: TurnTakingWire): TurnTakingSettings {
  return {
    endSilenceMs: wire.end_silence_ms ?? TURN_TAKING_DEFAULTS.endSilenceMs,
    dictationSilenceMs: wire.dictation_silence_ms ?? TURN_TAKING_DEFAULTS.dictationSilenceMs,
    minSpeechMs: wire.min_speech_ms ?? TURN_TAKING_DEFAULTS.minSpeechMs,
    bargeIn: wire.barge_in ?? TURN_TAKING_DEFAULTS.bargeIn,
    bargeInMs: wire.barge_in_ms ?? TURN_TAKING_DEFAULTS.bargeInMs,
    words: wire.words ?? TURN_TAKING_DEFAULTS.words,
    unfinishedSilenceMs: wire.unfinished_silence_ms ?? TURN_TAKING_DEFAULTS.unfinishedSilenceMs,
    completeSilenceMs: wire.complete_silence_ms ?? TURN_TAKING_DEFAULTS.completeSilenceMs,
  };
}

const DICTATED: ReadonlySet<Field['type']> = new Set(['tel', 'number', 'date', 'email']);

export interface AnswerContext {
  /** `turn_taking.expect` of the step */
  expect?: TurnTakingWire['expect'];
  /** the step's form fields, in screen order */
  fields: readonly Pick<Field, 'id' | 'type'>[];
  /** true when the field's variable has no value yet */
  isEmpty(variable: string): boolean;
  /** an action waits for the visitor's yes or no */
  actionPending: boolean;
}

/**
 * The answer the kiosk waits for now. An action waiting for a yes or no wants a free answer;
 * otherwise the first empty field says it (tel, number, date and email are dictated, the rest are
 * free), and with every field filled the question is whether they are right: a free answer. A
 * value heard and not yet confirmed does not change this while a field is still empty: the kiosk
 * asks for the next value before it asks to confirm them all.
 */
export function expectedAnswer(context: AnswerContext): Expectation {
  if (context.expect === 'free' || context.expect === 'dictation') return context.expect;
  if (context.actionPending) return 'free';
  const next = context.fields.find((f) => context.isEmpty(f.id));
  return next !== undefined && DICTATED.has(next.type) ? 'dictation' : 'free';
}

/** The labels of what a step offers to choose or tap: its options, its fields' options, its buttons and the flow's ways out. */
export function choicesOf(step: Pick<FlowStateMessage, 'artifact' | 'global_actions'>): string[] {
  const a = step.artifact;
  const options = [...(a?.options ?? []), ...(a?.fields ?? []).flatMap((f) => f.options ?? [])];
  return [...options, ...(a?.actions ?? []), ...(step.global_actions ?? [])].map((o) => o.label);
}
