// The store of action ids on its own, on a hand-moved clock: repeats and reused ids, how long ids
// and data are kept, the bounds on count and bytes, and that a running action is never forgotten.

import { describe, expect, it } from 'vitest';
import { ActionStore, type ActionAnswer, type Claim, type StoreLimits } from '../../server/action-store.ts';

const META = { flowId: 'clinic_checkin', tool: 'check_in' };
const MINUTE = 60_000;

function storeAt(limits: Partial<StoreLimits> = {}): { store: ActionStore; clock: { now: number } } {
  const clock = { now: 1_000_000 };
  return { store: new ActionStore({ now: () => clock.now, ...limits }), clock };
}

function done(id: string, data: unknown = { queue_number: 1 }): ActionAnswer {
  return { action_id: id, ok: true, status: 201, data };
}

/** The answer a repeat gets; fails the test when the claim is not a repeat. */
function repeatAnswer(claim: Claim): Promise<ActionAnswer> {
  if (claim.kind !== 'repeat') throw new Error(`expected a repeat, got ${claim.kind}`);
  return claim.answer;
}

function settleNew(claim: Claim, answer: ActionAnswer): void {
  if (claim.kind !== 'new') throw new Error(`expected a new id, got ${claim.kind}`);
  claim.settle(answer);
}

describe('ActionStore', () => {
  it('gives a repeat the first answer, marked as replayed; a different request with the id is a conflict', async () => {
    const { store } = storeAt();
    settleNew(store.claim('a1', 'f1', META), done('a1'));
    expect(await repeatAnswer(store.claim('a1', 'f1', META))).toEqual({ ...done('a1'), replayed: true });
    expect(store.claim('a1', 'f2', META).kind).toBe('conflict');
  });

  it('makes a repeat of a running action wait for its answer', async () => {
    const { store } = storeAt();
    const first = store.claim('a1', 'f1', META);
    const repeat = repeatAnswer(store.claim('a1', 'f1', META));
    expect(store.view('a1')).toMatchObject({ state: 'running' });
    let told: ActionAnswer | undefined;
    void repeat.then((a) => (told = a));
    await Promise.resolve();
    expect(told).toBeUndefined();
    settleNew(first, { action_id: 'a1', ok: false, error: 'timeout', message: 'no answer' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(told).toEqual({ action_id: 'a1', ok: false, error: 'timeout', message: 'no answer', replayed: true });
    expect(store.view('a1')).toEqual({ action_id: 'a1', state: 'failed', flow_id: 'clinic_checkin', tool: 'check_in', error: 'timeout', message: 'no answer' });
  });

  it('keeps the data for repeats a short while only; the outcome stays', async () => {
    const { store, clock } = storeAt({ dataMs: 10 * MINUTE });
    settleNew(store.claim('a1', 'f1', META), done('a1', { doctor: 'Dr. Lindqvist' }));
    clock.now += 9 * MINUTE;
    expect(await repeatAnswer(store.claim('a1', 'f1', META))).toMatchObject({ data: { doctor: 'Dr. Lindqvist' } });
    clock.now += 2 * MINUTE;
    expect(await repeatAnswer(store.claim('a1', 'f1', META))).toEqual({ action_id: 'a1', ok: true, status: 201, data: null, data_forgotten: true, replayed: true });
    expect(store.view('a1')).toMatchObject({ state: 'done', status: 201 });
  });

  it('lets go of the oldest data first when the data passes its byte limit', async () => {
    const { store } = storeAt({ maxDataBytes: 100 });
    settleNew(store.claim('a1', 'f1', META), done('a1', { text: 'x'.repeat(60) }));
    settleNew(store.claim('a2', 'f2', META), done('a2', { text: 'y'.repeat(60) }));
    expect(await repeatAnswer(store.claim('a1', 'f1', META))).toMatchObject({ data: null, data_forgotten: true });
    expect(await repeatAnswer(store.claim('a2', 'f2', META))).toMatchObject({ data: { text: 'y'.repeat(60) } });
  });

  it('forgets an id after its time (24 h by default): the id is then new again', () => {
    const { store, clock } = storeAt();
    settleNew(store.claim('a1', 'f1', META), done('a1'));
    clock.now += 23 * 60 * MINUTE;
    expect(store.view('a1')).toBeDefined();
    clock.now += 2 * 60 * MINUTE;
    expect(store.view('a1')).toBeUndefined();
    expect(store.size).toBe(0);
    expect(store.claim('a1', 'f2', META).kind).toBe('new');
  });

  it('keeps at most so many ids, forgetting the oldest finished ones, never one still running', () => {
    const { store } = storeAt({ maxEntries: 3 });
    const running = store.claim('r', 'f', META);
    expect(running.kind).toBe('new');
    for (const id of ['a1', 'a2', 'a3', 'a4']) settleNew(store.claim(id, 'f', META), done(id));
    expect(store.size).toBe(3);
    expect(store.view('r')).toMatchObject({ state: 'running' });
    expect(store.view('a1')).toBeUndefined();
    expect(store.view('a2')).toBeUndefined();
    expect(store.view('a4')).toMatchObject({ state: 'done' });
  });

  it('settles an answer once; a second settle changes nothing', async () => {
    const { store } = storeAt();
    const claim = store.claim('a1', 'f1', META);
    settleNew(claim, done('a1', { n: 1 }));
    if (claim.kind === 'new') claim.settle(done('a1', { n: 2 }));
    expect(await repeatAnswer(store.claim('a1', 'f1', META))).toMatchObject({ data: { n: 1 } });
  });
});
