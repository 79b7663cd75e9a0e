// What a model asks the kiosk to do on the screen for the visitor, beside its words and tool
// calls, checked before it is done: values for the form on screen (typed in as the visitor would,
// never into a gated field) and a tap of a button that goes back to a step of this visit.

import type { FlowEngine } from '../engine/runtime/engine.ts';
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

/**
 * The tap of `event` the model asked for (a `ui_event` chunk), when it goes back to a step this
 * visit has shown (Back, a change button): worked out first on a copy of the run. A tap that
 * would move the visit on, or keep it where it is, is not made.
 */
export function tapInput(engine: FlowEngine, visited: ReadonlySet<string>, event: string): UiEventInput | undefined {
  const input: UiEventInput = { type: 'ui_event', event };
  const target = engine.preview(input)?.find((m): m is FlowStateMessage => m.type === 'flow_state')?.state;
  return target !== undefined && target !== engine.view.state && visited.has(target) ? input : undefined;
}
