// The rules of pairing codes (server/pairing-codes.ts, server/pairing.ts) on a real memory with a
// clock moved by hand: what a code looks like and what staff may type for it, one use, 10
// minutes, a lock after wrong tries that doubles like the PIN's and that a new code opens, names
// that stand for one device, revoking, and only hashes kept.

import { describe, expect, it } from 'vitest';
import { CODE_ALPHABET, readCode, readName } from '../../server/pairing-codes.ts';
import { Pairing } from '../../server/pairing.ts';
import { emptyTestMemory, testDatabase } from '../support/test-memory.ts';

/** Pairing on an empty memory with a clock of its own: 3 tries, a 60 s first lock, up to 200 s. */
async function pairing() {
  const clock = { ms: Date.UTC(2026, 10, 28, 9, 0) };
  const memory = await emptyTestMemory();
  return { clock, memory, p: new Pairing(memory.pairings, memory.pairingLock, { maxTries: 3, lockMs: 60_000, maxLockMs: 200_000, now: () => clock.ms }) };
}

async function code(p: Pairing, name = 'Lobby iPad'): Promise<string> {
  const made = await p.makeCode(name);
  if (!made.ok) throw new Error(made.message);
  return made.code;
}

describe('a pairing code', () => {
  it('is two groups of four from an alphabet without look-alikes', async () => {
    const { p } = await pairing();
    for (let i = 0; i < 8; i++) {
      const made = await code(p, `Tablet ${i}`);
      expect(made).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
      expect([...made.replace('-', '')].every((c) => CODE_ALPHABET.includes(c))).toBe(true);
    }
    for (const lookAlike of ['0', 'O', '1', 'I', 'L', '2', '5', '6', '8']) expect(CODE_ALPHABET).not.toContain(lookAlike);
  });

  it('is read however staff type it: lower case, spaces or none, a digit for the letter it looks like', () => {
    expect(readCode('abcd-efgh')).toBe('ABCDEFGH');
    expect(readCode(' AB CD EF GH ')).toBe('ABCDEFGH');
    expect(readCode('4BCD.EFG9')).toBe('4BCDEFG9');
    expect(readCode('8ZS6-7777')).toBe('BZSG7777');
    expect(readCode('2256-8888')).toBe('ZZSGBBBB');
  });

  it.each(['', 'ABCD-EFG', 'ABCD-EFGHJ', 'ABCD-EFG0', 'ABCD-EFGI', 'ABCD_EFGH', 'ÄBCD-EFGH'])('%j cannot be a code', (typed) => {
    expect(readCode(typed)).toBeNull();
  });

  it('pairs once: the device is told its name, and a second use is refused as used', async () => {
    const { p } = await pairing();
    const made = await code(p);
    const first = await p.pair(made.toLowerCase());
    expect(first).toMatchObject({ ok: true, name: 'Lobby iPad' });
    expect(await p.device(first.ok ? first.token : '')).toEqual({ kind: 'paired', name: 'Lobby iPad', renew: false });
    expect(await p.pair(made)).toEqual({ ok: false, reason: 'code_used', triesLeft: 2 });
  });

  it('lasts 10 minutes from when it was made', async () => {
    const { p, clock } = await pairing();
    const early = await code(p, 'A');
    const late = await code(p, 'B');
    clock.ms += 10 * 60_000 - 1;
    expect((await p.pair(early)).ok).toBe(true);
    clock.ms += 1;
    expect(await p.pair(late)).toEqual({ ok: false, reason: 'code_expired', triesLeft: 2 });
  });

  it('keeps only hashes: no code and no credential is in the memory', async () => {
    const { p } = await pairing();
    const made = await code(p);
    const paired = await p.pair(made);
    const db = await testDatabase();
    const everything = JSON.stringify([await db.query('SELECT * FROM pairing_codes'), await db.query('SELECT * FROM paired_devices')]);
    expect(everything).not.toContain(made.replace('-', ''));
    expect(everything).not.toContain(made);
    expect(everything).not.toContain(paired.ok ? paired.token : 'no token');
  });
});

