// What a model asks the kiosk to do on the screen for the visitor, beside its words and tool
// calls, checked before it is done: values for the form on screen (typed in as the visitor would,
// never into a gated field). A model never taps for the visitor: going back is the engine's
// go_back tool.

import type { FlowStateMessage, UiEventInput } from '../engine/runtime/messages.ts';
import type { TurnChunk } from '../ports/language-model.ts';

type FormValue = Extract<TurnChunk, { type: 'form_value' }>;

/** The field changes for values the model heard for the form on screen (fields of the form only, none gated). */
export function formInputs(scene: FlowStateMessage | null, values: readonly FormValue[]): UiEventInput[] {
  const form = scene?.artifact?.fields ?? [];
  const gated = scene?.gate ?? {};
  return values
    .filter(({ field }) => form.some((f) => f.id === field) && !(field in gated))
    .map(({ field, value }) => ({ type: 'ui_event', event: 'field_change', variable: field, value }));
}
