// Every /api/ route and the streaming socket, read from the server's own route table
// (server/api-routes.ts), refuse a device the operator has not paired, seen from another machine:
// a name other than localhost's, a proxy on this machine that says it relayed the request, a
// revoked device, a made-up credential. Each gets 401 with its reason before anything is read,
// run or forwarded: no service double, no action target, no PIN try, no count is reached. A
// paired device, and the server's own machine at localhost, are served.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_ROUTES, type ApiRoute } from '../../server/api-routes.ts';
import { Pairing } from '../../server/pairing.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../servers/openai-fakes.ts';
import { errorCode, send, type Answer } from '../support/hostile-requests.ts';
import { startCountingTarget, type CountingTarget } from '../support/memory-kiosk.ts';
import { pairedCookie } from '../support/paired-device.ts';
import { refusedOpening } from '../support/realtime-page.ts';
import { useServerHarness } from '../support/server-harness.ts';

const KEY = 'sk-paired-devices-5e1b7c20d94a';
const PIN = '4321';
const harness = useServerHarness({ rootPrefix: 'kiosk-paired-', secrets: [KEY] });
/** A flow in the kiosks' flow folder (the studio's routes read and write there), and the one a save would write. */
const FOLDER_FLOW = 'lobby.yaml';
const FLOW_TEXT = readFileSync('flows/onboarding.yaml', 'utf8');

/** A request the kiosk's own page could make to one route and method, which would reach a service, a target or the memory if it were let through. */
type Sample = (target: string) => { path: string; type?: string; body?: string };

/**
 * A request for each route and method of the table. A route added to the table without one here
 * fails the test below, so a new route is tried as soon as it exists.
 */
const SAMPLES: Record<string, Sample> = {
  'GET /api/config': () => ({ path: '/api/config' }),
  'POST /api/actions': (target) => ({ path: '/api/actions', type: 'application/json', body: JSON.stringify(harness.toolAsk('p1', { method: 'POST', url: `${target}/check-ins` })) }),
  'GET /api/actions/': () => ({ path: '/api/actions/p1' }),
  'GET /api/flows': () => ({ path: '/api/flows?src=%2Fflows%2Fclinic-checkin.yaml' }),
  'GET /api/operator': () => ({ path: '/api/operator' }),
  'GET /api/operator/': () => ({ path: '/api/operator/devices' }),
  'POST /api/operator/': () => ({ path: '/api/operator/unlock', type: 'application/json', body: JSON.stringify({ pin: PIN }) }),
  'POST /api/analytics': () => ({ path: '/api/analytics', type: 'application/json', body: '{"event":"action","flow_id":"clinic","outcome":"done"}' }),
  'GET /api/status': () => ({ path: '/api/status' }),
  'GET /api/studio': () => ({ path: '/api/studio' }),
  'GET /api/studio/': () => ({ path: `/api/studio/flows/${FOLDER_FLOW}` }),
  'PUT /api/studio/': () => ({ path: '/api/studio/flows/welcome.yaml', type: 'application/json', body: JSON.stringify({ text: FLOW_TEXT, pin: PIN }) }),
  'POST /api/llm/chat/completions': () => ({ path: '/api/llm/chat/completions', type: 'application/json', body: '{"messages":[{"role":"user","content":"spend the key"}]}' }),
  'POST /api/stt/audio/transcriptions': () => ({
    path: '/api/stt/audio/transcriptions',
    type: 'multipart/form-data; boundary=b',
    body: '--b\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFF\r\n--b--\r\n',
  }),
  'POST /api/tts/audio/speech': () => ({ path: '/api/tts/audio/speech', type: 'application/json', body: '{"input":"Spend the key"}' }),
  'GET /api/stt/realtime': () => ({ path: '/api/stt/realtime?language=en' }),
};

/** Every route a device must be paired for, with each of its methods. */
const GUARDED = API_ROUTES.filter((route) => route.door === 'device').flatMap((route) => route.methods.map((method) => [`${method} ${route.path}`, route, method] as const));

