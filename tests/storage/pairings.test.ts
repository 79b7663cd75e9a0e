// Paired devices in the kiosk's memory (issue 28), on PGlite in `npm test` and on PostgreSQL in
// `npm run test:postgres`: the servers of a fleet on one database share them (that a restart
// forgets none is in restart.test.ts). A code made on one server pairs a device at another, whose credential both
// then know; a code sent to two servers at the same moment pairs once; a device revoked on one is
// refused by the other; the lock on wrong codes counts the tries made on either; the operator
// panel's session holds on both. On PGlite the two servers share the one database a process may
// open; on PostgreSQL each has its own connections, so the database alone decides.

import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../server/app.ts';
import { Pairing } from '../../server/pairing.ts';
import type { Database } from '../../server/storage/database.ts';
import { memoryOn } from '../../server/storage/memory.ts';
import { migrate } from '../../server/storage/migrations.ts';
import { startKioskOn } from '../support/memory-kiosk.ts';
import { tempSiteRoot } from '../support/server-harness.ts';
import { BACK_END, emptyDatabase, testPlace, type TestPlace } from '../support/test-memory.ts';

let place: TestPlace;
let root: string;
/** the database as each of the two servers has it */
let first: Database;
let second: Database;
const closers: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  place = await testPlace();
  root = tempSiteRoot('kiosk-pairings-');
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

/**
 * Each server's pairing rules over its own handle on the database: `maxTries` tries (5 unless
 * said), then a minute's lock, on the machine's clock unless `now` holds one.
 */
function pairingOn(db: Database, maxTries = 5, now: () => number = Date.now): Pairing {
  const memory = memoryOn(db);
  return new Pairing(memory.pairings, memory.pairingLock, { maxTries, lockMs: 60_000, now });
}

async function codeFor(pairing: Pairing, name: string): Promise<string> {
  const made = await pairing.makeCode(name);
  if (!made.ok) throw new Error(made.message);
  return made.code;
}

/** A request to `kiosk` as another machine's, relayed by a proxy on this machine that says so, with `cookie`. */
function fromElsewhere(kiosk: string, path: string, cookie = '', init: RequestInit = {}): Promise<Response> {
  return fetch(`${kiosk}${path}`, { ...init, headers: { 'x-forwarded-for': '192.0.2.20', ...(cookie ? { cookie } : {}), ...(init.headers as Record<string, string>) } });
}

describe(`paired devices in the memory (${BACK_END})`, () => {
  it('a code made on one server pairs a device at another, and both know it', async () => {
    const [a, b] = [pairingOn(first), pairingOn(second)];
    const paired = await b.pair(await codeFor(a, 'Lobby iPad'));
    expect(paired).toMatchObject({ ok: true, name: 'Lobby iPad' });
    const token = paired.ok ? paired.token : '';
    expect(await a.device(token)).toMatchObject({ kind: 'paired', name: 'Lobby iPad' });
    expect((await a.devices()).map((d) => d.name)).toEqual(['Lobby iPad']);
  });

  it('a code sent to two servers at the same moment pairs one device', async () => {
    const [a, b] = [pairingOn(first), pairingOn(second)];
    const code = await codeFor(a, 'Entrance');
    const results = await Promise.all([a.pair(code), b.pair(code), a.pair(code), b.pair(code)]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.reason))).toEqual(['code_used', 'code_used', 'code_used']);
    expect((await b.devices()).map((d) => d.name)).toEqual(['Entrance']);
  });

  it('locks after wrong codes tried on either server, and a new code made on the other opens it', async () => {
    // Both servers' clocks held at one moment: on a busy machine a second passed between the lock
    // and the next try, which then read 59 s left of the minute.
    const held = Date.now();
    const [a, b] = [pairingOn(first, 3, () => held), pairingOn(second, 3, () => held)];
    const right = await codeFor(a, 'Desk');
    const tries = await Promise.all(['ZZZZ-ZZZA', 'ZZZZ-ZZZB', 'ZZZZ-ZZZC', 'ZZZZ-ZZZD'].map((guess, i) => (i % 2 ? b : a).pair(guess)));
    expect(tries.map((t) => (t.ok ? 'ok' : t.reason)).sort()).toEqual(['locked', 'locked', 'wrong_code', 'wrong_code']);
    expect(await a.pair(right)).toEqual({ ok: false, reason: 'locked', retryAfterSeconds: 60 });
    await codeFor(b, 'Desk 2');
    expect(await a.pair(right)).toMatchObject({ ok: true, name: 'Desk' });
  });

  it('a device revoked on one server is refused by the other at its next request, and the pairing screen asked for', async () => {
    const kiosks: string[] = [];
    for (const db of [first, second]) {
      const kiosk: RunningServer = await startKioskOn(memoryOn(db), root, { pin: '730164' });
      closers.push(() => kiosk.close());
      kiosks.push(kiosk.url);
    }
    const [a, b] = kiosks as [string, string];
    expect(((await (await fromElsewhere(b, '/api/config')).json()) as { error: { type: string } }).error.type).toBe('not_paired');

    // Paired through the first server's pairing screen route, with a code the second server made.
    const code = await codeFor(pairingOn(second), 'Lobby iPad');
    const answer = await fromElsewhere(a, '/api/pairing', '', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
    expect(answer.status).toBe(200);
    const cookie = answer.headers.get('set-cookie')!.split(';')[0]!;
    expect((await fromElsewhere(b, '/api/config', cookie)).status).toBe(200);
    const status = (await (await fromElsewhere(b, '/api/status', cookie)).json()) as { devices: { name: string }[] };
    expect(status.devices.map((d) => d.name)).toEqual(['Lobby iPad']);

    expect(await pairingOn(first).revoke('Lobby iPad')).toBe('Lobby iPad');
    const refused = await fromElsewhere(b, '/api/config', cookie);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { type: string } }).error.type).toBe('device_revoked');
  });

  it("the operator panel's session opened on one server holds on the other, until it is closed", async () => {
    const [a, b] = [memoryOn(first).pairings, memoryOn(second).pairings];
    const now = Date.now();
    await a.openSession('session-hash', now, now + 600_000);
    expect(await b.useSession('session-hash', now + 1_000, now + 601_000)).toBe(true);
    await b.closeSession('session-hash');
    expect(await a.useSession('session-hash', now + 2_000, now + 602_000)).toBe(false);
  });
});
