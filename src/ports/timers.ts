// The timers port: how the runtime asks to be woken later. Real timers in the browser; tests
// drive their own.

import { MAX_TIMER_MS } from '../engine/language/limits.ts';

export interface Timers {
  /** Calls `fn` after `delayMs`; returns a function that cancels it. */
  schedule(delayMs: number, fn: () => void): () => void;
}

/**
 * A delay a timer can hold: at least 0 and at most MAX_TIMER_MS (about 24.8 days). A longer one
 * wakes early, and the caller, finding nothing due yet, asks again for the rest; given as is,
 * setTimeout would fire at once, again and again.
 */
export function timerDelay(delayMs: number): number {
  return Number.isNaN(delayMs) ? 0 : Math.min(MAX_TIMER_MS, Math.max(0, delayMs));
}

export const browserTimers: Timers = {
  schedule(delayMs, fn) {
    const id = setTimeout(fn, timerDelay(delayMs));
    return () => clearTimeout(id);
  },
};
