// The operator's PIN on the kiosk's server: OPERATOR_PIN's format, the yes-or-no check, the lock
// after repeated wrong tries (longer each time, refusing even the right PIN while it lasts), the
// routes as the page calls them, and the PIN in no answer and no log line.

import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../server/config.ts';
import { OperatorGate } from '../../server/operator.ts';
import { useServerHarness } from '../support/server-harness.ts';
import { emptyTestMemory } from '../support/test-memory.ts';

const PIN = '947261';

describe('OPERATOR_PIN', () => {
  it('is absent when unset or blank: no operator panel', () => {
    expect(readConfig({}).operatorPin).toBeUndefined();
    expect(readConfig({ OPERATOR_PIN: '  ' }).operatorPin).toBeUndefined();
  });

  it('takes 4 to 12 digits, trimmed', () => {
    expect(readConfig({ OPERATOR_PIN: ' 1234 ' }).operatorPin).toBe('1234');
    expect(readConfig({ OPERATOR_PIN: '123456789012' }).operatorPin).toBe('123456789012');
  });

  it.each(['123', '1234567890123', '12a4', '12 34', '-1234'])('refuses %j, saying what it must be', (pin) => {
    expect(() => readConfig({ OPERATOR_PIN: pin })).toThrow(ConfigError);
    expect(() => readConfig({ OPERATOR_PIN: pin })).toThrow('OPERATOR_PIN must be 4 to 12 digits (0-9)');
  });
});

describe('OperatorGate', () => {
  /** A gate on an empty memory (the lock kept there), with a clock moved by hand. */
  async function gate(options: { maxTries?: number; lockMs?: number; maxLockMs?: number } = {}) {
    const clock = { ms: 1_000_000 };
    const { operatorLock } = await emptyTestMemory();
    return { clock, gate: new OperatorGate(PIN, operatorLock, { maxTries: 3, lockMs: 60_000, ...options, now: () => clock.ms }) };
  }

  it('says yes to the PIN and no to anything else, counting down the tries', async () => {
    const { gate: g } = await gate();
    expect(await g.unlock('000000')).toEqual({ ok: false, reason: 'wrong_pin', triesLeft: 2 });
    expect(await g.unlock(`${PIN}0`)).toEqual({ ok: false, reason: 'wrong_pin', triesLeft: 1 });
    expect(await g.unlock(PIN)).toEqual({ ok: true });
    // The right PIN starts the count again.
    expect(await g.unlock('')).toEqual({ ok: false, reason: 'wrong_pin', triesLeft: 2 });
  });

  it('locks after the last wrong try, refuses even the right PIN while locked, and opens when the lock runs out', async () => {
    const { gate: g, clock } = await gate();
    await g.unlock('1');
    await g.unlock('2');
    expect(await g.unlock('3')).toEqual({ ok: false, reason: 'locked', retryAfterSeconds: 60 });
    expect(await g.lockedForSeconds()).toBe(60);
    clock.ms += 59_500;
    expect(await g.unlock(PIN)).toEqual({ ok: false, reason: 'locked', retryAfterSeconds: 1 });
    clock.ms += 500;
    expect(await g.lockedForSeconds()).toBe(0);
    expect(await g.unlock(PIN)).toEqual({ ok: true });
  });

  it('locks for twice as long each time, up to the longest lock, until the right PIN is given', async () => {
    const { gate: g, clock } = await gate({ maxLockMs: 200_000 });
    const lockOnce = async () => {
      await g.unlock('1');
      await g.unlock('2');
      const result = await g.unlock('3');
      clock.ms += (await g.lockedForSeconds()) * 1000;
      return result;
    };
    const locks = [await lockOnce(), await lockOnce(), await lockOnce(), await lockOnce()];
    expect(locks.map((r) => (r.ok ? 0 : 'retryAfterSeconds' in r ? r.retryAfterSeconds : -1))).toEqual([60, 120, 200, 200]);
    expect(await g.unlock(PIN)).toEqual({ ok: true });
    expect(await lockOnce()).toEqual({ ok: false, reason: 'locked', retryAfterSeconds: 60 });
  });

  it('has nothing to unlock without a PIN', async () => {
    const g = new OperatorGate(undefined, (await emptyTestMemory()).operatorLock);
    expect(g.pinSet).toBe(false);
    expect(await g.unlock('')).toEqual({ ok: false, reason: 'no_pin' });
  });
});

