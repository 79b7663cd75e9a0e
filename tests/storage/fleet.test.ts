// Several kiosks' servers on one database, as a fleet with DATABASE_URL runs: the same action id
// claimed by two at the same moment runs once between them (the other waits and gets its answer),
// the target is reached once when the page's request comes to both servers at once, and the PIN
// lock counts the tries made on either. On PGlite the two share the one database a process may
// open; on PostgreSQL each has its own connections, so the database alone decides.

import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ActionAnswer, Claim, ClaimMeta } from '../../server/action-store.ts';
import type { RunningServer } from '../../server/app.ts';
import { ActionMemory } from '../../server/storage/action-memory.ts';
import type { Database } from '../../server/storage/database.ts';
import { memoryOn } from '../../server/storage/memory.ts';
import { migrate } from '../../server/storage/migrations.ts';
import { postAction, startCountingTarget, startKioskOn, tryPin, type CountingTarget } from '../support/memory-kiosk.ts';
import { tempSiteRoot } from '../support/server-harness.ts';
import { BACK_END, emptyDatabase, testPlace, type TestPlace } from '../support/test-memory.ts';

const META: ClaimMeta = { flowId: 'clinic_checkin', tool: 'check_in', leaseMs: 30_000 };
const PIN = '730164';

let place: TestPlace;
let root: string;
/** the database as each of the two servers has it */
let first: Database;
let second: Database;
const closers: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  place = await testPlace();
  root = tempSiteRoot('kiosk-fleet-');
  first = await place.open();
  await migrate(first);
  second = await place.another(first);
});
beforeEach(() => emptyDatabase(first));
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});
afterAll(async () => {
  await second?.close();
  await first?.close();
  rmSync(root, { recursive: true, force: true });
  await place?.remove();
});

function answerOf(claim: Claim): Promise<ActionAnswer> | undefined {
  return claim.kind === 'repeat' ? claim.answer : undefined;
}

describe(`a fleet on one database (${BACK_END})`, () => {
  it('runs an id claimed by two servers at the same moment once: the other waits for its answer', async () => {
    const [a, b] = [new ActionMemory(first), new ActionMemory(second)];
    const claims = await Promise.all([a.claim('v1:check_in', 'f', META), b.claim('v1:check_in', 'f', META)]);
    expect(claims.map((c) => c.kind).sort()).toEqual(['new', 'repeat']);
    const winner = claims.find((c) => c.kind === 'new');
    const waiting = answerOf(claims.find((c) => c.kind === 'repeat')!)!;
    const answer: ActionAnswer = { action_id: 'v1:check_in', ok: true, status: 201, data: { queue_number: 3 } };
    if (winner?.kind === 'new') await winner.settle(answer);
    expect(await waiting).toEqual({ ...answer, replayed: true });
  });

  it('runs each of many ids once, however the claims of two servers interleave', async () => {
    const [a, b] = [new ActionMemory(first), new ActionMemory(second)];
    const ids = Array.from({ length: 15 }, (_, i) => `v2:action_${i}`);
    const claims = await Promise.all(ids.flatMap((id) => [a.claim(id, 'f', META), b.claim(id, 'f', META)]));
    expect(claims.filter((c) => c.kind === 'new')).toHaveLength(ids.length);
    expect(claims.filter((c) => c.kind === 'repeat')).toHaveLength(ids.length);
  });

  it('reaches the target once when the page sends one action to two servers at once, and both tell the same answer', async () => {
    const target: CountingTarget = await startCountingTarget({ queue_number: 12 }, 300);
    closers.push(() => target.close());
    const kiosks: RunningServer[] = [];
    for (const db of [first, second]) {
      const kiosk = await startKioskOn(memoryOn(db), root, { origins: [target.origin] });
      closers.push(() => kiosk.close());
      kiosks.push(kiosk);
    }
    const replies = await Promise.all(kiosks.map((kiosk) => postAction(kiosk.url, 'v3:check_in')));
    expect(target.reached()).toBe(1);
    expect(replies.map((r) => r.status)).toEqual([200, 200]);
    expect(replies.map((r) => r.body.replayed ?? false).sort()).toEqual([false, true]);
    for (const reply of replies) expect(reply.body).toMatchObject({ ok: true, status: 201, data: { queue_number: 12 } });
  });

  it('locks the PIN after five wrong tries made on any of the servers, all at the same moment', async () => {
    const kiosks: string[] = [];
    for (const db of [first, second]) {
      const kiosk = await startKioskOn(memoryOn(db), root, { pin: PIN });
      closers.push(() => kiosk.close());
      kiosks.push(kiosk.url);
    }
    const tries = await Promise.all(Array.from({ length: 30 }, (_, i) => tryPin(kiosks[i % 2]!, String(100_000 + i))));
    const statuses = tries.map((t) => t.status);
    expect(statuses.filter((s) => s === 403)).toHaveLength(4);
    expect(statuses.filter((s) => s === 429)).toHaveLength(26);
    expect(tries.filter((t) => t.status === 403).map((t) => t.body['tries_left']).sort()).toEqual([1, 2, 3, 4]);
    expect((await tryPin(kiosks[1]!, PIN)).status).toBe(429);
  });
});
