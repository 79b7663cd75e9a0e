// What a visitor sees of a step, to tell whether a new flow_state changed what is under their
// finger (a new step, other words or buttons) or showed the same step again as it was; only the
// first holds the step's buttons for a moment (issue 31 point 13).

import type { FlowStateMessage } from '../engine/runtime/messages.ts';

/**
 * What a visitor sees of a step, as a string to compare: the step, its language, its screen's
 * words and controls (fields, options, buttons, the global ones) and whether it can go back. Two
 * flow_states with the same face look the same under the finger.
 */
export function faceOf(m: FlowStateMessage): string {
  const a = m.artifact;
  return JSON.stringify([
    m.state,
    m.language,
    m.terminal,
    m.can_go_back,
    a && [a.type, a.title, a.text, a.submitLabel, a.fields.map((f) => [f.id, f.label]), a.options.map((o) => [o.id, o.label]), a.actions.map((b) => [b.event, b.label])],
    (m.global_actions ?? []).map((b) => [b.event, b.label]),
  ]);
}
