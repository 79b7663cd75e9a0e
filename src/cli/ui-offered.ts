// What the kiosk's screen lets a visitor send now, for `vfdl test`'s `ui` steps: a step naming an
// event the screen does not offer (a typo, `sned`), or a value it could not send (option "7" of
// options 1 to 5), is refused with the reason, as the kiosk would never send it.

import type { EngineView } from '../engine/runtime/engine.ts';
import type { FlowStateMessage } from '../engine/runtime/messages.ts';
import { didYouMean } from '../engine/language/diagnostics.ts';
import type { Step } from './script-types.ts';

type UiStep = Extract<Step, { kind: 'ui' }>;

/** The events the screen offers now: the artifact's own, its buttons, the flow's global ones and the kiosk's controls. */
export function offeredEvents(view: EngineView, shown: FlowStateMessage | null): string[] {
  const a = shown?.artifact;
  return [
    ...(a?.type === 'form' ? ['form_submit', 'field_change'] : []),
    ...(a?.type === 'options' ? ['option_select'] : []),
    ...(a?.actions ?? []).map((b) => b.event),
    ...(shown?.global_actions ?? []).map((b) => b.event),
    ...(view.pending.length ? ['confirm_variable'] : []),
    ...(view.pendingAction ? ['confirm_action', 'reject_action', 'edit_action'] : []),
    ...(shown?.can_go_back ? ['back'] : []),
    'more_time',
  ];
}

/** Why the kiosk could not send `step` now, or undefined when it could. */
export function uiProblem(step: UiStep, view: EngineView, shown: FlowStateMessage | null): string | undefined {
  if (view.ended) return 'the flow has ended: the screen offers nothing more';
  if (step.event === 'start_over') return 'start_over is the kiosk\'s own: it wipes the visit and never reaches the flow';
  const offered = [...new Set(offeredEvents(view, shown))];
  if (!offered.includes(step.event)) {
    return `"${step.event}" is not offered in state "${view.state}"${didYouMean(step.event, offered)}; the screen offers ${offered.join(', ')}`;
  }
  const a = shown?.artifact;
  const fields = (a?.fields ?? []).map((f) => f.id);
  switch (step.event) {
    case 'option_select': {
      const chosen = step.selectedId ?? step.value;
      const ids = (a?.options ?? []).map((o) => o.id);
      if (chosen === undefined) return 'an option_select step gives the option tapped (value or selected_id)';
      if (!ids.includes(String(chosen))) return `${JSON.stringify(chosen)} is not one of the options on screen (${ids.join(', ')})${didYouMean(String(chosen), ids)}`;
      return undefined;
    }
    case 'form_submit': {
      const extra = Object.keys(step.values ?? {}).filter((k) => !fields.includes(k));
      return extra.length ? `"${extra[0]}" is not a field of the form on screen (${fields.join(', ')})${didYouMean(extra[0]!, fields)}` : undefined;
    }
    case 'field_change':
      return step.variable !== undefined && fields.includes(step.variable) ? undefined : `field_change names a field of the form on screen (${fields.join(', ')}) in variable`;
    case 'confirm_variable': {
      const asked = step.variables ?? (step.variable !== undefined ? [step.variable] : []);
      const idle = asked.filter((v) => !view.pending.includes(v));
      return asked.length && idle.length === 0 ? undefined : `${idle.length ? `"${idle[0]}" is` : 'nothing is named that is'} not waiting for a yes on screen (waiting: ${view.pending.join(', ')})`;
    }
    default:
      return undefined;
  }
}
