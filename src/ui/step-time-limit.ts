// The flow's time limit on the step on screen, as the visitor meets it: from WARN_MS before the
// step's timeout would take them off the step (FlowEngine.view.leavesAt), the seconds left,
// counted down a second at a time, and one warning to show and say. The engine acts when the time
// is up (its own tick); "More time" is the engine's more_time, whose new deadline comes back here.

import type { Clock } from '../ports/clock.ts';
import type { Timers } from '../ports/timers.ts';

/**
 * How long before a time limit acts the visitor is warned: more than WCAG 2.2.1's 20 seconds, so
 * that 20 are left once the warning has been said. A shorter limit is warned of from its start.
 */
export const WARN_MS = 30_000;

export interface TimeLimitEvents {
  /** the seconds left changed: a whole number while the warning is up, null when it is not */
  changed(secondsLeft: number | null): void;
  /** the warning begins (once per deadline): show it and say it */
  warned(secondsLeft: number): void;
}

export class StepTimeLimit {
  private at: number | null = null;
  private cancel: (() => void) | null = null;
  private shown = false;

  constructor(
    private readonly clock: Clock,
    private readonly timers: Timers,
    private readonly events: TimeLimitEvents,
  ) {}

  /** The step's deadline now (`leavesAt`), or null: a new deadline starts the wait for its warning again. */
  watch(at: number | null): void {
    if (at === this.at) return;
    this.stop();
    this.at = at;
    if (at !== null) this.arm(at - WARN_MS - this.clock.now(), true);
  }

  /** No time limit any more (the visit ended or was wiped). */
  stop(): void {
    this.cancel?.();
    this.cancel = null;
    this.at = null;
    if (this.shown) this.events.changed(null);
    this.shown = false;
  }

  private arm(ms: number, first: boolean): void {
    this.cancel = this.timers.schedule(Math.max(0, ms), () => this.count(first));
  }

  /** One step of the countdown: the whole seconds left, and the next step at the next whole second. */
  private count(first: boolean): void {
    if (this.at === null) return;
    const left = this.at - this.clock.now();
    // Time is up: the engine's own tick takes the step on, and a new deadline (or none) comes.
    if (left <= 0) return;
    const seconds = Math.ceil(left / 1000);
    this.shown = true;
    this.events.changed(seconds);
    if (first) this.events.warned(seconds);
    this.arm(left - (seconds - 1) * 1000, false);
  }
}
