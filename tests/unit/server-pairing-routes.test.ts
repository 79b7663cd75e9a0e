// Pairing as the kiosk's server answers it: POST /api/pairing and the cookie it sets (HttpOnly,
// SameSite=Strict, 400 days; __Host- and Secure over HTTPS), sent again as the device is used,
// the devices in /api/status; the operator panel's device routes behind the PIN's session; the
// door `npm run pair` uses on the server's own machine; and which requests are the server's own
// machine's.

import type { IncomingMessage } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../server/app.ts';
import { DOOR_HEADER, isLocalRequest } from '../../server/device-guard.ts';
import { DOOR_FILE, readDoor } from '../../server/local-door.ts';
import { Pairing } from '../../server/pairing.ts';
import { errorCode, send } from '../support/hostile-requests.ts';
import { useServerHarness } from '../support/server-harness.ts';

const PIN = '5820';
const harness = useServerHarness({ rootPrefix: 'kiosk-pairing-', secrets: [] });

/** A kiosk reached as kiosk.test (another machine's view), with a clock the test moves. */
async function kiosk() {
  const clock = { ms: Date.UTC(2026, 10, 28, 9, 0) };
  const url = await harness.startKiosk({ allowedHosts: ['kiosk.test'], operatorPin: PIN }, { pairing: { now: () => clock.ms }, operator: { now: () => clock.ms } });
  const memory = await harness.memory();
  const pairing = new Pairing(memory.pairings, memory.pairingLock, { now: () => clock.ms });
  const host = `kiosk.test:${new URL(url).port}`;
  return { url, clock, pairing, host };
}

const json = { 'content-type': 'application/json' };

/** The value of the cookie named `name` among `set-cookie` headers, with its attributes. */
function cookieOf(headers: string[] | undefined, name: string): string | undefined {
  return headers?.find((h) => h.startsWith(`${name}=`));
}

describe('POST /api/pairing', () => {
  it('gives the device its credential in a cookie its pages cannot read, good for 400 days', async () => {
    const { url, pairing, host } = await kiosk();
    const made = await pairing.makeCode('Lobby iPad');
    const answer = await send(url, '/api/pairing', { method: 'POST', headers: { ...json, host, origin: `http://${host}` }, body: JSON.stringify({ code: made.ok ? made.code : '' }) });
    expect([answer.status, JSON.parse(answer.body)]).toEqual([200, { ok: true, device: 'Lobby iPad' }]);
    const cookie = cookieOf(answer.headers['set-cookie'], 'vk-device')!;
    expect(cookie).toMatch(/^vk-device=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=34560000; HttpOnly; SameSite=Strict$/);
    const token = cookie.split(';')[0]!;
    expect((await send(url, '/api/config', { headers: { host, cookie: token } })).status).toBe(200);
    expect(JSON.parse((await send(url, '/api/pairing', { headers: { host, cookie: token } })).body)).toEqual({ paired: true, device: 'Lobby iPad', local: false, locked_for_seconds: 0 });
  });

  it('over HTTPS (a TLS proxy says so), names it __Host- and makes it Secure; either name is read', async () => {
    const { url, pairing, host } = await kiosk();
    const made = await pairing.makeCode('Entrance');
    const answer = await send(url, '/api/pairing', { method: 'POST', headers: { ...json, host: 'kiosk.test', origin: 'https://kiosk.test', 'x-forwarded-proto': 'https' }, body: JSON.stringify({ code: made.ok ? made.code : '' }) });
    const cookie = cookieOf(answer.headers['set-cookie'], '__Host-vk-device')!;
    expect(cookie).toMatch(/^__Host-vk-device=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=34560000; HttpOnly; Secure; SameSite=Strict$/);
    expect((await send(url, '/api/config', { headers: { host, cookie: cookie.split(';')[0]! } })).status).toBe(200);
  });

  it('says what was wrong with a code, counting the tries, then that pairing is locked', async () => {
    const { url, pairing, host } = await kiosk();
    const made = await pairing.makeCode('A');
    const code = made.ok ? made.code : '';
    const post = (body: string) => send(url, '/api/pairing', { method: 'POST', headers: { ...json, host }, body });
    await post(JSON.stringify({ code }));
    const answers = [];
    for (const body of ['{"code":"1234"}', JSON.stringify({ code }), '{"code":"ZZZZ-ZZZZ"}', '{"code":"ZZZZ-ZZZZ"}', '{"code":"ZZZZ-ZZZZ"}', '{"code":"ZZZZ-ZZZZ"}', '{"code":"ZZZZ-ZZZZ"}']) {
      const answer = await post(body);
      answers.push([answer.status, errorCode(answer), (JSON.parse(answer.body) as { tries_left?: number }).tries_left ?? null]);
    }
    expect(answers).toEqual([
      [400, 'invalid_code', null],
      [403, 'code_used', 4],
      [403, 'wrong_code', 3],
      [403, 'wrong_code', 2],
      [403, 'wrong_code', 1],
      [429, 'locked', null],
      [429, 'locked', null],
    ]);
    expect((await post('{"code":"ZZZZ-ZZZZ"}')).headers['retry-after']).toBe('300');
    for (const [body, type, code2] of [['{"code": 7}', json, 'invalid_request'], ['not json', json, 'invalid_request'], ['{"code":"x"}', { 'content-type': 'text/plain' }, 'not_json']] as const) {
      expect(errorCode(await send(url, '/api/pairing', { method: 'POST', headers: { ...type, host }, body }))).toBe(code2);
    }
    expect((await send(url, '/api/pairing', { method: 'DELETE', headers: { host } })).status).toBe(405);
  });

  it('sends the credential again, and notes the device seen, once a minute at most', async () => {
    const { url, pairing, host, clock } = await kiosk();
    const made = await pairing.makeCode('Waiting room');
    const paired = await pairing.pair(made.ok ? made.code : '');
    const cookie = `vk-device=${paired.ok ? paired.token : ''}`;
    const renewed = async () => cookieOf((await send(url, '/api/config', { headers: { host, cookie } })).headers['set-cookie'], 'vk-device');
    expect(await renewed()).toBeUndefined();
    clock.ms += 60_000;
    expect(await renewed()).toBe(`${cookie}; Path=/; Max-Age=34560000; HttpOnly; SameSite=Strict`);
    expect(await renewed()).toBeUndefined();
    const status = JSON.parse((await send(url, '/api/status', { headers: { host, cookie } })).body) as { devices: unknown };
    expect(status.devices).toEqual([{ name: 'Waiting room', paired_at: '2026-11-28T09:00:00.000Z', last_seen: '2026-11-28T09:01:00.000Z' }]);
    expect(JSON.stringify(status)).not.toContain(paired.ok ? paired.token : '-');
  });
});

