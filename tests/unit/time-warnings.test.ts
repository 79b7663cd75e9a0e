// The warnings of the flow's time limits (src/ui/time-warnings.ts) on a virtual clock: each
// begins 30 seconds before its limit acts (at once for a shorter one), counts down a second at a
// time, is given once per limit and deadline, and goes with a new deadline; several limits near
// at once are shown together, the soonest first, and each newcomer is warned of.

import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/ports/clock.ts';
import type { Timers } from '../../src/ports/timers.ts';
import { NEAR_MS, type TimeLimit } from '../../src/engine/runtime/time-limits.ts';
import { TimeWarnings } from '../../src/ui/time-warnings.ts';

/** Timers on the virtual clock: `pass(ms)` moves it on, firing what falls due, in order. */
class ClockTimers implements Timers {
  private due: { at: number; fn: () => void; live: boolean }[] = [];
  constructor(private readonly clock: VirtualClock) {}
  schedule(delayMs: number, fn: () => void): () => void {
    const t = { at: this.clock.now() + delayMs, fn, live: true };
    this.due.push(t);
    return () => (t.live = false);
  }
  pass(ms: number): void {
    const end = this.clock.now() + ms;
    for (;;) {
      const next = this.due.filter((t) => t.live && t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      next.live = false;
      this.clock.advance(next.at - this.clock.now());
      next.fn();
    }
    this.clock.advance(end - this.clock.now());
  }
}

function warnings() {
  const clock = new VirtualClock(0);
  const timers = new ClockTimers(clock);
  /** what the screen showed at each change: each near limit as kind and seconds left */
  const shown: string[][] = [];
  let warned = 0;
  const w = new TimeWarnings(clock, timers, {
    changed: (near) => shown.push(near.map((l) => `${l.kind} ${l.seconds}`)),
    warned: () => (warned += 1),
  });
  return { clock, timers, shown, warnedTimes: () => warned, w };
}

const step = (at: number): TimeLimit => ({ kind: 'step', at });

describe('the warning of a time limit', () => {
  it('begins 30 s before the limit acts, and counts the seconds down', () => {
    const { timers, shown, warnedTimes, w } = warnings();
    w.watch([step(90_000)]);
    timers.pass(90_000 - NEAR_MS - 1);
    expect(shown).toEqual([]);
    timers.pass(1);
    expect(warnedTimes()).toBe(1);
    expect(shown).toEqual([['step 30']]);
    timers.pass(29_999);
    expect(shown.at(-1)).toEqual(['step 1']);
    expect(shown).toHaveLength(30);
    expect(warnedTimes()).toBe(1);
  });

  it('warns of a limit shorter than the warning from the start, in whole seconds', () => {
    const { timers, shown, warnedTimes, w } = warnings();
    w.watch([step(20_500)]);
    expect(warnedTimes()).toBe(1);
    timers.pass(500);
    expect(shown).toEqual([['step 21'], ['step 20']]);
  });

  it('goes when more time moves the deadline on, and warns again before the new one', () => {
    const { clock, timers, shown, warnedTimes, w } = warnings();
    w.watch([step(40_000)]);
    timers.pass(20_000);
    expect(shown.at(-1)).toEqual(['step 20']);
    w.watch([step(clock.now() + 40_000)]); // more time: twice the 20 s left
    expect(shown.at(-1)).toEqual([]);
    timers.pass(10_000 - 1);
    expect(shown.at(-1)).toEqual([]);
    timers.pass(1);
    expect(warnedTimes()).toBe(2);
  });

  it('says nothing more once stopped, or when the same limits are watched again', () => {
    const { timers, shown, warnedTimes, w } = warnings();
    w.watch([step(10_000)]);
    w.watch([step(10_000)]);
    w.stop();
    timers.pass(60_000);
    expect(warnedTimes()).toBe(1);
    expect(shown).toEqual([['step 10'], []]);
  });
});

describe('several limits', () => {
  it('shows each near one, the soonest first, and warns again when another comes near', () => {
    const { timers, shown, warnedTimes, w } = warnings();
    w.watch([
      { kind: 'values', at: 50_000, variables: ['full_name'] },
      { kind: 'visit', at: 65_000 },
      { kind: 'action', at: 600_000, action_id: 'a1' },
    ]);
    timers.pass(20_000);
    expect(shown.at(-1)).toEqual(['values 30']);
    expect(warnedTimes()).toBe(1);
    timers.pass(15_000);
    expect(shown.at(-1)).toEqual(['values 15', 'visit 30']);
    expect(warnedTimes()).toBe(2);
    timers.pass(15_000); // the values' limit is up: the engine clears them and says so
    w.watch([
      { kind: 'visit', at: 65_000 },
      { kind: 'action', at: 600_000, action_id: 'a1' },
    ]);
    expect(shown.at(-1)).toEqual(['visit 15']);
    expect(warnedTimes()).toBe(2);
  });

  it('stops counting a limit that is up before the engine answers', () => {
    const { timers, shown, w } = warnings();
    w.watch([step(5_000)]);
    timers.pass(5_000);
    expect(shown.at(-1)).toEqual([]);
    timers.pass(10_000);
    expect(shown).toHaveLength(6);
  });
});
