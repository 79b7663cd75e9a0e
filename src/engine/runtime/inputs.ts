// The visitor's inputs (utterances, UI events), time, and answers from the runtime, each turned
// into changes of the Turn and at most one decided transition. UI events are handled in
// ui-events.ts and the runtime's action answers in action-effects.ts, both passed on from here.

import { END, ERROR, type StateDef, type UtteranceRule } from '../language/flow.ts';
import { confirmQuestion, confirmVariables, normalizePhrase, rejectVariables } from './gate.ts';
import type { Turn } from './session.ts';
import { attempt } from './transition.ts';
import { stillNeeded } from './after-tool.ts';
import { globalIn } from '../language/global.ts';
import { pattern } from '../language/patterns.ts';
import { dict, own } from '../language/records.ts';
import { isBlank } from '../language/values.ts';
import { MAX_TEXT_CHARS } from '../language/limits.ts';
import { isRefusal } from './yes-no.ts';
import { kioskSentence } from './kiosk-sentences.ts';
import { valuesExpireAt, visitCapAt } from './time-limits.ts';

// ------------------------------------------------------------------ utterances

export function handleUtterance(t: Turn, raw: string): void {
  const text = raw.trim();
  t.userActivity();
  if (text.length > MAX_TEXT_CHARS) {
    // Refused whole: no rule, phrase or auto_extract pattern sees it, and nothing is captured.
    t.s.lastUtterance = '';
    if (!t.state) return;
    t.system(`[flow engine] The visitor's last answer had ${text.length} characters, more than the ${MAX_TEXT_CHARS} an answer may have; it was not used. Ask them to say it again more briefly.`);
    t.emit({ type: 'speech_cue', text: kioskSentence('too_long', t.s.language), reason: 'too_long' });
    return;
  }
  t.s.lastUtterance = text;
  t.s.refused = isRefusal(text, t.flow.language);
  const state = t.state;
  if (!state || text === '') return;

  const gate = state.gate;
  if (gate && t.pendingVars().length > 0) {
    const phrase = normalizePhrase(text);
    if (gate.confirmPhrases.some((p) => normalizePhrase(p) === phrase)) {
      const pending = t.pendingVars();
      const r = confirmVariables(t, pending, true);
      if (!(r.ok && r.advanced)) sayWhatComesNext(t, `The visitor confirmed ${pending.join(', ')} by saying "${text}".`);
      return;
    }
    if (gate.rejectPhrases.some((p) => normalizePhrase(p) === phrase)) {
      const pending = t.pendingVars();
      if (!rejectVariables(t, pending).moved) sayWhatComesNext(t, `The visitor said "${text}": ${pending.join(', ')} is not right.`);
      return;
    }
  }
  // The state's own rules, then the flow's global ones (ways out, not held back by the gate).
  for (const rule of state.transitions.onUtterance) if (tryRule(t, rule, text, false)) return;
  for (const rule of globalIn(t.flow, state).onUtterance) if (tryRule(t, rule, text, true)) return;
  if (cameToNothing(t, state)) return;
  t.emit({ type: 'llm_turn', epoch: t.s.epoch, reason: 'user_spoke' });
}

/**
 * `on_no_match` (the state's, else the flow's): an answer no phrase or rule took. Once
 * max_retries answers in a row have come to nothing (no value captured or confirmed, no call
 * accepted, no tap since), this one goes to the fallback; else it is counted, and the LLM, which
 * gets it, is told how many came to nothing before. True when the flow moves.
 */
function cameToNothing(t: Turn, state: StateDef): boolean {
  const rule = state.transitions.onNoMatch ?? globalIn(t.flow, state).onNoMatch;
  if (!rule) return false;
  const before = t.s.noMatch;
  if (before >= rule.maxRetries) {
    t.system(`[flow engine] ${before} of the visitor's answers in a row came to nothing here, and no rule takes this one either: the flow goes on to "${rule.fallback}" (on_no_match).`);
    t.go(rule.fallback, 'no_match');
    return true;
  }
  t.s.noMatch = before + 1;
  if (before > 0) {
    t.system(`[flow engine] ${before} of the visitor's answers in a row came to nothing here (${rule.maxRetries} may before the flow goes on to "${rule.fallback}"). If you cannot use this one either, ask again in other, simpler words, and mention they can use the screen.`);
  }
  return false;
}

