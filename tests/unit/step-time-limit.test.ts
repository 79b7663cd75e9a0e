// The warning of a step's time limit (src/ui/step-time-limit.ts) on a virtual clock: it begins 30
// seconds before the step's timeout takes the visitor off the step (at once for a shorter one),
// counts down a second at a time, is given once per deadline, and goes with a new deadline.

import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/ports/clock.ts';
import type { Timers } from '../../src/ports/timers.ts';
import { StepTimeLimit, WARN_MS } from '../../src/ui/step-time-limit.ts';

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

function limit() {
  const clock = new VirtualClock(0);
  const timers = new ClockTimers(clock);
  const shown: (number | null)[] = [];
  const warnings: number[] = [];
  const l = new StepTimeLimit(clock, timers, { changed: (s) => shown.push(s), warned: (s) => warnings.push(s) });
  return { clock, timers, shown, warnings, l };
}

describe('a step time limit', () => {
  it('warns 30 s before the step is left, and counts the seconds down', () => {
    const { timers, shown, warnings, l } = limit();
    l.watch(90_000);
    timers.pass(90_000 - WARN_MS - 1);
    expect(shown).toEqual([]);
    timers.pass(1);
    expect(warnings).toEqual([30]);
    expect(shown).toEqual([30]);
    timers.pass(29_999);
    expect(shown.at(-1)).toBe(1);
    expect(shown).toHaveLength(30);
    expect(warnings).toEqual([30]);
  });

  it('warns of a limit shorter than the warning from the start, in whole seconds', () => {
    const { timers, shown, warnings, l } = limit();
    l.watch(20_500);
    timers.pass(0);
    expect(warnings).toEqual([21]);
    timers.pass(500);
    expect(shown).toEqual([21, 20]);
  });

  it('goes when more time moves the deadline on, and warns again before the new one', () => {
    const { clock, timers, shown, warnings, l } = limit();
    l.watch(40_000);
    timers.pass(20_000);
    expect(shown.at(-1)).toBe(20);
    l.watch(clock.now() + 40_000); // more time: twice the 20 s left
    expect(shown.at(-1)).toBeNull();
    timers.pass(10_000 - 1);
    expect(shown.at(-1)).toBeNull();
    timers.pass(1);
    expect(warnings).toEqual([30, 30]);
  });

  it('says nothing more once stopped, or when the same deadline is watched again', () => {
    const { timers, shown, warnings, l } = limit();
    l.watch(10_000);
    timers.pass(0);
    l.watch(10_000);
    l.stop();
    timers.pass(60_000);
    expect(warnings).toEqual([10]);
    expect(shown).toEqual([10, null]);
  });
});