describe('/api/operator', () => {
  const { logs, seen, startKiosk } = useServerHarness({ rootPrefix: 'kiosk-operator-', secrets: [PIN] });

  async function call(base: string, path: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
    const response = await fetch(base + path, init);
    const text = await response.text();
    seen.push(text);
    return { status: response.status, headers: response.headers, body: JSON.parse(text) as Record<string, unknown> };
  }
  const unlock = (base: string, pin: unknown) =>
    call(base, '/api/operator/unlock', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pin }) });

  it('tells the page whether a PIN is set, and nothing more', async () => {
    expect((await call(await startKiosk({ operatorPin: PIN }), '/api/operator')).body).toEqual({ pin_set: true, locked_for_seconds: 0 });
    expect((await call(await startKiosk({}), '/api/operator')).body).toEqual({ pin_set: false, locked_for_seconds: 0 });
  });

  it('answers yes to the PIN and no, with the tries left, to a wrong one', async () => {
    const base = await startKiosk({ operatorPin: PIN });
    expect(await unlock(base, '111111')).toMatchObject({ status: 403, body: { ok: false, error: 'wrong_pin', tries_left: 4 } });
    expect(await unlock(base, PIN)).toMatchObject({ status: 200, body: { ok: true } });
    expect(logs).toEqual(['[operator] wrong PIN (4 tries left before a lock)', '[operator] panel unlocked']);
  });

  it('locks after five wrong PINs, with Retry-After, and says so on GET', async () => {
    // The server's clock held: a busy machine may take a second between the lock and the GET.
    const now = Date.now();
    const base = await startKiosk({ operatorPin: PIN }, { operator: { now: () => now } });
    for (let i = 0; i < 4; i++) expect((await unlock(base, `00000${i}`)).status).toBe(403);
    const locked = await unlock(base, '000009');
    expect(locked).toMatchObject({ status: 429, body: { ok: false, error: 'locked', retry_after_seconds: 300 } });
    expect(locked.headers.get('retry-after')).toBe('300');
    expect((await unlock(base, PIN)).status).toBe(429);
    expect((await call(base, '/api/operator')).body).toMatchObject({ pin_set: true, locked_for_seconds: 300 });
  });

  it('takes the lock settings the server is given', async () => {
    const base = await startKiosk({ operatorPin: PIN }, { operator: { maxTries: 1, lockMs: 2000 } });
    expect(await unlock(base, '0000')).toMatchObject({ status: 429, body: { retry_after_seconds: 2 } });
  });

  it('refuses what is not a PIN request, without counting it as a try', async () => {
    const base = await startKiosk({ operatorPin: PIN });
    expect((await call(base, '/api/operator/unlock')).status).toBe(405);
    expect((await call(base, '/api/operator/unlock', { method: 'POST', body: JSON.stringify({ pin: PIN }) })).body).toMatchObject({ error: 'not_json' });
    expect((await unlock(base, 1234)).body).toMatchObject({ error: 'invalid_request' });
    expect((await call(base, '/api/operator/unlock', { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(2000) })).status).toBe(413);
    expect((await call(base, '/api/operator/other')).status).toBe(404);
    expect(await unlock(base, '0000')).toMatchObject({ body: { tries_left: 4 } });
  });

  it('has no panel to unlock without a PIN', async () => {
    expect(await unlock(await startKiosk({}), '1234')).toMatchObject({ status: 404, body: { ok: false, error: 'no_pin' } });
  });
});
