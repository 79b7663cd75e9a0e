// The page's AudioContext rests (is suspended) once nothing has used it for a while, what was
// queued has played and no microphone listens through it; whoever asks for it wakes it. Driven on
// a clock of the test's own: the audio clock, the page's clock and the rest's timers move only
// when the test moves them.

import { describe, expect, it } from 'vitest';
import { AWAKE_AFTER_USE_MS, PageAudio, type RestingContext } from '../../src/ui/page-audio.ts';

class TestContext implements RestingContext {
  state: 'suspended' | 'running' | 'closed' = 'suspended';
  currentTime = 0;
  suspends = 0;
  resumes = 0;
  /** the audio thread gets no time: its clock does not move */
  stalled = false;
  resume(): Promise<void> {
    this.resumes++;
    this.state = 'running';
    return Promise.resolve();
  }
  suspend(): Promise<void> {
    this.suspends++;
    this.state = 'suspended';
    return Promise.resolve();
  }
}

/** A PageAudio on the test's clock: `pass(ms)` moves the page's clock and the audio clock (while running) and runs the checks due. */
function pageAudio() {
  const context = new TestContext();
  let now = 0;
  let checks: { at: number; run: () => void }[] = [];
  let made = 0;
  const audio = new PageAudio({
    make: () => {
      made++;
      return context;
    },
    now: () => now,
    later: (run, ms) => void checks.push({ at: now + ms, run }),
  });
  const pass = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = checks.filter((c) => c.at <= end).sort((a, b) => a.at - b.at)[0];
      const to = due ? due.at : end;
      if (context.state === 'running' && !context.stalled) context.currentTime += (to - now) / 1000;
      now = to;
      if (!due) return;
      checks = checks.filter((c) => c !== due);
      due.run();
    }
  };
  /** The context is still running 100 ms before `ms` from now, and resting 100 ms after. */
  const restsIn = (ms: number) => {
    pass(ms - 100);
    expect(context.state).toBe('running');
    pass(200);
    expect(context.state).toBe('suspended');
  };
  return { audio, context, pass, restsIn, made: () => made, pending: () => checks.length };
}

describe("the page's audio", () => {
  it('is made once, and a context made before a tap stays suspended until asked for awake', () => {
    const { audio, context, made } = pageAudio();
    expect(audio.get(false)).toBe(context);
    expect(context.state).toBe('suspended');
    expect(audio.get()).toBe(context);
    expect(context.state).toBe('running');
    expect(made()).toBe(1);
  });

  it('rests once it has gone unused for the time it stays awake, and wakes when asked for again', () => {
    const { audio, context, restsIn } = pageAudio();
    audio.get();
    restsIn(AWAKE_AFTER_USE_MS);
    audio.get();
    expect(context.state).toBe('running');
    expect(context.resumes).toBe(2);
  });

  it('counts a use made while it waits: the rest comes that long after the last one', () => {
    const { audio, pass, restsIn } = pageAudio();
    audio.get();
    pass(AWAKE_AFTER_USE_MS / 2);
    audio.get();
    restsIn(AWAKE_AFTER_USE_MS);
  });

  it('stays awake while a long sentence plays, and rests that long after its end', () => {
    const { audio, context, restsIn } = pageAudio();
    audio.get();
    audio.playsUntil(context.currentTime + 25); // 25 s of speech queued
    restsIn(25_000 + AWAKE_AFTER_USE_MS);
  });

  it('waits for an audio clock running late: nothing queued is cut off', () => {
    const { audio, context, pass, restsIn } = pageAudio();
    audio.get();
    audio.playsUntil(2);
    context.stalled = true; // the audio thread gets no time: its clock stands while the page's runs on
    pass(AWAKE_AFTER_USE_MS * 3);
    expect(context.state).toBe('running');
    context.stalled = false;
    restsIn(2000);
  });

  it('never rests while a microphone listens through it, and rests after it stops', () => {
    const { audio, context, pass, pending, restsIn } = pageAudio();
    const stop = audio.listen();
    expect(context.state).toBe('running');
    pass(AWAKE_AFTER_USE_MS * 10);
    expect(context.state).toBe('running');
    expect(context.suspends).toBe(0);
    const stopToo = audio.listen();
    stop();
    stop(); // a second call changes nothing
    pass(AWAKE_AFTER_USE_MS * 2);
    expect(context.state).toBe('running');
    stopToo();
    restsIn(AWAKE_AFTER_USE_MS);
    expect(pending()).toBe(0);
  });

  it('keeps one check waiting at a time, however often it is asked for', () => {
    const { audio, pending, pass } = pageAudio();
    for (let i = 0; i < 1000; i++) {
      audio.get();
      pass(5);
    }
    expect(pending()).toBe(1);
  });

  it('is woken by a tap only when it was made: a tap on the idle screen makes none', () => {
    const { audio, context, pass, made, restsIn } = pageAudio();
    audio.wake();
    expect(made()).toBe(0);
    audio.get();
    pass(AWAKE_AFTER_USE_MS * 2);
    expect(context.state).toBe('suspended');
    audio.wake();
    expect(context.state).toBe('running');
    restsIn(AWAKE_AFTER_USE_MS);
  });

  it('leaves a context it did not wake alone, and one the browser closed', () => {
    const { audio, context, pass } = pageAudio();
    audio.get(false);
    pass(AWAKE_AFTER_USE_MS * 2);
    expect(context.suspends).toBe(0);
    audio.get();
    context.state = 'closed';
    pass(AWAKE_AFTER_USE_MS * 2);
    expect(context.suspends).toBe(0);
  });
});
