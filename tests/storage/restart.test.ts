// What the kiosk's server remembers across a restart (its memory closed and opened again on the
// same folder or database): the PIN lock and its doubling, the wrong tries counted so far, the
// paired devices, the outcome counts and since when they go back, and an action's first answer
// for a repeat.

import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app.ts';
import { OperatorGate } from '../../server/operator.ts';
import { memoryOn, openMemory, type Memory } from '../../server/storage/memory.ts';
import { migrate } from '../../server/storage/migrations.ts';
import {
  memoryStatus,
  operatorState,
  postAction,
  reportOutcome,
  startCountingTarget,
  startKioskOn,
  tryPin,
  type CountingTarget,
} from '../support/memory-kiosk.ts';
import { pairedCookie } from '../support/paired-device.ts';
import { tempSiteRoot } from '../support/server-harness.ts';
import { BACK_END, emptyDatabase, testPlace, type TestPlace } from '../support/test-memory.ts';

const PIN = '582039';

let place: TestPlace;
let root: string;
let memory: Memory | undefined;
let server: RunningServer | undefined;
let target: CountingTarget | undefined;

beforeAll(async () => {
  place = await testPlace();
  root = tempSiteRoot('kiosk-restart-');
});
afterEach(async () => {
  await server?.close();
  await target?.close();
  await memory?.close();
  server = memory = target = undefined;
});
afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  await place?.remove();
});

/**
 * Starts the kiosk's server on the test's database: `fresh`, on the database emptied; else as
 * `npm run serve` starts again (openMemory on the same settings).
 */
async function start(options: { fresh?: boolean; origins?: string[]; now?: () => number } = {}): Promise<string> {
  memory = options.fresh ? await emptied() : await openMemory(place.settings);
  server = await startKioskOn(memory, root, { pin: PIN, origins: options.origins ?? [], ...(options.now ? { operatorNow: options.now } : {}) });
  return server.url;
}

/** The memory on the test's database, emptied (made up to date first: the first test finds it new). */
async function emptied(): Promise<Memory> {
  const db = await place.open();
  await migrate(db);
  await emptyDatabase(db);
  return memoryOn(db);
}

/** Stops the server and closes its memory: a restart is the next `start`. */
async function stop(): Promise<void> {
  await server?.close();
  await memory?.close();
  server = memory = undefined;
}

describe(`across a restart (${BACK_END})`, () => {
  it('keeps the PIN lock: no fresh tries, even the right PIN refused until it runs out', async () => {
    // The servers' clock stands still: a restart on a busy machine can take ten seconds and more.
    const now = () => 7_000_000;
    let kiosk = await start({ fresh: true, now });
    for (let i = 0; i < 4; i++) expect((await tryPin(kiosk, `00000${i}`)).status).toBe(403);
    expect(await tryPin(kiosk, '000009')).toMatchObject({ status: 429, body: { error: 'locked' } });
    await stop();
    kiosk = await start({ now });
    expect((await operatorState(kiosk)).locked_for_seconds).toBe(300);
    expect(await tryPin(kiosk, PIN)).toMatchObject({ status: 429, body: { error: 'locked' } });
  });

  it('keeps the wrong tries counted so far: a restart between them gives none back', async () => {
    let kiosk = await start({ fresh: true });
    expect(await tryPin(kiosk, '111111')).toMatchObject({ status: 403, body: { tries_left: 4 } });
    expect(await tryPin(kiosk, '222222')).toMatchObject({ status: 403, body: { tries_left: 3 } });
    await stop();
    kiosk = await start();
    expect(await tryPin(kiosk, '333333')).toMatchObject({ status: 403, body: { tries_left: 2 } });
  });

  it('keeps the doubling: the first lock after a restart lasts twice the one before', async () => {
    const clock = { ms: 5_000_000 };
    const lockOnce = async (gate: OperatorGate) => {
      for (let i = 0; i < 2; i++) await gate.unlock('0');
      const result = await gate.unlock('0');
      clock.ms += (await gate.lockedForSeconds()) * 1000;
      return result;
    };
    memory = await emptied();
    expect(await lockOnce(new OperatorGate(PIN, memory.operatorLock, { maxTries: 3, lockMs: 60_000, now: () => clock.ms }))).toMatchObject({ retryAfterSeconds: 60 });
    await stop();
    memory = await openMemory(place.settings);
    const again = new OperatorGate(PIN, memory.operatorLock, { maxTries: 3, lockMs: 60_000, now: () => clock.ms });
    expect(await lockOnce(again)).toMatchObject({ retryAfterSeconds: 120 });
    expect(await again.unlock(PIN)).toEqual({ ok: true });
  });

  it('keeps the paired devices, the outcome counts, and says since when they go back', async () => {
    let kiosk = await start({ fresh: true });
    const cookie = await pairedCookie(memory!, 'Lobby iPad');
    expect(await reportOutcome(kiosk, 'clinic_checkin', 'confirmed')).toBe(202);
    expect(await reportOutcome(kiosk, 'clinic_checkin', 'done')).toBe(202);
    // An action to an origin that is not allowed: refused, and counted as failed by the server.
    expect((await postAction(kiosk, 'visit-1:refused')).body).toMatchObject({ ok: false, error: 'refused_host' });
    const before = await memoryStatus(kiosk);
    await stop();
    kiosk = await start();
    const after = await memoryStatus(kiosk);
    expect(after.actions.counts).toEqual({ clinic_checkin: { proposed: 0, confirmed: 1, rejected: 0, edited: 0, expired: 0, replaced: 0, failed: 0, done: 1 } });
    expect(after.actions.performed).toEqual({ clinic_checkin: { done: 0, failed: 1 } });
    expect(after.counts_since).toBe(before.counts_since);
    expect(Date.parse(after.started_at)).toBeGreaterThanOrEqual(Date.parse(before.started_at));
    expect(Date.parse(after.counts_since)).toBeLessThanOrEqual(Date.parse(before.started_at));
    // The device paired before the restart is still paired: listed, and served from elsewhere.
    expect(after.devices.map((d) => d.name)).toEqual(['Lobby iPad']);
    expect((await fetch(`${kiosk}/api/config`, { headers: { 'x-forwarded-for': '192.0.2.20', cookie } })).status).toBe(200);
    expect((await fetch(`${kiosk}/api/config`, { headers: { 'x-forwarded-for': '192.0.2.20' } })).status).toBe(401);
  });

  it('answers an action id sent again after the restart with the first answer, without reaching the target', async () => {
    target = await startCountingTarget();
    let kiosk = await start({ fresh: true, origins: [target.origin] });
    const first = await postAction(kiosk, 'visit-2:check_in');
    expect(first).toMatchObject({ status: 200, body: { ok: true, status: 201, data: { queue_number: 7 } } });
    await stop();
    kiosk = await start({ origins: [target.origin] });
    expect(await postAction(kiosk, 'visit-2:check_in')).toEqual({ status: 200, body: { ...first.body, replayed: true } });
    expect(target.reached()).toBe(1);
    expect((await memoryStatus(kiosk)).actions.remembered).toBe(1);
  });
});