describe('wrong codes', () => {
  it('are counted, lock pairing, and the lock refuses even a right code until it runs out', async () => {
    const { p, clock } = await pairing();
    const right = await code(p);
    expect(await p.pair('ZZZZ-ZZZZ')).toEqual({ ok: false, reason: 'wrong_code', triesLeft: 2 });
    expect(await p.pair('ZZZZ-ZZZY')).toEqual({ ok: false, reason: 'wrong_code', triesLeft: 1 });
    expect(await p.pair('ZZZZ-ZZZX')).toEqual({ ok: false, reason: 'locked', retryAfterSeconds: 60 });
    expect(await p.pair(right)).toEqual({ ok: false, reason: 'locked', retryAfterSeconds: 60 });
    expect(await p.lockedForSeconds()).toBe(60);
    clock.ms += 60_000;
    expect((await p.pair(right)).ok).toBe(true);
  });

  it('lock for twice as long each time, used and expired codes counting as wrong, kept across a restart', async () => {
    const { p, clock, memory } = await pairing();
    const used = await code(p, 'A');
    await p.pair(used);
    const lockOnce = async (q: Pairing) => {
      await q.pair(used);
      await q.pair('ZZZZ-ZZZZ');
      const result = await q.pair('ZZZZ-ZZZZ');
      clock.ms += (await q.lockedForSeconds()) * 1000;
      return result.ok ? 0 : 'retryAfterSeconds' in result ? result.retryAfterSeconds : -1;
    };
    expect(await lockOnce(p)).toBe(60);
    // Another server of the memory (or this one restarted) knows the count.
    const again = new Pairing(memory.pairings, memory.pairingLock, { maxTries: 3, lockMs: 60_000, maxLockMs: 200_000, now: () => clock.ms });
    expect([await lockOnce(again), await lockOnce(again)]).toEqual([120, 200]);
  });

  it('are forgiven when the operator makes a new code: staff at the device get their tries back', async () => {
    const { p } = await pairing();
    await code(p, 'A');
    for (const guess of ['ZZZZ-ZZZZ', 'ZZZZ-ZZZY', 'ZZZZ-ZZZX']) await p.pair(guess);
    expect(await p.lockedForSeconds()).toBe(60);
    const fresh = await code(p, 'B');
    expect(await p.lockedForSeconds()).toBe(0);
    expect(await p.pair(fresh)).toMatchObject({ ok: true, name: 'B' });
  });

  it('do not count what cannot be a code at all', async () => {
    const { p } = await pairing();
    for (let i = 0; i < 5; i++) expect(await p.pair('1234')).toEqual({ ok: false, reason: 'invalid_code' });
    expect(await p.lockedForSeconds()).toBe(0);
  });
});

describe('device names', () => {
  it('stand for one paired device: a code for a name in use is refused, saying how to go on', async () => {
    const { p } = await pairing();
    await p.pair(await code(p, 'Lobby iPad'));
    const again = await p.makeCode('lobby  IPAD');
    expect(again).toMatchObject({ ok: false, reason: 'name_taken' });
    expect(again.ok ? '' : again.message).toContain('npm run pair -- --revoke "lobby IPAD"');
  });

  it('a new code for a name replaces the one not yet used', async () => {
    const { p } = await pairing();
    const first = await code(p, 'Front desk');
    const second = await code(p, 'Front desk');
    expect(await p.openCodes()).toEqual([{ name: 'Front desk', expiresAt: expect.any(Number) }]);
    expect(await p.pair(first)).toMatchObject({ ok: false, reason: 'wrong_code' });
    expect(await p.pair(second)).toMatchObject({ ok: true });
  });

  it.each([
    ['', 'Give the device a name'],
    ['   ', 'Give the device a name'],
    ['x'.repeat(61), 'at most 60 characters'],
    ['Lobby\niPad', null],
    ['Lobby\u0000iPad', 'control characters'],
  ])('%j: %s', (typed, problem) => {
    const read = readName(typed);
    if (problem === null) expect(read).toEqual({ ok: true, name: 'Lobby iPad' });
    else expect(read.ok ? '' : read.message).toContain(problem);
  });
});

describe('paired devices', () => {
  it('are listed by name with when each was paired and last seen (noted at most once a minute)', async () => {
    const { p, clock } = await pairing();
    const paired = await p.pair(await code(p, 'Waiting room'));
    await p.pair(await code(p, 'Entrance'));
    const token = paired.ok ? paired.token : '';
    const pairedAt = clock.ms;
    clock.ms += 30_000;
    expect(await p.device(token)).toMatchObject({ renew: false });
    clock.ms += 30_000;
    expect(await p.device(token)).toMatchObject({ renew: true });
    expect(await p.devices()).toEqual([
      { name: 'Entrance', pairedAt, lastSeen: pairedAt },
      { name: 'Waiting room', pairedAt, lastSeen: pairedAt + 60_000 },
    ]);
  });

  it('revoked: the credential is known as revoked, the name is free again, and an unknown name changes nothing', async () => {
    const { p } = await pairing();
    const paired = await p.pair(await code(p, 'Lobby iPad'));
    const token = paired.ok ? paired.token : '';
    expect(await p.revoke('nobody')).toBeNull();
    expect(await p.revoke(' LOBBY ipad ')).toBe('Lobby iPad');
    expect(await p.device(token)).toEqual({ kind: 'revoked' });
    expect(await p.devices()).toEqual([]);
    expect(await p.makeCode('Lobby iPad')).toMatchObject({ ok: true });
  });

  it('a browser paired again gives up its old credential', async () => {
    const { p } = await pairing();
    const old = await p.pair(await code(p, 'Old name'));
    const oldToken = old.ok ? old.token : '';
    const renamed = await p.pair(await code(p, 'New name'), oldToken);
    expect(await p.device(oldToken)).toEqual({ kind: 'revoked' });
    expect(await p.device(renamed.ok ? renamed.token : '')).toMatchObject({ kind: 'paired', name: 'New name' });
    expect((await p.devices()).map((d) => d.name)).toEqual(['New name']);
  });

  it.each([undefined, '', 'not-a-token', 'x'.repeat(43)])('%j is nobody', async (token) => {
    const { p } = await pairing();
    expect(await p.device(token)).toEqual({ kind: 'unknown' });
  });
});
