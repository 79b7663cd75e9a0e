// The page's side of pairing (src/ui/pairing-access.ts) against the kiosk's real server, reached
// as another machine (through a proxy that says so): the watch on the page's fetch hears every
// refusal of this device, whichever route it came from, and leaves the answer whole for whoever
// asked; the code typed on the pairing screen comes back as what the server made of it.

import { describe, expect, it } from 'vitest';
import { Pairing } from '../../server/pairing.ts';
import { pairDevice, watchPairing, type PairingNeed } from '../../src/ui/pairing-access.ts';
import { useServerHarness } from '../support/server-harness.ts';

const harness = useServerHarness({ rootPrefix: 'kiosk-pairing-page-', secrets: [] });

/** The page's fetch as another machine's: relative addresses on the kiosk, through a proxy, with the cookie it was given. */
async function page() {
  const url = await harness.startKiosk({});
  let cookie = '';
  const fetcher: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('x-forwarded-for', '192.0.2.7');
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(new URL(String(input), url), { ...init, headers });
    cookie = response.headers.get('set-cookie')?.split(';')[0] ?? cookie;
    return response;
  };
  const memory = await harness.memory();
  return { url, fetcher, pairing: new Pairing(memory.pairings, memory.pairingLock) };
}

describe('the watch on the page’s fetch', () => {
  it('hears not_paired and device_revoked from any /api/ route, and the caller still reads the answer', async () => {
    const { url, fetcher, pairing } = await page();
    const heard: PairingNeed[] = [];
    const watched = watchPairing(fetcher, new URL(url).origin, (need) => heard.push(need));
    const refused = await watched('/api/config');
    expect(await refused.json()).toMatchObject({ error: { type: 'not_paired' } });
    await watched('/api/actions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    await expect.poll(() => heard).toEqual(['not_paired', 'not_paired']);

    const made = await pairing.makeCode('Lobby iPad');
    expect(await pairDevice(made.ok ? made.code : '', watched)).toEqual({ ok: true, device: 'Lobby iPad' });
    expect((await watched('/api/config')).status).toBe(200);
    await pairing.revoke('Lobby iPad');
    await watched('/api/status');
    await expect.poll(() => heard).toEqual(['not_paired', 'not_paired', 'device_revoked']);
  });

  it('hears nothing of other answers: a 404, a page’s file, another site’s 401', async () => {
    const { url, fetcher } = await page();
    const heard: PairingNeed[] = [];
    const elsewhere = 'https://elsewhere.example';
    const watched = watchPairing(async (input, init) => (String(input).startsWith(elsewhere) ? new Response('{"error":{"type":"not_paired"}}', { status: 401 }) : fetcher(input, init)), new URL(url).origin, (need) => heard.push(need));
    expect((await watched('/')).status).toBe(200);
    expect((await watched(`${elsewhere}/api/config`)).status).toBe(401);
    expect((await watched('/api/pairing')).status).toBe(200);
    expect(heard).toEqual([]);
  });
});

describe('the code typed on the pairing screen', () => {
  it('is answered as the server answered it, and an unreachable server is said so', async () => {
    const { fetcher, pairing } = await page();
    const made = await pairing.makeCode('Entrance');
    const code = made.ok ? made.code : '';
    expect(await pairDevice('1234', fetcher)).toEqual({ ok: false, reason: 'invalid_code' });
    expect(await pairDevice('ZZZZ-ZZZZ', fetcher)).toEqual({ ok: false, reason: 'wrong_code', triesLeft: 4 });
    expect(await pairDevice(code, fetcher)).toEqual({ ok: true, device: 'Entrance' });
    expect(await pairDevice(code, fetcher)).toEqual({ ok: false, reason: 'code_used', triesLeft: 4 });
    for (const guess of ['ZZZZ-ZZZY', 'ZZZZ-ZZZX', 'ZZZZ-ZZZW']) await pairDevice(guess, fetcher);
    expect(await pairDevice('ZZZZ-ZZZV', fetcher)).toEqual({ ok: false, reason: 'locked', retryAfterSeconds: 300 });
    expect(await pairDevice(code, async () => Promise.reject(new TypeError('Failed to fetch')))).toEqual({ ok: false, reason: 'unreachable', detail: 'Failed to fetch' });
  });
});