/** One utterance rule on the transcript: false when it does not match; else its captures, move and answer. */
function tryRule(t: Turn, rule: UtteranceRule, text: string, bypassGate: boolean): boolean {
  const captures = matchRule(t, rule, text);
  if (!captures) return false;
  for (const [v, value] of Object.entries(captures)) t.setValue(v, value, 'utterance');
  const waitsForConfirmation = rule.requiresConfirmation || Object.keys(captures).some((v) => t.s.gate[v] === 'pending');
  if (rule.branches.length > 0 && !rule.requiresConfirmation) {
    if (attempt(t, rule.branches, 'utterance', bypassGate)) return true;
  }
  if (waitsForConfirmation && t.pendingVars().length > 0) {
    t.emit({ type: 'speech_cue', text: confirmQuestion(t), reason: 'confirm_capture' });
  } else if (rule.branches.length > 0) {
    // Matched but a guard said no: the LLM explains, so the kiosk is never silent.
    t.emit({ type: 'llm_turn', epoch: t.s.epoch, reason: 'user_spoke' });
  } else {
    // A capture-only rule: the LLM is skipped, the engine says what is still needed.
    t.emit({ type: 'speech_cue', text: stillNeeded(t), reason: 'captured' });
  }
  return true;
}

/**
 * After the flow's own confirm or reject phrase answered the visitor without moving the flow on,
 * the kiosk still answers: the engine names the form fields still empty, or, with none, the LLM
 * (or the offline assistant) is asked for a turn and told what happened.
 */
function sayWhatComesNext(t: Turn, note: string): void {
  t.system(`[flow engine] ${note}`);
  const emptyField = (t.state?.ui?.fields ?? []).some((f) => isBlank(t.s.values[f.id]));
  if (emptyField) t.emit({ type: 'speech_cue', text: stillNeeded(t), reason: 'confirmed' });
  else t.emit({ type: 'llm_turn', epoch: t.s.epoch, reason: 'user_spoke' });
}

/** The rule's captures, converted to their variables' types, or null when it does not match. */
function matchRule(t: Turn, rule: UtteranceRule, text: string): Record<string, unknown> | null {
  const m = pattern(rule.pattern, 'i')?.exec(text);
  if (!m) return null;
  const raw = dict<string | undefined>(rule.captureTo.map((v, i) => [v, m[i + 1]]));
  for (const g of rule.namedGroups) raw[g] = own(m.groups, g);
  const out = dict<unknown>();
  for (const [v, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    const c = t.convert(v, value);
    if (!c.ok) return null;
    out[v] = c.value;
  }
  return out;
}

// ------------------------------------------------------------------ UI events

export { handleUi } from './ui-events.ts';

// ------------------------------------------------------------------ time

/** Clears what has waited too long: pending gated values (expires_after) and pending actions. */
export function expire(t: Turn): void {
  const stale = [...valuesExpireAt(t.flow, t.s)].flatMap(([v, at]) => (t.s.now >= at ? [v] : []));
  for (const v of stale) t.clearValue(v, 'gate');
  if (stale.length) t.system(`[flow engine] ${stale.join(', ')} waited too long for confirmation and ${stale.length > 1 ? 'were' : 'was'} cleared. Ask again.`);
  const a = t.s.pendingAction;
  if (a && t.s.now >= a.expiresAt) {
    t.s.pendingAction = null;
    t.emit({ type: 'action_result', action_id: a.id, tool: a.tool, status: 'expired', detail: 'not confirmed in time' });
    t.system(`[flow engine] The pending action expired unconfirmed: ${a.summary}. Nothing was done.`);
  }
}

export function handleTick(t: Turn): void {
  const cap = visitCapAt(t.flow, t.s);
  if (cap !== null && t.s.now >= cap) {
    t.s.durationCapped = true;
    t.go(t.flow.settings.onTimeout ?? END, 'max_duration');
    return;
  }
  const to = t.state?.transitions.onTimeout;
  if (!to || t.s.deadline === null || t.s.now < t.s.deadline) return;
  if (to.target !== t.s.state) return t.go(to.target, 'timeout');
  if (to.maxRetries !== undefined && t.s.retries >= to.maxRetries) {
    if (to.fallback) return t.go(to.fallback, 'timeout');
    t.s.deadline = null; // nothing more to try; the visitor can still act
    return;
  }
  t.s.retries += 1;
  t.go(t.s.state, 'timeout');
}

// ------------------------------------------------------------------ runtime answers

export { handleActionDone } from './action-effects.ts';

export function handleFatal(t: Turn, message: string): void {
  t.system(`[flow engine] unrecoverable error: ${message}`);
  const target = t.flow.settings.onError ?? ERROR;
  if (t.s.state !== target) t.go(target, 'error');
}
