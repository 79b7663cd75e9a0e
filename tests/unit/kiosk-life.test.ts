// The kiosk's own life (src/ui/kiosk-life.ts) on a simulated clock: which screen is up, when the
// kiosk asks "Are you still there?" and wipes, the end screen's countdown, the start-over
// question, the moment a new screen's buttons wait, and the operator's panel.

import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock } from 'xstate';
import { kioskLife, lifeView, type LifeEvent, type LifeTiming } from '../../src/ui/kiosk-life.ts';

const TIMING: LifeTiming = { idleMs: 120_000, graceMs: 20_000, endMs: 3_000, settleMs: 450 };

function life(timing: Partial<LifeTiming> = {}) {
  const clock = new SimulatedClock();
  const done = { wipes: 0, holds: 0 };
  const actor = createActor(
    kioskLife.provide({
      actions: {
        wipe: () => {
          done.wipes += 1;
        },
        holdTaps: () => {
          done.holds += 1;
        },
      },
    }),
    { input: { timing: { ...TIMING, ...timing } }, clock },
  ).start();
  const send = (...events: LifeEvent[]) => events.forEach((e) => actor.send(e));
  const view = () => lifeView(actor.getSnapshot());
  /** Lets `ms` pass a second at a time (a countdown arms its next second as each one ends). */
  const pass = (ms: number) => {
    for (let left = ms; left > 0; left -= 1_000) clock.increment(Math.min(1_000, left));
  };
  return { clock, done, send, view, actor, pass };
}

describe('from loading to a visit', () => {
  it('shows the idle screen once the flow is loaded, and a visit after Start', () => {
    const k = life();
    expect(k.view().phase).toBe('loading');
    k.send({ type: 'flow.loaded' });
    expect(k.view().phase).toBe('idle');
    k.send({ type: 'start' });
    expect(k.view().phase).toBe('running');
    expect(k.done.wipes).toBe(1); // whatever an earlier visit left is gone before this one starts
  });

  it('shows the broken-flow screen for a flow that did not load, and never a visit', () => {
    const k = life();
    k.send({ type: 'flow.invalid' }, { type: 'start' });
    expect(k.view().phase).toBe('invalid');
  });

  it('goes straight back into a visit taken up after a reload', () => {
    const k = life();
    k.send({ type: 'visit.resumed', quietMs: 1_000 });
    expect(k.view().phase).toBe('running');
    expect(k.done.wipes).toBe(0);
  });
});

describe('a visitor who walks away', () => {
  it('is asked "Are you still there?" after the idle time, and wiped after the grace', () => {
    const k = life();
    k.send({ type: 'flow.loaded' }, { type: 'start' });
    k.clock.increment(TIMING.idleMs - 1);
    expect(k.view().stillThere).toBe(false);
    k.clock.increment(1);
    expect(k.view()).toMatchObject({ stillThere: true, endsIn: 20 });
    k.pass(TIMING.graceMs - 1);
    expect(k.view()).toMatchObject({ phase: 'running', endsIn: 1 });
    k.clock.increment(1);
    expect(k.view()).toMatchObject({ phase: 'idle', stillThere: false, endsIn: null });
    expect(k.done.wipes).toBe(2);
  });

  it('counts the question down a second at a time; "More time" answers it like any sign of the visitor', () => {
    const k = life();
    k.send({ type: 'flow.loaded' }, { type: 'start' });
    k.clock.increment(TIMING.idleMs);
    k.pass(5_000);
    expect(k.view()).toMatchObject({ stillThere: true, endsIn: 15 });
    k.send({ type: 'more_time' });
    expect(k.view()).toMatchObject({ phase: 'running', stillThere: false, endsIn: null });
    k.clock.increment(TIMING.idleMs - 1);
    expect(k.view().stillThere).toBe(false);
  });

  it('starts the wait again at every sign of the visitor, and an answer to the question keeps the visit', () => {
    const k = life();
    k.send({ type: 'flow.loaded' }, { type: 'start' });
    k.clock.increment(TIMING.idleMs - 10);
    k.send({ type: 'activity' });
    k.clock.increment(TIMING.idleMs - 10);
    expect(k.view().stillThere).toBe(false);
    k.clock.increment(10);
    expect(k.view().stillThere).toBe(true);
    k.send({ type: 'activity' });
    expect(k.view().stillThere).toBe(false);
    k.clock.increment(TIMING.graceMs * 2);
    expect(k.view()).toMatchObject({ phase: 'running', stillThere: false });
  });

  it('counts the time before a reload: quiet past the idle time, the question is up at once with what is left of the grace', () => {
    const k = life();
    k.send({ type: 'visit.resumed', quietMs: TIMING.idleMs + 5_000 });
    expect(k.view()).toMatchObject({ stillThere: true, endsIn: 15 });
    k.pass(TIMING.graceMs - 5_000 - 1);
    expect(k.view().phase).toBe('running');
    k.clock.increment(1);
    expect(k.view().phase).toBe('idle');
  });

  it('asks sooner after a reload when the visitor had already been quiet', () => {
    const k = life();
    k.send({ type: 'visit.resumed', quietMs: 100_000 });
    k.clock.increment(TIMING.idleMs - 100_000);
    expect(k.view().stillThere).toBe(true);
  });

  it('does not time out on the idle screen', () => {
    const k = life();
    k.send({ type: 'flow.loaded' });
    k.clock.increment(TIMING.idleMs * 10);
    expect(k.view()).toMatchObject({ phase: 'idle', stillThere: false });
    expect(k.done.wipes).toBe(0);
  });
});

