// The time limits a visitor meets in a run, as the engine knows them: the step's timeout when it
// would take them off the step, the visit's cap (settings.max_duration_secs), the values waiting
// for a yes (a gate's expires_after) and the action waiting for a yes (its expires_after). The
// kiosk warns of each one that is near; the UI event `more_time` gives each near one more.

import type { Flow } from '../language/flow.ts';
import { stateDef } from './error-state.ts';
import type { Session, Turn } from './session.ts';

/**
 * A limit that acts within this is near: the kiosk warns of it, on screen and aloud (more than
 * WCAG 2.2.1's 20 seconds, so that 20 are left once the warning is said), and `more_time`
 * extends it. A limit shorter than this is near from its start.
 */
export const NEAR_MS = 30_000;

/**
 * Where `more_time` puts a near limit other than the step's timeout: this far from now. Since a
 * limit is near only in its last NEAR_MS, that is at least twice the time it had left; a late
 * "More time" still leaves a whole minute, and the warning goes until the limit is near again.
 */
export const MORE_TIME_MS = 2 * NEAR_MS;

/** One time limit of the run: what it does when it acts, and when (ms on the engine's clock). */
export type TimeLimit =
  /** the step's timeout takes the visitor off the step */
  | { kind: 'step'; at: number }
  /** the visit's cap (settings.max_duration_secs) ends it or sends it to settings.on_timeout */
  | { kind: 'visit'; at: number }
  /** these values, waiting for a yes, are cleared (the gate's expires_after) */
  | { kind: 'values'; at: number; variables: readonly string[] }
  /** the action waiting for a yes is cancelled (its tool's expires_after) */
  | { kind: 'action'; at: number; action_id: string };

/** When the visit's cap acts (its start, the cap, and what more_time added), or null when it has none or has acted. */
export function visitCapAt(flow: Flow, s: Session): number | null {
  const max = flow.settings.maxDurationSecs;
  return max === undefined || s.durationCapped ? null : s.startedAt + max * 1000 + s.capExtendedMs;
}

/** When each value waiting for a yes is cleared, by variable (none without the gate's expires_after). */
export function valuesExpireAt(flow: Flow, s: Session): Map<string, number> {
  const out = new Map<string, number>();
  const expires = stateDef(flow, s.state)?.gate?.expiresAfter;
  if (expires === undefined) return out;
  for (const [v, status] of Object.entries(s.gate)) if (status === 'pending') out.set(v, (s.capturedAt[v] ?? s.now) + expires * 1000);
  return out;
}

/** The step's deadline when its timeout leaves the step: another target, or the fallback once the retries are used up. */
export function leavesAt(flow: Flow, s: Session): number | null {
  const to = stateDef(flow, s.state)?.transitions.onTimeout;
  if (!to || s.deadline === null) return null;
  const retriesLeft = to.maxRetries === undefined || s.retries < to.maxRetries;
  const leaves = to.target !== s.state || (!retriesLeft && to.fallback !== undefined);
  return leaves ? s.deadline : null;
}

/** Every time limit the visitor meets now, the soonest first (values that expire together are one). */
export function timeLimits(flow: Flow, s: Session): TimeLimit[] {
  if (s.ended) return [];
  const out: TimeLimit[] = [];
  const step = leavesAt(flow, s);
  if (step !== null) out.push({ kind: 'step', at: step });
  const cap = visitCapAt(flow, s);
  if (cap !== null) out.push({ kind: 'visit', at: cap });
  const together = new Map<number, string[]>();
  for (const [v, at] of valuesExpireAt(flow, s)) together.set(at, [...(together.get(at) ?? []), v]);
  for (const [at, variables] of together) out.push({ kind: 'values', at, variables });
  if (s.pendingAction) out.push({ kind: 'action', at: s.pendingAction.expiresAt, action_id: s.pendingAction.id });
  return out.sort((a, b) => a.at - b.at);
}

/**
 * `more_time`: the visitor asked for more time. The step's timeout, restarted by the tap as by
 * any, never has less than twice what it had left (`stepLeft`, before the tap). Every other limit
 * that is near (within NEAR_MS) acts MORE_TIME_MS from now, at least twice what it had left, as
 * often as the visitor asks. Nothing else happens.
 */
export function moreTime(t: Turn, stepLeft: number | null): void {
  const s = t.s;
  if (stepLeft !== null && s.deadline !== null) s.deadline = Math.max(s.deadline, s.now + 2 * Math.max(0, stepLeft));
  const later = (at: number): number | null => (at - s.now > NEAR_MS ? null : s.now + MORE_TIME_MS);
  const cap = visitCapAt(t.flow, s);
  const capLater = cap === null ? null : later(cap);
  if (cap !== null && capLater !== null) s.capExtendedMs += capLater - cap;
  for (const [v, at] of valuesExpireAt(t.flow, s)) {
    const valueLater = later(at);
    if (valueLater !== null) t.write('capturedAt')[v] = (s.capturedAt[v] ?? s.now) + (valueLater - at);
  }
  const action = s.pendingAction;
  const actionLater = action && later(action.expiresAt);
  if (action && actionLater !== null) s.pendingAction = { ...action, expiresAt: actionLater };
}
