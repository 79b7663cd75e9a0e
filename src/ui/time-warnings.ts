// The flow's time limits as the visitor meets them (FlowEngine.view.limits: the step's timeout
// that leaves the step, the visit's cap, values and an action waiting for a yes): each one from
// NEAR_MS before it acts, with its seconds left counted down a second at a time, and a warning to
// show and say whenever one comes near. The engine acts when a limit is up (its own tick); "More
// time" is the engine's more_time, whose new limits come back here.

import { NEAR_MS, type TimeLimit } from '../engine/runtime/time-limits.ts';
import type { Clock } from '../ports/clock.ts';
import type { Timers } from '../ports/timers.ts';

/** A limit that is near, with the whole seconds left before it acts. */
export type NearLimit = TimeLimit & { seconds: number };

export interface TimeWarningEvents {
  /** the near limits changed (a second passed, one came or went); empty when none is near any more */
  changed(near: readonly NearLimit[]): void;
  /** a limit has come near (once per limit and deadline): show it and say it */
  warned(): void;
}

/** One limit and its deadline: a limit moved on by More time is another, warned of again. */
const keyOf = (l: TimeLimit): string => `${l.kind}@${l.at}${l.kind === 'values' ? `:${l.variables.join(',')}` : l.kind === 'action' ? `:${l.action_id}` : ''}`;

export class TimeWarnings {
  private limits: readonly TimeLimit[] = [];
  private cancel: (() => void) | null = null;
  /** the limits warned of so far, of those watched now */
  private warnedOf = new Set<string>();
  private shown = false;

  constructor(
    private readonly clock: Clock,
    private readonly timers: Timers,
    private readonly events: TimeWarningEvents,
  ) {}

  /** The run's limits now (`FlowEngine.view.limits`); the same ones again change nothing. */
  watch(limits: readonly TimeLimit[]): void {
    const keys = limits.map(keyOf);
    if (keys.join('|') === this.limits.map(keyOf).join('|')) return;
    this.limits = limits;
    for (const k of this.warnedOf) if (!keys.includes(k)) this.warnedOf.delete(k);
    this.update();
  }

  /** No time limit any more (the visit ended or was wiped). */
  stop(): void {
    this.cancel?.();
    this.cancel = null;
    this.limits = [];
    this.warnedOf.clear();
    if (this.shown) this.events.changed([]);
    this.shown = false;
  }

  /** The near limits now, the warning for any new one, and the next moment anything changes. */
  private update(): void {
    this.cancel?.();
    this.cancel = null;
    const now = this.clock.now();
    const near: NearLimit[] = [];
    let next = Infinity;
    for (const limit of this.limits) {
      const left = limit.at - now;
      // Up: the engine's own tick acts on it, and new limits come.
      if (left <= 0) continue;
      if (left > NEAR_MS) {
        next = Math.min(next, left - NEAR_MS);
        continue;
      }
      const seconds = Math.ceil(left / 1000);
      near.push({ ...limit, seconds });
      next = Math.min(next, left - (seconds - 1) * 1000);
    }
    const fresh = near.filter((l) => !this.warnedOf.has(keyOf(l)));
    for (const l of fresh) this.warnedOf.add(keyOf(l));
    if (near.length > 0 || this.shown) this.events.changed(near);
    this.shown = near.length > 0;
    if (fresh.length > 0) this.events.warned();
    if (next !== Infinity) this.cancel = this.timers.schedule(next, () => this.update());
  }
}