describe('Start over', () => {
  it('asks first when something of the visitor is on screen; "No, go on" keeps the visit', () => {
    const k = life();
    k.send({ type: 'flow.loaded' }, { type: 'start' });
    k.send({ type: 'start_over', confirmed: false, answers: true });
    expect(k.view()).toMatchObject({ phase: 'running', askingStartOver: true });
    k.send({ type: 'keep_going' });
    expect(k.view()).toMatchObject({ phase: 'running', askingStartOver: false });
    expect(k.done.wipes).toBe(1);
  });

  it('wipes at once when nothing was entered, when the visitor already said yes, or on the error step', () => {
    for (const [event, failed] of [
      [{ type: 'start_over', confirmed: false, answers: false }, false],
      [{ type: 'start_over', confirmed: true, answers: true }, false],
      [{ type: 'start_over', confirmed: false, answers: true }, true],
    ] as const) {
      const k = life();
      k.send({ type: 'flow.loaded' }, { type: 'start' }, { type: 'flow.step', failed }, event);
      expect(k.view().phase).toBe('idle');
      expect(k.done.wipes).toBe(2);
    }
  });

  it('the question counts as a sign of the visitor: the walk-away wait starts again', () => {
    const k = life();
    k.send({ type: 'flow.loaded' }, { type: 'start' });
    k.clock.increment(TIMING.idleMs - 10);
    k.send({ type: 'start_over', confirmed: false, answers: true });
    k.clock.increment(TIMING.idleMs - 10);
    expect(k.view().stillThere).toBe(false);
  });
});