interface Kiosk {
  url: string;
  port: string;
  fakes: FakeOpenAI;
  target: CountingTarget;
  /** the Cookie header of a device that was paired and then revoked */
  revoked: string;
  /** the kiosks' flow folder, holding FOLDER_FLOW */
  folder: string;
}

/** The kiosk with every service on the OpenAI doubles (streaming recognition too), actions to a counting target, a PIN, and kiosk.test allowed. */
async function kiosk(): Promise<Kiosk> {
  const fakes = await startFakeOpenAI();
  harness.onCleanup(() => fakes.close());
  const target = await startCountingTarget();
  harness.onCleanup(() => target.close());
  const folder = harness.tempDir('kiosk-paired-flows-');
  writeFileSync(join(folder, FOLDER_FLOW), FLOW_TEXT);
  const url = await harness.startKiosk({
    allowedHosts: ['kiosk.test'],
    llm: { baseUrl: fakes.baseURL, apiKey: KEY, model: 'm' },
    stt: { baseUrl: fakes.baseURL, apiKey: KEY, model: 'w', mode: 'realtime' },
    tts: { baseUrl: fakes.baseURL, apiKey: KEY, model: 't', voice: 'alloy' },
    actions: { allowedOrigins: [target.origin], secrets: {} },
    operatorPin: PIN,
    flowFolder: folder,
  });
  const memory = await harness.memory();
  const revoked = await pairedCookie(memory, 'Old tablet');
  await new Pairing(memory.pairings, memory.pairingLock).revoke('Old tablet');
  return { url, port: new URL(url).port, fakes, target, revoked, folder };
}

/** Ways a request comes from another machine's point of view: the headers it carries, and the reason it is refused for. */
const ELSEWHERE: Array<[string, (k: Kiosk) => Record<string, string>, 'not_paired' | 'device_revoked']> = [
  ['another machine, by a name the kiosk answers to', (k) => ({ host: `kiosk.test:${k.port}`, origin: `http://kiosk.test:${k.port}`, 'sec-fetch-site': 'same-origin' }), 'not_paired'],
  ["a proxy on this machine that sets the Host to this machine's own", (k) => ({ host: `127.0.0.1:${k.port}`, 'x-forwarded-for': '192.0.2.7' }), 'not_paired'],
  ['a proxy on this machine that passes Host unchanged', (k) => ({ host: `kiosk.test:${k.port}`, forwarded: 'for=192.0.2.7;proto=https' }), 'not_paired'],
  ['a device whose pairing was revoked', (k) => ({ host: `kiosk.test:${k.port}`, cookie: k.revoked }), 'device_revoked'],
  ['a made-up credential', (k) => ({ host: `kiosk.test:${k.port}`, cookie: `vk-device=${'A'.repeat(43)}; __Host-vk-device=${'B'.repeat(43)}` }), 'not_paired'],
];

/** Sends the sample of `route`'s `method` with `headers`: an HTTP request, or a WebSocket opening for the socket. */
async function ask(k: Kiosk, route: ApiRoute, method: string, headers: Record<string, string>): Promise<Answer> {
  const sample = SAMPLES[`${method} ${route.path}`];
  if (!sample) throw new Error(`no sample request for ${method} ${route.path}: add one to SAMPLES`);
  const { path, type, body } = sample(k.target.origin);
  if (route.socket) {
    const refused = await refusedOpening(k.url, harness.seen, path, headers);
    return { status: refused.status, headers: refused.headers, body: JSON.stringify(refused.body) };
  }
  return send(k.url, path, { method, headers: { ...(type ? { 'content-type': type } : {}), ...headers }, ...(body === undefined ? {} : { body }) });
}

