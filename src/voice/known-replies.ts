// Replies the engine already knows word for word, which the conversation says at once instead of
// asking the model: a state's own first words come as a speech cue (`agent.say`, reason
// `entered`); and after the model's tool calls captured values for a gate, the gate's question
// about them, once the form has nothing left to ask for (before that the model asks for the rest).

import type { Field } from '../engine/language/flow.ts';
import { isBlank } from '../engine/language/values.ts';
import type { EngineMessage, SpeechCueMessage } from '../engine/runtime/messages.ts';

/**
 * The gate's question among what a round of tool calls produced, when every field of the step's
 * form (`fields`, with `values` as the engine holds them) has a value; null otherwise.
 */
export function questionAfterCapture(produced: readonly EngineMessage[], fields: readonly Pick<Field, 'id'>[], values: Readonly<Record<string, unknown>>): string | null {
  const question = produced.find((m): m is SpeechCueMessage => m.type === 'speech_cue' && m.reason === 'confirm_capture');
  if (!question || fields.some((f) => isBlank(values[f.id]))) return null;
  return question.text;
}
