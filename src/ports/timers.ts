// The timers port: how the runtime asks to be woken later. Real timers in the browser; tests
// drive their own.

export interface Timers {
  /** Calls `fn` after `delayMs`; returns a function that cancels it. */
  schedule(delayMs: number, fn: () => void): () => void;
}

export const browserTimers: Timers = {
  schedule(delayMs, fn) {
    const id = setTimeout(fn, Math.max(0, delayMs));
    return () => clearTimeout(id);
  },
};
