// Only the kiosk's own page uses /api/: a request naming a host the server does not serve (DNS
// rebinding), one from a page on another origin (Origin, Sec-Fetch-Site), and a "form post" in a
// type a page can send without asking (text/plain) are refused on every route before anything is
// read, run or forwarded; the kiosk's own page, and tools that are no browser, are served.

import { describe, expect, it } from 'vitest';
import { errorCode, expectServing, send } from '../support/hostile-requests.ts';
import { pairedCookie } from '../support/paired-device.ts';
import { useServerHarness, type Upstream } from '../support/server-harness.ts';

const KEY = 'sk-foreign-pages-73c1d9e04ab2';
const harness = useServerHarness({ rootPrefix: 'kiosk-foreign-', secrets: [KEY] });

/** Every /api/ route with a request the kiosk's own page could make there. */
const ROUTES = [
  { path: '/api/config', method: 'GET', type: undefined, body: undefined },
  { path: '/api/status', method: 'GET', type: undefined, body: undefined },
  { path: '/api/llm/chat/completions', method: 'POST', type: 'application/json', body: '{"messages":[{"role":"user","content":"hi"}]}' },
  { path: '/api/stt/audio/transcriptions', method: 'POST', type: 'multipart/form-data; boundary=b', body: '--b\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFF\r\n--b--\r\n' },
  { path: '/api/tts/audio/speech', method: 'POST', type: 'application/json', body: '{"input":"Hello"}' },
  { path: '/api/actions', method: 'POST', type: 'application/json', body: 'ACTION' },
  { path: '/api/actions/f1', method: 'GET', type: undefined, body: undefined },
  { path: '/api/analytics', method: 'POST', type: 'application/json', body: '{"event":"action","flow_id":"clinic","outcome":"done"}' },
  { path: '/api/operator', method: 'GET', type: undefined, body: undefined },
  { path: '/api/operator/unlock', method: 'POST', type: 'application/json', body: '{"pin":"1234"}' },
] as const;

type Route = (typeof ROUTES)[number];

/** The kiosk with every service, actions towards the recording upstream, and `allowedHosts`. */
async function kiosk(allowedHosts: string[] = []): Promise<{ url: string; host: string; up: Upstream }> {
  const up = await harness.startUpstream();
  const origin = new URL(up.base).origin;
  const url = await harness.startKiosk({
    allowedHosts,
    llm: { baseUrl: up.base, apiKey: KEY, model: 'm' },
    stt: { baseUrl: up.base, apiKey: KEY, model: 'w' },
    tts: { baseUrl: up.base, apiKey: KEY, model: 't', voice: 'alloy' },
    actions: { allowedOrigins: [origin], secrets: {} },
    operatorPin: '4321',
  });
  return { url, host: new URL(url).host, up };
}

/** `route`'s request with `headers` on top of its own; the action goes to the upstream. */
function call(url: string, up: Upstream, route: Route, headers: Record<string, string>) {
  const body = route.body === 'ACTION' ? JSON.stringify(harness.toolAsk('f1', { method: 'POST', url: `${new URL(up.base).origin}/check-ins` }, 'clinic')) : route.body;
  return send(url, route.path, { method: route.method, headers: { ...(route.type ? { 'content-type': route.type } : {}), ...headers }, ...(body === undefined ? {} : { body }) });
}

const FOREIGN: Array<[string, (host: string, port: string) => Record<string, string>, string]> = [
  ['a rebound name in Host', (_h, port) => ({ host: `attacker.example:${port}` }), 'host_not_allowed'],
  ['a name made to look like an address', (_h, port) => ({ host: `127.0.0.1.nip.io:${port}` }), 'host_not_allowed'],
  ['a user name in Host', (_h, port) => ({ host: `127.0.0.1@attacker.example:${port}` }), 'host_not_allowed'],
  ['a Host that is no host', () => ({ host: 'exa mple/../x' }), 'host_not_allowed'],
  ['another origin', () => ({ origin: 'http://attacker.example' }), 'cross_site'],
  ['another port of the same host', (host) => ({ origin: `http://${host.split(':')[0]}:1` }), 'cross_site'],
  ['a sandboxed page (Origin: null)', () => ({ origin: 'null' }), 'cross_site'],
  ['Sec-Fetch-Site: cross-site', () => ({ 'sec-fetch-site': 'cross-site' }), 'cross_site'],
  ['Sec-Fetch-Site: same-site', () => ({ 'sec-fetch-site': 'same-site' }), 'cross_site'],
  ['a same-origin Origin but Sec-Fetch-Site: cross-site', (host) => ({ origin: `http://${host}`, 'sec-fetch-site': 'cross-site' }), 'cross_site'],
];

