// The rules of a lock against guessing, shared by the operator's PIN (operator.ts) and the pairing
// codes (pairing.ts): so many wrong tries in a row lock it, each lock lasts twice the one before
// (up to a longest), a right try clears the count, and a locked door takes no try at all. The
// state itself is kept in the kiosk's memory (server/storage/pin-lock.ts).

import type { PinLockState } from './storage/pin-lock.ts';

/** How a lock behaves; every part has a default. */
export interface TryLockOptions {
  /** wrong tries in a row before it locks (default 5) */
  maxTries?: number;
  /** how long the first lock lasts; each lock after it lasts twice the one before (default 5 minutes) */
  lockMs?: number;
  /** the longest a lock lasts (default 24 hours) */
  maxLockMs?: number;
  /** the clock, in ms (tests pass their own) */
  now?: () => number;
}

/** What one try came to, as the lock sees it. */
export type TryOutcome = { ok: true } | { ok: false; reason: 'wrong'; triesLeft: number } | { ok: false; reason: 'locked'; retryAfterSeconds: number };

const DEFAULTS = { maxTries: 5, lockMs: 5 * 60_000, maxLockMs: 24 * 3_600_000 };

/** The rules of one lock, over its stored state. */
export class TryRules {
  readonly maxTries: number;
  private readonly lockMs: number;
  private readonly maxLockMs: number;
  readonly now: () => number;

  constructor(options: TryLockOptions = {}) {
    this.maxTries = options.maxTries ?? DEFAULTS.maxTries;
    this.lockMs = options.lockMs ?? DEFAULTS.lockMs;
    this.maxLockMs = options.maxLockMs ?? DEFAULTS.maxLockMs;
    this.now = options.now ?? Date.now;
  }

  /** Whole seconds until `state`'s lock runs out; 0 when not locked. */
  lockedFor(state: PinLockState): number {
    return Math.max(0, Math.ceil((state.lockedUntil - this.now()) / 1000));
  }

  /**
   * The lock after one try that was `right` or not, and what the try is told. Call it only when
   * `lockedFor(state)` is 0: a locked door takes no try (`refuseLocked`).
   */
  after(state: PinLockState, right: boolean): { state: PinLockState; result: TryOutcome } {
    if (right) return { state: { ...state, wrongTries: 0, locks: 0 }, result: { ok: true } };
    const wrong = state.wrongTries + 1;
    if (wrong < this.maxTries) return { state: { ...state, wrongTries: wrong }, result: { ok: false, reason: 'wrong', triesLeft: this.maxTries - wrong } };
    const locks = state.locks + 1;
    const lockedUntil = this.now() + Math.min(this.maxLockMs, this.lockMs * 2 ** (locks - 1));
    const next = { wrongTries: 0, locks, lockedUntil };
    return { state: next, result: { ok: false, reason: 'locked', retryAfterSeconds: this.lockedFor(next) } };
  }

  /** What a try is told while `state` is locked (undefined when it is not). */
  refuseLocked(state: PinLockState): { state: PinLockState; result: TryOutcome } | undefined {
    const locked = this.lockedFor(state);
    return locked > 0 ? { state, result: { ok: false, reason: 'locked', retryAfterSeconds: locked } } : undefined;
  }
}
