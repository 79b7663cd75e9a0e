// The action memory on its own, in a real database (PGlite in a fresh folder, or PostgreSQL with
// TEST_DATABASE_URL), on a hand-moved clock: repeats and reused ids, how long ids and data are
// kept, the bounds on count and bytes, a running action never forgotten, an action whose server
// stopped settled as interrupted, and the data really gone from the table once let go.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { INTERRUPTED_MESSAGE, type ActionAnswer, type Claim, type ClaimMeta, type StoreLimits } from '../../server/action-store.ts';
import { ActionMemory } from '../../server/storage/action-memory.ts';
import type { Database } from '../../server/storage/database.ts';
import { migrate } from '../../server/storage/migrations.ts';
import { BACK_END, emptyDatabase, testPlace, type TestPlace } from '../support/test-memory.ts';

const META: ClaimMeta = { flowId: 'clinic_checkin', tool: 'check_in', leaseMs: 25_000 };
const MINUTE = 60_000;

let place: TestPlace;
let db: Database;

beforeAll(async () => {
  place = await testPlace();
  db = await place.open();
  await migrate(db);
});
afterAll(async () => {
  await db?.close();
  await place?.remove();
});
beforeEach(() => emptyDatabase(db));

function memoryAt(limits: Partial<StoreLimits> = {}): { store: ActionMemory; clock: { now: number } } {
  const clock = { now: 1_000_000 };
  return { store: new ActionMemory(db, { now: () => clock.now, ...limits }), clock };
}

function done(id: string, data: unknown = { queue_number: 1 }): ActionAnswer {
  return { action_id: id, ok: true, status: 201, data };
}

/** The answer a repeat gets; fails the test when the claim is not a repeat. */
function repeatAnswer(claim: Claim): Promise<ActionAnswer> {
  if (claim.kind !== 'repeat') throw new Error(`expected a repeat, got ${claim.kind}`);
  return claim.answer;
}

function settleNew(claim: Claim, answer: ActionAnswer): Promise<void> {
  if (claim.kind !== 'new') throw new Error(`expected a new id, got ${claim.kind}`);
  return claim.settle(answer);
}

