// Trying to leave the current state: the confirmation gate, guards, then the chosen branch's
// values. A blocked attempt is reported to the screen and to the LLM, as the flow says.

import type { Branch, FieldProblem } from '../language/flow.ts';
import { guardHolds } from './guards.ts';
import { displayValue, interpolate } from '../language/interpolate.ts';
import type { BlockReason } from './messages.ts';
import { dict } from '../language/records.ts';
import type { Decision, Turn } from './session.ts';
import { andList, kioskSentence } from './kiosk-sentences.ts';

/** What is still missing before the gate of the current state opens. */
export function gateShortfall(t: Turn): { reason: BlockReason; variables: string[] } | null {
  const gated = Object.keys(t.s.gate);
  const empty = gated.filter((v) => t.s.gate[v] === 'empty');
  if (empty.length) return { reason: 'not_captured', variables: empty };
  const pending = gated.filter((v) => t.s.gate[v] === 'pending');
  if (pending.length) return { reason: 'pending_confirmation', variables: pending };
  return null;
}

/**
 * Reports a move (or a form, a tap, a field) that was refused: to the screen (`transition_blocked`,
 * with the field rules broken, if any) and to the LLM, with the real reason, as the flow says.
 */
export function reportBlocked(t: Turn, target: string | null, reason: BlockReason, variables: string[], detail: string, problems?: Record<string, FieldProblem>): void {
  const notice = t.state?.gate ?? t.state?.blockedNotice ?? t.flow.settings;
  const { notifyClient, notifyLlm } = notice;
  if (notifyClient) {
    const shown = dict(variables.map((v) => [v, t.s.values[v] ?? null]));
    t.emit({
      type: 'transition_blocked',
      flow_id: t.flow.id,
      from_state: t.s.state,
      attempted_target: target,
      reason,
      detail,
      variables: shown,
      ...(problems && Object.keys(problems).length ? { problems } : {}),
    });
  }
  if (notifyLlm) {
    const what: Record<BlockReason, () => string> = {
      guard_failed: () => 'No condition of that transition holds yet.',
      not_captured: () => `Still needed from the visitor: ${variables.join(', ')}.`,
      invalid_input: () => `What the visitor gave was not accepted: ${detail} Ask them to correct it; the screen shows what is wrong.`,
      pending_confirmation: () =>
        `Captured but not yet confirmed by the visitor: ${variables.map((v) => `${v} = "${displayValue(t.s.values[v])}"`).join(', ')}. Ask them to confirm.`,
    };
    const move = target === null ? 'What the visitor did' : `The move to "${target}"`;
    t.system(`[flow engine] ${move} was blocked (${reason}). ${what[reason]()}`);
  }
}

/**
 * The required checkboxes of the step's form that are not ticked: a consent the visitor has not
 * given (`required` on a checkbox means ticked), which holds back the step's own way on.
 */
function untickedBoxes(t: Turn): string[] {
  const ui = t.state?.ui;
  if (ui?.type !== 'form') return [];
  return ui.fields.filter((f) => f.type === 'checkbox' && f.required && t.s.values[f.id] !== true).map((f) => f.id);
}

/**
 * Says that the step cannot go on until `boxes` are ticked: on the screen, to the LLM, and aloud
 * (a cue in the visit's language), for a move asked for by voice or by the LLM.
 */
function reportUnticked(t: Turn, target: string | null, boxes: string[]): void {
  const labels = boxes.map((v) => t.state?.ui?.fields.find((f) => f.id === v)?.label ?? v).map((l) => interpolate(l, t.shown));
  reportBlocked(t, target, 'not_captured', boxes, `Not ticked yet: ${boxes.join(', ')}.`);
  t.system(`[flow engine] ${boxes.join(', ')} ${boxes.length > 1 ? 'are boxes' : 'is a box'} the visitor must tick on the screen (a consent) before this step goes on: ask them to tick it, or to say plainly that they agree. Never take it as given.`);
  t.emit({ type: 'speech_cue', text: kioskSentence('tick_box', t.s.language, { fields: andList(labels, t.s.language) }), reason: 'not_ticked' });
}

/**
 * Takes the first branch whose guard holds. `bypassGate` is for the visitor's own hands (UI
 * events) and for the gate's own on_confirm. Returns true when a transition was decided.
 */
export function attempt(t: Turn, branches: readonly Branch[], cause: Decision['cause'], bypassGate: boolean): boolean {
  if (branches.length === 0) return false;
  // The step's own way on (a tool's or a rule's move, the gate's on_confirm) waits for every required box to be ticked.
  const boxes = !bypassGate || cause === 'gate' ? untickedBoxes(t) : [];
  if (boxes.length) {
    reportUnticked(t, branches[0]!.target, boxes);
    return false;
  }
  if (!bypassGate) {
    const short = gateShortfall(t);
    if (short) {
      const detail =
        short.reason === 'not_captured'
          ? `Variable(s) ${short.variables.map((v) => `'${v}'`).join(', ')} not captured yet.`
          : `Variable(s) ${short.variables.map((v) => `'${v}'`).join(', ')} captured but not confirmed by the visitor.`;
      reportBlocked(t, branches[0]!.target, short.reason, short.variables, detail);
      return false;
    }
  }
  const chosen = branches.find((b) => !b.guard || guardHolds(b.guard, t.guards));
  if (!chosen) {
    reportBlocked(t, branches[0]!.target, 'guard_failed', [], 'No branch of this transition has a guard that holds.');
    return false;
  }
  for (const [k, v] of Object.entries(chosen.set)) t.setConverted(k, typeof v === 'string' ? interpolate(v, t.templateValues) : v, 'transition', true);
  t.go(chosen.target, cause);
  return true;
}
