// Confirmation gates: confirming and rejecting captured values, by the LLM's generated tools,
// by a tap on screen, or by the flow's own confirm/reject phrases.

import { interpolate, displayValue, templateNames, valueOf, type Values } from '../language/interpolate.ts';
import { andList, kioskSentence } from './kiosk-sentences.ts';
import type { RejectReason } from './messages.ts';
import type { Turn } from './session.ts';
import { attempt } from './transition.ts';
import { isBlank } from '../language/values.ts';
import { foldPhrase } from './words.ts';

export type ConfirmOutcome =
  | { ok: true; confirmed: string[]; advanced: boolean; stillNeeded: string[] }
  | { ok: false; reason: RejectReason; variables: string[] };

/**
 * Confirms `vars` (all or nothing). `byVisitor` is true for a tap or a confirm phrase: the visitor
 * is confirming with their own voice or hands. The LLM's confirm needs a user turn after capture,
 * and that turn must not be a plain refusal.
 */
export function confirmVariables(t: Turn, vars: readonly string[], byVisitor: boolean): ConfirmOutcome {
  const empty = vars.filter((v) => t.s.gate[v] === 'empty');
  if (empty.length) return { ok: false, reason: 'not_captured', variables: empty };
  if (!byVisitor) {
    const unheard = vars.filter((v) => t.s.gate[v] === 'pending' && !t.s.heard[v]);
    if (unheard.length) return { ok: false, reason: 'no_user_turn', variables: unheard };
    // No means no: the LLM never confirms what the visitor has just refused.
    const pending = vars.filter((v) => t.s.gate[v] === 'pending');
    if (t.s.refused && pending.length) return { ok: false, reason: 'user_refused', variables: pending };
  }
  const confirmed: string[] = [];
  for (const v of vars) {
    if (t.s.gate[v] === 'pending') {
      t.setValue(v, t.s.values[v], 'gate', true);
      confirmed.push(v);
    }
  }
  const stillNeeded = Object.keys(t.s.gate).filter((v) => t.s.gate[v] !== 'confirmed');
  let advanced = false;
  if (stillNeeded.length === 0) {
    advanced = attempt(t, t.state!.gate!.onConfirm, 'gate', true);
  }
  return { ok: true, confirmed, advanced, stillNeeded };
}

/** Rejects `vars`: clears them (or keeps them for editing) and goes to on_reject's target. */
export function rejectVariables(t: Turn, vars: readonly string[]): { cleared: string[]; moved: boolean } {
  const gate = t.state!.gate!;
  const target = gate.onReject.target ?? t.s.state;
  if (gate.onReject.action === 'keep' && target === t.s.state) {
    t.system(
      `[flow engine] The visitor says ${vars.join(', ')} ${vars.length > 1 ? 'are' : 'is'} not right. The value is kept for editing: ask what it should be.`,
    );
    return { cleared: [], moved: false };
  }
  if (gate.onReject.action === 'keep') {
    // Leaving the state: unconfirmed values do not go with the visitor (see exitState).
    t.go(target, 'gate');
    return { cleared: [], moved: true };
  }
  const cleared: string[] = [];
  for (const v of vars) {
    if (t.s.gate[v] !== 'empty') cleared.push(v);
    t.clearValue(v, 'gate');
  }
  t.go(target, 'gate');
  return { cleared, moved: true };
}

/**
 * The question that asks the visitor to confirm `pending` values: the flow's own `prompt` once
 * every value it names has been heard (else it would read "born ." with a blank), or else
 * "I heard … Is that right?" for what was heard. `values` are as the visitor sees them.
 */
export function gateQuestionText(prompt: string | undefined, values: Values, pending: readonly string[], language = 'en'): string {
  if (prompt && templateNames(prompt).every((n) => !isBlank(valueOf(values, n)))) return interpolate(prompt, values);
  return kioskSentence('heard', language, { values: andList(pending.map((v) => displayValue(valueOf(values, v))), language) });
}

/** The confirmation question for the current pending values. */
export function confirmQuestion(t: Turn): string {
  return gateQuestionText(t.state?.gate?.prompt, t.shown, t.pendingVars(), t.s.language);
}

/**
 * How a flow's confirm and reject phrases are compared with what was said: the words alone,
 * folded as the engine folds every answer (words.ts: lower case, curly apostrophes straight,
 * accents and Arabic vowel signs left out), so "Oui, c’est ça." is the phrase "oui c'est ça" and
 * "Si, es correcto" is "sí, es correcto", as a keyboard or a recogniser may write them.
 */
export function normalizePhrase(text: string): string {
  return foldPhrase(text);
}