describe(`the action memory (${BACK_END})`, () => {
  it('gives a repeat the first answer, marked as replayed; a different request with the id is a conflict', async () => {
    const { store } = memoryAt();
    await settleNew(await store.claim('a1', 'f1', META), done('a1'));
    expect(await repeatAnswer(await store.claim('a1', 'f1', META))).toEqual({ ...done('a1'), replayed: true });
    expect((await store.claim('a1', 'f2', META)).kind).toBe('conflict');
  });

  it('makes a repeat of a running action wait for its answer', async () => {
    const { store } = memoryAt();
    const first = await store.claim('a1', 'f1', META);
    const repeat = repeatAnswer(await store.claim('a1', 'f1', META));
    expect(await store.view('a1')).toMatchObject({ state: 'running' });
    let told: ActionAnswer | undefined;
    void repeat.then((a) => (told = a));
    // The repeat has looked at the row at least once and found it running.
    await store.view('a1');
    expect(told).toBeUndefined();
    await settleNew(first, { action_id: 'a1', ok: false, error: 'timeout', message: 'no answer' });
    expect(await repeat).toEqual({ action_id: 'a1', ok: false, error: 'timeout', message: 'no answer', replayed: true });
    expect(await store.view('a1')).toEqual({ action_id: 'a1', state: 'failed', flow_id: 'clinic_checkin', tool: 'check_in', error: 'timeout', message: 'no answer' });
  });

  it('keeps the data for repeats a short while only; the outcome stays', async () => {
    const { store, clock } = memoryAt({ dataMs: 10 * MINUTE });
    await settleNew(await store.claim('a1', 'f1', META), done('a1', { doctor: 'Dr. Lindqvist' }));
    clock.now += 9 * MINUTE;
    expect(await repeatAnswer(await store.claim('a1', 'f1', META))).toMatchObject({ data: { doctor: 'Dr. Lindqvist' } });
    clock.now += 2 * MINUTE;
    expect(await repeatAnswer(await store.claim('a1', 'f1', META))).toEqual({ action_id: 'a1', ok: true, status: 201, data: null, data_forgotten: true, replayed: true });
    expect(await store.view('a1')).toMatchObject({ state: 'done', status: 201 });
  });

  it('deletes the data from the table when it lets it go, not only from the answers', async () => {
    const { store, clock } = memoryAt({ dataMs: 10 * MINUTE });
    await settleNew(await store.claim('a1', 'f1', META), done('a1', { name: 'Maria Garcia', dob: '1984-03-05' }));
    const stored = () => db.query<{ row: string }>('SELECT action_ids::text AS row FROM action_ids');
    expect((await stored())[0]?.row).toContain('Maria Garcia');
    clock.now += 11 * MINUTE;
    await store.view('a1');
    const [row] = await stored();
    expect(row?.row).not.toContain('Maria');
    expect(row?.row).not.toContain('1984');
  });

  it('lets go of the oldest data first when the data passes its byte limit', async () => {
    const { store } = memoryAt({ maxDataBytes: 100 });
    await settleNew(await store.claim('a1', 'f1', META), done('a1', { text: 'x'.repeat(60) }));
    await settleNew(await store.claim('a2', 'f2', META), done('a2', { text: 'y'.repeat(60) }));
    expect(await repeatAnswer(await store.claim('a1', 'f1', META))).toMatchObject({ data: null, data_forgotten: true });
    expect(await repeatAnswer(await store.claim('a2', 'f2', META))).toMatchObject({ data: { text: 'y'.repeat(60) } });
  });

  it('gives a repeat the data exactly as the target sent it: key order, strings, numbers, nesting', async () => {
    const { store } = memoryAt();
    const data = { z: 1, a: [true, null, 'ü 😀', 1.5e-7], nested: { b: { c: 'd' } }, '': 0 };
    await settleNew(await store.claim('a1', 'f1', META), done('a1', data));
    const answer = await repeatAnswer(await store.claim('a1', 'f1', META));
    expect(JSON.stringify(answer.ok && answer.data)).toBe(JSON.stringify(data));
  });

  it('forgets an id after its time (24 h by default): the id is then new again', async () => {
    const { store, clock } = memoryAt();
    await settleNew(await store.claim('a1', 'f1', META), done('a1'));
    clock.now += 23 * 60 * MINUTE;
    expect(await store.view('a1')).toBeDefined();
    clock.now += 2 * 60 * MINUTE;
    expect(await store.view('a1')).toBeUndefined();
    expect(await store.size()).toBe(0);
    expect((await store.claim('a1', 'f2', META)).kind).toBe('new');
  });

  it('keeps at most so many ids, forgetting the oldest finished ones, never one still running', async () => {
    const { store } = memoryAt({ maxEntries: 3 });
    const running = await store.claim('r', 'f', META);
    expect(running.kind).toBe('new');
    for (const id of ['a1', 'a2', 'a3', 'a4']) await settleNew(await store.claim(id, 'f', META), done(id));
    expect(await store.size()).toBe(3);
    expect(await store.view('r')).toMatchObject({ state: 'running' });
    expect(await store.view('a1')).toBeUndefined();
    expect(await store.view('a2')).toBeUndefined();
    expect(await store.view('a4')).toMatchObject({ state: 'done' });
  });

  it('settles an answer once; a second settle changes nothing', async () => {
    const { store } = memoryAt();
    const claim = await store.claim('a1', 'f1', META);
    await settleNew(claim, done('a1', { n: 1 }));
    if (claim.kind === 'new') await claim.settle(done('a1', { n: 2 }));
    expect(await repeatAnswer(await store.claim('a1', 'f1', META))).toMatchObject({ data: { n: 1 } });
  });

  it('settles an action whose lease ran out (its server stopped) as interrupted, and never runs it again', async () => {
    const { store, clock } = memoryAt();
    // The server that claimed it dies before settling: nothing will ever settle this claim.
    expect((await store.claim('a1', 'f1', META)).kind).toBe('new');
    clock.now += META.leaseMs - 1;
    expect(await store.view('a1')).toMatchObject({ state: 'running' });
    clock.now += 1;
    const interrupted = { action_id: 'a1', ok: false, error: 'interrupted', message: INTERRUPTED_MESSAGE };
    expect(await repeatAnswer(await store.claim('a1', 'f1', META))).toEqual({ ...interrupted, replayed: true });
    expect(await store.view('a1')).toEqual({ action_id: 'a1', state: 'failed', flow_id: 'clinic_checkin', tool: 'check_in', error: 'interrupted', message: INTERRUPTED_MESSAGE });
  });

  it('tells a repeat already waiting when the lease of the action it waits for runs out', async () => {
    const { store, clock } = memoryAt();
    expect((await store.claim('a1', 'f1', META)).kind).toBe('new');
    const repeat = repeatAnswer(await store.claim('a1', 'f1', META));
    clock.now += META.leaseMs;
    expect(await repeat).toMatchObject({ ok: false, error: 'interrupted', replayed: true });
  });

  it('keeps an answer whose data cannot be written down (nested too deep), without the data', async () => {
    const { store } = memoryAt();
    let deep: unknown = [];
    for (let i = 0; i < 20_000; i++) deep = [deep];
    await settleNew(await store.claim('a1', 'f1', META), done('a1', deep));
    expect(await repeatAnswer(await store.claim('a1', 'f1', META))).toEqual({ action_id: 'a1', ok: true, status: 201, data: null, data_forgotten: true, replayed: true });
  });
});