describe("the operator panel's paired devices", () => {
  it('are closed without the PIN, and open for ten minutes after it, each use moving that on; closing the panel ends it', async () => {
    const { url, host, clock } = await kiosk();
    const headers = { host: '127.0.0.1' };
    expect(errorCode(await send(url, '/api/operator/devices', { headers }))).toBe('operator_locked');
    expect(errorCode(await send(url, '/api/operator/devices', { method: 'POST', headers: { ...headers, ...json }, body: '{"name":"X"}' }))).toBe('operator_locked');
    const unlocked = await send(url, '/api/operator/unlock', { method: 'POST', headers: { ...headers, ...json }, body: JSON.stringify({ pin: PIN }) });
    const session = cookieOf(unlocked.headers['set-cookie'], 'vk-operator')!;
    expect(session).toMatch(/^vk-operator=[A-Za-z0-9_-]{43}; Path=\/api\/operator; Max-Age=600; HttpOnly; SameSite=Strict$/);
    const cookie = session.split(';')[0]!;

    const made = await send(url, '/api/operator/devices', { method: 'POST', headers: { ...headers, ...json, cookie }, body: '{"name":"  Front   desk "}' });
    expect(made.status).toBe(201);
    const { code, name, expires_at } = JSON.parse(made.body) as { code: string; name: string; expires_at: string };
    expect([name, expires_at]).toEqual(['Front desk', '2026-11-28T09:10:00.000Z']);
    expect((await send(url, '/api/pairing', { method: 'POST', headers: { ...json, host }, body: JSON.stringify({ code }) })).status).toBe(200);
    expect(errorCode(await send(url, '/api/operator/devices', { method: 'POST', headers: { ...headers, ...json, cookie }, body: '{"name":"front desk"}' }))).toBe('name_taken');
    expect(errorCode(await send(url, '/api/operator/devices', { method: 'POST', headers: { ...headers, ...json, cookie }, body: '{"name":""}' }))).toBe('bad_name');

    clock.ms += 9 * 60_000;
    const list = await send(url, '/api/operator/devices', { headers: { ...headers, cookie } });
    expect(JSON.parse(list.body)).toEqual({ devices: [{ name: 'Front desk', paired_at: '2026-11-28T09:00:00.000Z', last_seen: '2026-11-28T09:00:00.000Z' }], codes: [] });
    clock.ms += 9 * 60_000;
    expect(errorCode(await send(url, '/api/operator/devices/revoke', { method: 'POST', headers: { ...headers, ...json, cookie }, body: '{"name":"Back door"}' }))).toBe('unknown_device');
    expect(JSON.parse((await send(url, '/api/operator/devices/revoke', { method: 'POST', headers: { ...headers, ...json, cookie }, body: '{"name":"FRONT DESK"}' })).body)).toEqual({ ok: true, name: 'Front desk' });

    const locked = await send(url, '/api/operator/lock', { method: 'POST', headers: { ...headers, cookie } });
    expect(cookieOf(locked.headers['set-cookie'], 'vk-operator')).toBe('vk-operator=; Path=/api/operator; Max-Age=0; HttpOnly; SameSite=Strict');
    expect(errorCode(await send(url, '/api/operator/devices', { headers: { ...headers, cookie } }))).toBe('operator_locked');
  });

  it('a session left alone for ten minutes is over', async () => {
    const { url, clock } = await kiosk();
    const unlocked = await send(url, '/api/operator/unlock', { method: 'POST', headers: json, body: JSON.stringify({ pin: PIN }) });
    const cookie = cookieOf(unlocked.headers['set-cookie'], 'vk-operator')!.split(';')[0]!;
    clock.ms += 10 * 60_000;
    expect(errorCode(await send(url, '/api/operator/devices', { headers: { cookie } }))).toBe('operator_locked');
  });
});

