// When a new version of the kiosk takes over: never during a visit or on its end screen, at once
// on the idle screen, with one reload, and never stuck waiting for a worker that will not come.

import { describe, expect, it } from 'vitest';
import type { Timers } from '../../src/ports/timers.ts';
import { kioskIsQuiet } from '../../src/pwa/quiet.ts';
import { TAKE_OVER_TIMEOUT_MS, UpdateGate, type UpdateState } from '../../src/pwa/updates.ts';

/** Timers that fire only when the test says time has passed. */
function manualTimers(): Timers & { advance(ms: number): void } {
  let now = 0;
  const due: { at: number; fn: () => void }[] = [];
  return {
    schedule(delayMs, fn) {
      const entry = { at: now + delayMs, fn };
      due.push(entry);
      return () => {
        const i = due.indexOf(entry);
        if (i >= 0) due.splice(i, 1);
      };
    },
    advance(ms) {
      now += ms;
      for (const entry of due.filter((d) => d.at <= now)) {
        due.splice(due.indexOf(entry), 1);
        entry.fn();
      }
    },
  };
}

type Phase = 'loading' | 'invalid' | 'idle' | 'running' | 'ended';

/** A kiosk on a given screen, with a gate over it that records what it did. */
function setUp(phase: Phase = 'idle') {
  const kiosk = { phase };
  const did: string[] = [];
  const states: UpdateState[] = [];
  const timers = manualTimers();
  const gate = new UpdateGate(
    {
      isQuiet: () => kioskIsQuiet(kiosk.phase),
      activate: () => did.push('activate'),
      reload: () => did.push('reload'),
      changed: (s) => states.push(s),
    },
    timers,
  );
  /** the kiosk moves to another screen, and the page tells the gate */
  const go = (next: Phase) => {
    kiosk.phase = next;
    gate.settle();
  };
  return { kiosk, gate, did, states, timers, go };
}

describe('UpdateGate', () => {
  it('lets in an update that arrives on the idle screen, and reloads once it has control', () => {
    const { gate, did, states } = setUp('idle');
    gate.found();
    expect(did).toEqual(['activate']);
    gate.tookOver();
    expect(did).toEqual(['activate', 'reload']);
    expect(states).toEqual(['waiting', 'activating', 'reload-due', 'reloading']);
  });

  it('holds an update that arrives mid-visit until the kiosk is back on its idle screen', () => {
    const { gate, did, go } = setUp('running');
    gate.found();
    expect(gate.state).toBe('waiting');
    go('running');
    go('ended');
    expect(did, 'nothing during the visit or on the end screen').toEqual([]);
    go('idle');
    expect(did).toEqual(['activate']);
    gate.tookOver();
    expect(did).toEqual(['activate', 'reload']);
  });

  it('does not reload under a visit that started while the update was being let in', () => {
    const { gate, did, go } = setUp('idle');
    gate.found();
    go('running');
    gate.tookOver();
    expect(gate.state).toBe('reload-due');
    expect(did).toEqual(['activate']);
    go('ended');
    expect(did).toEqual(['activate']);
    go('idle');
    expect(did).toEqual(['activate', 'reload']);
  });

  it('reloads once, however often the screen changes or the worker takes over', () => {
    const { gate, did, go } = setUp('idle');
    gate.found();
    gate.tookOver();
    go('idle');
    gate.tookOver();
    gate.found();
    expect(did).toEqual(['activate', 'reload']);
    expect(gate.state).toBe('reloading');
  });

  it('waits for the flow to load: nothing happens on "Getting ready…"', () => {
    const { gate, did, go } = setUp('loading');
    gate.found();
    expect(did).toEqual([]);
    go('idle');
    expect(did).toEqual(['activate']);
  });

  it('lets an update in on the operator screen of a flow that did not load: no visitor is there', () => {
    const { gate, did } = setUp('invalid');
    gate.found();
    expect(did).toEqual(['activate']);
  });

  it('a version let in elsewhere (another tab) also means a reload at the next quiet moment', () => {
    const { gate, did, go } = setUp('running');
    gate.tookOver();
    expect(did).toEqual([]);
    go('idle');
    expect(did).toEqual(['reload']);
  });

  it('stops waiting for a worker that never takes over, and can try again when it is found again', () => {
    const { gate, did, timers } = setUp('idle');
    gate.found();
    timers.advance(TAKE_OVER_TIMEOUT_MS - 1);
    expect(gate.state).toBe('activating');
    timers.advance(1);
    expect(gate.state).toBe('current');
    gate.found();
    expect(did).toEqual(['activate', 'activate']);
  });

  it('a take-over in time cancels the time-out', () => {
    const { gate, did, go, timers } = setUp('idle');
    gate.found();
    go('running');
    gate.tookOver();
    timers.advance(TAKE_OVER_TIMEOUT_MS);
    expect(gate.state).toBe('reload-due');
    go('idle');
    expect(did).toEqual(['activate', 'reload']);
  });

  it('finding the same update again while it waits changes nothing', () => {
    const { gate, did, states } = setUp('running');
    gate.found();
    gate.found();
    expect(states).toEqual(['waiting']);
    expect(did).toEqual([]);
  });
});

describe('kioskIsQuiet', () => {
  it.each([
    ['loading', false],
    ['invalid', true],
    ['idle', true],
    ['running', false],
    ['ended', false],
  ] as const)('%s: %s', (phase, quiet) => {
    expect(kioskIsQuiet(phase)).toBe(quiet);
  });
});