describe('a device the operator has not paired', () => {
  it('the route table holds every route the server serves, the socket among them', () => {
    expect(GUARDED.length).toBeGreaterThanOrEqual(13);
    expect(GUARDED.map(([name]) => name).sort()).toEqual(Object.keys(SAMPLES).sort());
    expect(API_ROUTES.filter((r) => r.door === 'anyone').map((r) => r.path)).toEqual(['/api/pairing']);
  });

  it.each(GUARDED)('%s: 401 from every other machine, nothing read, run or forwarded', async (_name, route, method) => {
    const k = await kiosk();
    const before = harness.logs.length;
    for (const [what, headers, reason] of ELSEWHERE) {
      const answer = await ask(k, route, method, headers(k));
      expect([what, answer.status, errorCode(answer)]).toEqual([what, 401, reason]);
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
    // Nothing reached a service or the action's target, and nothing ran: no line but the socket's refusals.
    expect([k.fakes.llm.requests.length, k.fakes.stt.requests.length, k.fakes.tts.requests.length, k.fakes.realtime.sessions.length, k.target.reached()]).toEqual([0, 0, 0, 0, 0]);
    expect(readdirSync(k.folder)).toEqual([FOLDER_FLOW]);
    expect(harness.logs.slice(before).filter((line) => !/WS \/api\/stt\/realtime 401 0ms (not_paired|device_revoked)$/.test(line))).toEqual([]);
    // No event counted, no action remembered, no PIN try counted (asked on this machine).
    const status = JSON.parse((await send(k.url, '/api/status')).body) as { actions: { performed: object; remembered: number }; analytics: { received: number } };
    expect([status.actions.performed, status.actions.remembered, status.analytics.received]).toEqual([{}, 0, 0]);
    const wrong = await send(k.url, '/api/operator/unlock', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"pin":"0000"}' });
    expect(JSON.parse(wrong.body)).toMatchObject({ error: 'wrong_pin', tries_left: 4 });
  });

  it('gets 401 at an /api/ address that is no route too, and 404 only once paired', async () => {
    const k = await kiosk();
    const host = `kiosk.test:${k.port}`;
    expect(errorCode(await send(k.url, '/api/nothing-here', { headers: { host } }))).toBe('not_paired');
    expect((await send(k.url, '/api/nothing-here', { headers: { host, cookie: await pairedCookie(await harness.memory()) } })).status).toBe(404);
  });

  it('may use the pairing route, and the page and its files', async () => {
    const k = await kiosk();
    const host = `kiosk.test:${k.port}`;
    expect(JSON.parse((await send(k.url, '/api/pairing', { headers: { host } })).body)).toEqual({ paired: false, device: null, local: false, locked_for_seconds: 0 });
    expect((await send(k.url, '/', { headers: { host } })).status).toBe(200);
  });
});

describe('a paired device, and the server’s own machine', () => {
  it('a paired device is served on every route', async () => {
    const k = await kiosk();
    const cookie = await pairedCookie(await harness.memory());
    for (const [name, route, method] of GUARDED) {
      if (route.socket) continue;
      const answer = await ask(k, route, method, { host: `kiosk.test:${k.port}`, cookie });
      expect([name, answer.status === 401]).toEqual([name, false]);
    }
    expect([k.fakes.llm.requests.length, k.fakes.tts.requests.length, k.target.reached()]).toEqual([1, 1, 1]);
    // The studio's save, with the PIN, wrote for the kiosks.
    expect(readdirSync(k.folder).sort()).toEqual([FOLDER_FLOW, 'welcome.yaml']);
  });

  it.each([
    ['localhost', 'localhost'],
    ['127.0.0.1', '127.0.0.1'],
  ])('a browser on this machine at %s needs no pairing', async (_what, name) => {
    const k = await kiosk();
    const config = await send(k.url, '/api/config', { headers: { host: `${name}:${k.port}` } });
    expect(config.status).toBe(200);
    expect(JSON.parse((await send(k.url, '/api/pairing', { headers: { host: `${name}:${k.port}` } })).body)).toMatchObject({ paired: false, local: true });
  });
});