describe("the door of npm run pair", () => {
  it('is a note only the server’s user may read, with a token taken from this machine only, gone when the server stops', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiosk-door-'));
    harness.onCleanup(() => rmSync(dir, { recursive: true, force: true }));
    const server = await startServer({ root: dir, config: { llm: null, stt: null, tts: null, allowedHosts: ['kiosk.test'] }, host: '127.0.0.1', port: 0, quiet: true, memory: await harness.memory(), doorDir: dir });
    const note = readDoor(dir)!;
    expect(note).toEqual({ pid: process.pid, url: server.url, token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(statSync(join(dir, DOOR_FILE)).mode & 0o777).toBe(0o600);
    const ask = (headers: Record<string, string>) => send(server.url, '/api/operator/devices', { method: 'POST', headers: { ...json, ...headers }, body: '{"name":"Lobby iPad"}' });
    expect((await ask({ [DOOR_HEADER]: note.token })).status).toBe(201);
    expect(errorCode(await ask({ [DOOR_HEADER]: `${note.token}x` }))).toBe('operator_locked');
    // Through a proxy that names this machine's kiosk.test, the door is another machine's: the device guard refuses first.
    expect(errorCode(await ask({ [DOOR_HEADER]: note.token, host: 'kiosk.test', 'x-forwarded-for': '192.0.2.1' }))).toBe('not_paired');
    await server.close();
    expect(() => readFileSync(join(dir, DOOR_FILE))).toThrow(/ENOENT/);
  });
});

describe('the server’s own machine', () => {
  const request = (remoteAddress: string, headers: Record<string, string>) => ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

  it.each([
    ['127.0.0.1', '127.0.0.1:4173', {}, true],
    ['127.0.0.1', 'localhost:4173', {}, true],
    ['::1', '[::1]:4173', {}, true],
    ['::ffff:127.0.0.1', 'localhost', {}, true],
    ['127.0.0.1', 'LOCALHOST:4173', {}, true],
    ['127.0.0.1', 'kiosk.test:4173', {}, false],
    ['127.0.0.1', '127.0.0.2:4173', {}, false],
    ['127.0.0.1', '127.0.0.1:4173', { 'x-forwarded-for': '192.0.2.7' }, false],
    ['127.0.0.1', '127.0.0.1:4173', { 'x-real-ip': '192.0.2.7' }, false],
    ['127.0.0.1', '127.0.0.1:4173', { forwarded: 'for=192.0.2.7' }, false],
    ['127.0.0.1', '127.0.0.1:4173', { 'x-forwarded-host': 'kiosk.test' }, false],
    ['192.168.1.30', '127.0.0.1:4173', {}, false],
    ['192.168.1.30', 'localhost:4173', {}, false],
    ['::ffff:192.168.1.30', 'localhost', {}, false],
    ['10.0.0.5', '10.0.0.5:4173', {}, false],
  ])('a connection from %s naming %s (%o): %s', (address, host, extra, local) => {
    expect(isLocalRequest(request(address, { host, ...extra }))).toBe(local);
  });
});