describe('the end', () => {
  it('counts the end screen down a second at a time, then wipes', () => {
    const k = life();
    k.send({ type: 'flow.loaded' }, { type: 'start' }, { type: 'flow.ended', assistant: false });
    expect(k.view()).toMatchObject({ phase: 'ended', endsIn: 3 });
    k.clock.increment(1_000);
    expect(k.view().endsIn).toBe(2);
    k.clock.increment(1_000);
    expect(k.view().endsIn).toBe(1);
    k.clock.increment(999);
    expect(k.view().phase).toBe('ended');
    k.clock.increment(1);
    expect(k.view()).toMatchObject({ phase: 'idle', endsIn: null });
    expect(k.done.wipes).toBe(2);
  });

  it('shows whole seconds for a part-second end time, the first step being the part', () => {
    const k = life({ endMs: 2_500 });
    k.send({ type: 'flow.loaded' }, { type: 'start' }, { type: 'flow.ended', assistant: false });
    expect(k.view().endsIn).toBe(3);
    k.clock.increment(500);
    expect(k.view().endsIn).toBe(2);
  });

  it('stays at least 20 s when it shows something to read (what to take away), else for the time set', () => {
    const toRead = life({ endMs: 5_000 });
    toRead.send({ type: 'flow.loaded' }, { type: 'start' }, { type: 'flow.ended', assistant: false, toRead: true });
    expect(toRead.view().endsIn).toBe(20);
    const nothing = life({ endMs: 5_000 });
    nothing.send({ type: 'flow.loaded' }, { type: 'start' }, { type: 'flow.ended', assistant: false, toRead: false });
    expect(nothing.view().endsIn).toBe(5);
    const longer = life({ endMs: 45_000 });
    longer.send({ type: 'flow.loaded' }, { type: 'start' }, { type: 'flow.ended', assistant: false, toRead: true });
    expect(longer.view().endsIn).toBe(45);
  });

  it('Finish wipes at once', () => {
    const k = life();
    k.send({ type: 'flow.loaded' }, { type: 'start' }, { type: 'flow.ended', assistant: false }, { type: 'finish' });
    expect(k.view().phase).toBe('idle');
  });

  it('an assistant flow goes on talking after its end until the visitor walks away', () => {
    const k = life();
    k.send({ type: 'flow.loaded' }, { type: 'start' }, { type: 'flow.ended', assistant: true });
    expect(k.view()).toMatchObject({ phase: 'ended', endsIn: null });
    k.clock.increment(TIMING.idleMs);
    expect(k.view().stillThere).toBe(true);
    k.send({ type: 'activity' });
    expect(k.view().stillThere).toBe(false);
    k.clock.increment(TIMING.idleMs);
    k.pass(TIMING.graceMs);
    expect(k.view().phase).toBe('idle');
  });

  it('"More time" doubles what the countdown has left, as often as asked', () => {
    const k = life({ endMs: 20_000 });
    k.send({ type: 'flow.loaded' }, { type: 'start' }, { type: 'flow.ended', assistant: false });
    k.pass(12_000);
    expect(k.view().endsIn).toBe(8);
    k.send({ type: 'more_time' });
    expect(k.view().endsIn).toBe(16);
    k.pass(15_000);
    expect(k.view()).toMatchObject({ phase: 'ended', endsIn: 1 });
    k.send({ type: 'more_time' });
    expect(k.view().endsIn).toBe(2);
    k.pass(2_000);
    expect(k.view().phase).toBe('idle');
  });
});

describe('a new screen settles', () => {
  it('holds taps for a moment after each change, the moment starting again at a change within it', () => {
    const k = life();
    k.send({ type: 'flow.loaded' }, { type: 'start' }, { type: 'screen.changed' });
    expect(k.view().settling).toBe(true);
    k.clock.increment(400);
    k.send({ type: 'screen.changed' });
    k.clock.increment(400);
    expect(k.view().settling).toBe(true);
    k.clock.increment(50);
    expect(k.view().settling).toBe(false);
    expect(k.done.holds).toBe(2);
  });

  it('a wiped screen has nothing to settle', () => {
    const k = life();
    k.send({ type: 'flow.loaded' }, { type: 'start' }, { type: 'screen.changed' }, { type: 'start_over', confirmed: true, answers: true });
    expect(k.view()).toMatchObject({ phase: 'idle', settling: false });
  });
});

describe("the operator's panel", () => {
  it('opens over the idle screen or the broken-flow screen, and closes back to it', () => {
    const k = life();
    k.send({ type: 'flow.loaded' }, { type: 'panel.opened' });
    expect(k.view()).toMatchObject({ phase: 'idle', operator: true });
    k.send({ type: 'start' });
    expect(k.view().phase).toBe('idle'); // no visit starts behind the panel
    k.send({ type: 'panel.closed' });
    expect(k.view()).toMatchObject({ phase: 'idle', operator: false });

    const broken = life();
    broken.send({ type: 'flow.invalid' }, { type: 'panel.opened' });
    expect(broken.view()).toMatchObject({ phase: 'invalid', operator: true });
    broken.send({ type: 'panel.closed' });
    expect(broken.view()).toMatchObject({ phase: 'invalid', operator: false });
  });

  it('does not open during a visit', () => {
    const k = life();
    k.send({ type: 'flow.loaded' }, { type: 'start' }, { type: 'panel.opened' });
    expect(k.view()).toMatchObject({ phase: 'running', operator: false });
  });
});