describe('requests from elsewhere are refused on every route', () => {
  const cases = ROUTES.flatMap((route) => FOREIGN.map(([what, headers, code]) => [route.path, what, route, headers, code] as const));

  it.each(cases)('%s, %s: 403, nothing read, run or forwarded', async (_path, _what, route, headers, code) => {
    const { url, host, up } = await kiosk();
    const before = harness.logs.length;
    const answer = await call(url, up, route, headers(host, new URL(url).port));
    expect(answer.status).toBe(403);
    expect(errorCode(answer)).toBe(code);
    const message = (JSON.parse(answer.body) as { error: { message: string } }).error.message;
    expect(message).toMatch(code === 'host_not_allowed' ? /ALLOWED_HOSTS/ : /serves its own page only/);
    expect(up.received).toEqual([]);
    // Nothing ran: no action, no PIN try, no event counted, no proxied request logged.
    expect(harness.logs.slice(before)).toEqual([]);
    const status = JSON.parse((await send(url, '/api/status')).body) as { actions: { counts: object; performed: object }; analytics: { received: number } };
    expect([status.actions.counts, status.actions.performed, status.analytics.received]).toEqual([{}, {}, 0]);
    expect(JSON.parse((await send(url, '/api/operator')).body)).toEqual({ pin_set: true, locked_for_seconds: 0 });
  });
});

describe("the kiosk's own page, and tools that are no browser, are served", () => {
  const HOSTS: Array<[string, (port: string) => string]> = [
    ['its IPv4 address', (port) => `127.0.0.1:${port}`],
    ['localhost', (port) => `localhost:${port}`],
    ['an IPv6 address', (port) => `[::1]:${port}`],
    ['a name in ALLOWED_HOSTS, in any case', (port) => `Kiosk.Clinic.Example:${port}`],
    ['a name in ALLOWED_HOSTS without a port', () => 'kiosk.clinic.example'],
  ];

  it.each(HOSTS)('Host: %s, with its own Origin and Sec-Fetch-Site: same-origin', async (_what, hostFor) => {
    const { url, up } = await kiosk(['kiosk.clinic.example']);
    const host = hostFor(new URL(url).port);
    // A name other than localhost's is another machine's (or a proxy's): a paired device.
    const cookie: Record<string, string> = /clinic/i.test(host) ? { cookie: await pairedCookie(await harness.memory()) } : {};
    for (const route of ROUTES) {
      const answer = await call(url, up, route, { host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin', ...cookie });
      expect([route.path, answer.status < 300 || errorCode(answer) === 'wrong_pin']).toEqual([route.path, true]);
    }
    // chat, transcription, speech, the action: each reached the upstream once
    expect(up.received.map((r) => r.url)).toEqual(['/v1/chat/completions', '/v1/audio/transcriptions', '/v1/audio/speech', '/check-ins']);
  });

  it('serves a request with neither Origin nor Sec-Fetch-Site (curl, a monitor), and one the visitor typed (Sec-Fetch-Site: none)', async () => {
    const { url, up } = await kiosk();
    expect((await send(url, '/api/status')).status).toBe(200);
    expect((await send(url, '/api/config', { headers: { 'sec-fetch-site': 'none' } })).status).toBe(200);
    expect((await call(url, up, ROUTES[2], {})).status).toBe(200);
  });

  it('takes the default port of an https origin as the same as none (behind a TLS proxy)', async () => {
    const { url, up } = await kiosk(['kiosk.clinic.example']);
    const cookie = await pairedCookie(await harness.memory());
    for (const [host, origin] of [['kiosk.clinic.example', 'https://kiosk.clinic.example'], ['kiosk.clinic.example:443', 'https://kiosk.clinic.example']]) {
      expect((await call(url, up, ROUTES[0], { host: host!, origin: origin!, cookie })).status).toBe(200);
    }
    expect((await call(url, up, ROUTES[0], { host: 'kiosk.clinic.example:443', origin: 'http://kiosk.clinic.example', cookie })).status).toBe(403);
  });
});

describe('a "form post" reaches no service', () => {
  it.each([
    ['/api/llm/chat/completions', 'text/plain', '{"messages":[{"role":"user","content":"spend"}]}'],
    ['/api/llm/chat/completions', 'application/x-www-form-urlencoded', 'messages=spend'],
    ['/api/llm/chat/completions', 'multipart/form-data; boundary=b', '--b--\r\n'],
    ['/api/llm/chat/completions', '', '{"messages":[]}'],
    ['/api/tts/audio/speech', 'text/plain', '{"input":"Spend the key"}'],
    ['/api/tts/audio/speech', 'text/plain; charset=application/json', '{"input":"Spend the key"}'],
    ['/api/stt/audio/transcriptions', 'application/json', '{"file":"x"}'],
    ['/api/stt/audio/transcriptions', 'text/plain', 'x'],
  ])('%s as %s is 415 and never reaches the upstream', async (path, type, body) => {
    const { url, up } = await kiosk();
    const answer = await send(url, path, { method: 'POST', headers: type ? { 'content-type': type } : {}, body });
    expect(answer.status).toBe(415);
    expect(errorCode(answer)).toBe('unsupported_media_type');
    expect(up.received).toEqual([]);
    await expectServing(url);
  });
});
