// The watch on the microphone's frames (src/adapters/vad-web/frame-watch.ts): an open microphone
// whose frames do not come is woken, then said to be silent, before and after it was first heard.

import { describe, expect, it } from 'vitest';
import { FrameWatch, type WatchTimers } from '../../src/adapters/vad-web/frame-watch.ts';
import type { ServiceError } from '../../src/ports/service-error.ts';

/** Timers the test moves by hand. */
function handTimers() {
  let now = 0;
  const ticks: { every: number; next: number; tick: () => void; on: boolean }[] = [];
  const timers: WatchTimers = {
    now: () => now,
    every: (ms, tick) => {
      const t = { every: ms, next: now + ms, tick, on: true };
      ticks.push(t);
      return () => void (t.on = false);
    },
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = ticks.filter((t) => t.on && t.next <= end).sort((a, b) => a.next - b.next)[0];
      if (!due) break;
      now = due.next;
      due.next += due.every;
      due.tick();
    }
    now = end;
  };
  return { timers, advance, running: () => ticks.some((t) => t.on) };
}

function watch(limitMs = 4000) {
  const clock = handTimers();
  const log = { woken: 0, silent: [] as ServiceError[] };
  const w = new FrameWatch(limitMs, { wake: () => log.woken++, silent: (e) => log.silent.push(e), describe: () => 'audio context suspended' }, clock.timers);
  const first = w.firstFrame.then(
    () => 'heard',
    (e: ServiceError) => `rejected: ${e.failure}`,
  );
  return { w, clock, log, first };
}

describe('frame watch', () => {
  it('resolves at the first frame and stays quiet while frames keep coming', async () => {
    const { w, clock, log, first } = watch();
    clock.advance(300);
    w.frame();
    expect(await first).toBe('heard');
    for (let i = 0; i < 500; i++) {
      clock.advance(32);
      w.frame();
    }
    expect(log).toEqual({ woken: 0, silent: [] });
    expect(w.heard).toBe(true);
  });

  it('wakes the audio halfway, then says the microphone is silent when no frame ever came', async () => {
    const { clock, log, first } = watch(4000);
    clock.advance(1999);
    expect(log.woken).toBe(0);
    clock.advance(1000);
    expect(log.woken).toBe(1);
    expect(log.silent).toHaveLength(0);
    clock.advance(1001);
    expect(log.silent).toHaveLength(1);
    expect(await first).toBe('rejected: timeout');
    expect(log.silent).toHaveLength(1);
    expect(log.silent[0]!.service).toBe('microphone');
    expect(log.silent[0]!.detail).toBe('no sound from the microphone for 4 s; audio context suspended');
    expect(clock.running()).toBe(false);
  });

  it('a woken audio that gives frames again is not silent', async () => {
    const { w, clock, log, first } = watch(4000);
    w.frame();
    clock.advance(3000);
    expect(log.woken).toBe(1);
    w.frame();
    clock.advance(3000);
    expect(log.woken).toBe(2);
    w.frame();
    clock.advance(1000);
    expect(log.silent).toHaveLength(0);
    expect(await first).toBe('heard');
  });

  it('frames that stop after the microphone was heard: silent, saying it had been heard', () => {
    const { w, clock, log } = watch(4000);
    w.frame();
    clock.advance(10_000);
    expect(log.silent.map((e) => e.detail)).toEqual(['no sound from the microphone for 4 s (it had been heard); audio context suspended']);
  });

  it('a closed microphone is watched no more, and nothing waits on its first frame', async () => {
    const { w, clock, log, first } = watch(4000);
    w.stop();
    expect(await first).toBe('heard');
    clock.advance(20_000);
    expect(log).toEqual({ woken: 0, silent: [] });
  });
});
