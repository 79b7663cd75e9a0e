// `POST /api/actions` end to end: a real kiosk server in front of real local targets that record
// what reaches them. Where an action may go, the secrets put in on the server and kept out of
// every answer and log line, each way a call can end, the headers sent, the page's malformed
// requests, and the same action id reaching the target once, in turn or all at once.

import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { ActionsOptions } from '../../server/actions.ts';
import type { ActionsConfig } from '../../server/config.ts';
import { json, listen, closeServer, toolFlow, useServerHarness, type Reply, type Upstream } from '../support/server-harness.ts';

const TOKEN = 'tok-clinic-7f3a9c2e5b1d8604';
const OTHER = 'key-other+0a9b/8c7d6e5f4321';
const SECRETS = { CLINIC_TOKEN: TOKEN, OTHER_KEY: OTHER };

const harness = useServerHarness({
  rootPrefix: 'kiosk-actions-',
  secrets: [TOKEN, OTHER, encodeURIComponent(OTHER), TOKEN.slice(-12), OTHER.slice(-12)],
});
const { logs, seen } = harness;

/** What `/api/actions` answers, loosely typed for the checks. */
interface Answer {
  action_id?: string;
  ok: boolean;
  status?: number;
  data?: unknown;
  error?: string;
  message?: string;
  replayed?: boolean;
  state?: string;
}

interface Setup {
  kiosk: string;
  target: Upstream;
  /** the target's origin, e.g. http://127.0.0.1:40123 */
  origin: string;
}

/** A target answering with `reply`, and the kiosk allowing its origin (plus `more`), with the test secrets. */
async function setup(reply?: Reply, options: { more?: string[]; actions?: Partial<ActionsConfig>; api?: ActionsOptions } = {}): Promise<Setup> {
  const target = await harness.startUpstream(reply);
  const origin = new URL(target.base).origin;
  const secretOrigins = { CLINIC_TOKEN: [origin], OTHER_KEY: [origin] };
  const actions: ActionsConfig = { allowedOrigins: [origin, ...(options.more ?? [])], secrets: SECRETS, secretOrigins, ...options.actions };
  const kiosk = await harness.startKiosk({ actions }, { actions: options.api ?? {} });
  return { kiosk, target, origin };
}

let seq = 0;
/** The parts of an action the flow declares (the page can no longer send them). */
const DECLARED = new Set(['method', 'url', 'body', 'headers', 'timeout_seconds']);

/**
 * An action as the page asks for it, a fresh id: a check-in POST to `origin`, declared by a flow
 * the kiosk's server knows. `extra` changes the effect (method, url, body, headers,
 * timeout_seconds: the flow's) or the ask itself (any other field, `values` among them).
 */
function action(origin: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  seq += 1;
  const declared = Object.fromEntries(Object.entries(extra).filter(([key]) => DECLARED.has(key)));
  const asked = Object.fromEntries(Object.entries(extra).filter(([key]) => !DECLARED.has(key)));
  const http = { method: 'POST', url: `${origin}/check-ins`, body: { name: 'Maria Garcia', dob: '1984-03-05' }, ...declared };
  return {
    action_id: `visit-7c1e:action_${seq}`,
    flow_id: 'clinic_checkin',
    ...harness.keepFlow(toolFlow(http)),
    state: 'summary',
    tool: 'check_in',
    values: {},
    ...asked,
  };
}

/** Posts `body` (an object, or raw text) to `/api/actions`; the answer is read and remembered for the secrets check. */
async function send(kiosk: string, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<{ status: number; body: Answer }> {
  const response = await fetch(`${kiosk}/api/actions`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await response.text();
  seen.push(text);
  return { status: response.status, body: JSON.parse(text) as Answer };
}

async function lookUp(kiosk: string, id: string): Promise<{ status: number; body: Answer }> {
  const response = await fetch(`${kiosk}/api/actions/${encodeURIComponent(id)}`);
  const text = await response.text();
  seen.push(text);
  return { status: response.status, body: JSON.parse(text) as Answer };
}

/** A reply that echoes the request back as JSON: what the target saw, for the scrubbing checks. */
const echo: Reply = (req, res, body) => json(res, 200, { url: req.url, headers: req.headers, body: body.toString('utf8') });

/** A reply that never answers (the harness closes it after the test). */
const silent: Reply = () => {};

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function until(check: () => boolean, ms = 3000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error('timed out waiting');
    await delay(5);
  }
}

describe('where an action may go', () => {
  it('calls an allowed origin and answers with its JSON', async () => {
    const { kiosk, target, origin } = await setup((_req, res) => json(res, 201, { check_in_id: 'chk-1', queue_number: 4 }));
    const request = action(origin);
    const answer = await send(kiosk, request);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ action_id: request['action_id'], ok: true, status: 201, data: { check_in_id: 'chk-1', queue_number: 4 } });
    expect(target.received).toHaveLength(1);
    expect(target.received[0]!.url).toBe('/check-ins');
    expect(JSON.parse(target.received[0]!.body.toString('utf8'))).toEqual({ name: 'Maria Garcia', dob: '1984-03-05' });
  });

  it('refuses every action when no origin is allowed (fail-closed), saying what to set', async () => {
    const target = await harness.startUpstream();
    const origin = new URL(target.base).origin;
    for (const kiosk of [await harness.startKiosk({}), await harness.startKiosk({ actions: { allowedOrigins: [], secrets: SECRETS } })]) {
      const answer = await send(kiosk, action(origin));
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ ok: false, error: 'refused_host' });
      expect(answer.body.message).toMatch(/allows no origin\. Set ACTIONS_ALLOWED_ORIGINS/);
    }
    expect(target.received).toHaveLength(0);
  });

  it.each([
    ['a longer host ending in another domain', 'http://allowed.example.evil.com/x'],
    ['the allowed host as a user name', 'http://allowed.example@evil.com/x'],
    ['the allowed host and a port as user name and password', 'http://allowed.example:80@evil.com/x'],
    ['another port', 'http://allowed.example:8080/x'],
    ['https where http is allowed', 'https://allowed.example/x'],
    ['http where https is allowed', 'http://secure.example/x'],
    ['a user name on an allowed host', 'http://someone:pw@allowed.example/x'],
    ['a sub-domain of an allowed host', 'http://api.allowed.example/x'],
    ['another scheme', 'ftp://allowed.example/x'],
    ['a file', 'file:///etc/passwd'],
    ['script', 'javascript:alert(1)'],
    ['a relative address', '/check-ins'],
    ['a host written with a secret', 'http://{secret:CLINIC_TOKEN}/x'],
  ])('refuses %s (%s) and sends nothing', async (_what, url) => {
    const { kiosk, target } = await setup(undefined, { more: ['http://allowed.example', 'https://secure.example'] });
    const answer = await send(kiosk, action('', { url }));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: false, error: 'refused_host' });
    expect(target.received).toHaveLength(0);
  });

  it('refuses the same machine under another name or port', async () => {
    const { kiosk, target } = await setup();
    const port = Number(new URL(target.base).port);
    for (const url of [`http://localhost:${port}/x`, `http://[::1]:${port}/x`, `https://127.0.0.1:${port}/x`]) {
      expect((await send(kiosk, action('', { url }))).body).toMatchObject({ ok: false, error: 'refused_host' });
    }
    expect(target.received).toHaveLength(0);
  });

  it('matches origins as URLs do: case and the default port make no difference', async () => {
    const { kiosk, target, origin } = await setup();
    const shouted = origin.replace('http://', 'HTTP://');
    const answer = await send(kiosk, action('', { url: `${shouted}/check-ins` }));
    expect(answer.body).toMatchObject({ ok: true, status: 200 });
    expect(target.received).toHaveLength(1);
  });

  it('does not follow a redirect, even to an allowed origin: the status is named and the other side gets nothing', async () => {
    const elsewhere = await harness.startUpstream();
    const { kiosk, target, origin } = await setup((_req, res) => {
      res.writeHead(307, { location: `${new URL(elsewhere.base).origin}/steal` });
      res.end();
    }, { more: [new URL(elsewhere.base).origin] });
    const answer = await send(kiosk, action(origin));
    expect(answer.body).toMatchObject({ ok: false, error: 'http', status: 307 });
    expect(answer.body.message).toMatch(/redirect/);
    expect(answer.body.message).not.toContain('steal');
    expect(target.received).toHaveLength(1);
    expect(elsewhere.received).toHaveLength(0);
  });
});

describe('secrets', () => {
  it('puts secrets into headers, the url and the body on the server, and scrubs them from the answer', async () => {
    const { kiosk, target, origin } = await setup(echo);
    const answer = await send(
      kiosk,
      action(origin, {
        url: `${origin}/check-ins?key={secret:OTHER_KEY}`,
        headers: { Authorization: 'Bearer {secret:CLINIC_TOKEN}', 'X-Site': 'north' },
        body: { token: 'x-{secret:CLINIC_TOKEN}', list: ['{secret:OTHER_KEY}', 3], '{secret:OTHER_KEY}': 'keys stay as written' },
      }),
    );
    const got = target.received[0]!;
    expect(got.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(got.headers['x-site']).toBe('north');
    expect(got.url).toBe(`/check-ins?key=${OTHER}`);
    expect(JSON.parse(got.body.toString('utf8'))).toEqual({ token: `x-${TOKEN}`, list: [OTHER, 3], '{secret:OTHER_KEY}': 'keys stay as written' });

    expect(answer.body.ok).toBe(true);
    const text = JSON.stringify(answer.body);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(OTHER);
    const data = answer.body.data as { headers: Record<string, string>; url: string; body: string };
    expect(data.headers['authorization']).toBe('Bearer [redacted]');
    expect(data.url).toBe('/check-ins?key=[redacted]');
    expect(data.body).toContain('x-[redacted]');
  });

  it('scrubs a secret echoed in any case, percent-encoded, in hex, base64 or base64url, or cut short; ordinary words stay', async () => {
    const spelled = {
      upper: TOKEN.toUpperCase(),
      percent: encodeURIComponent(OTHER),
      hex: Buffer.from(TOKEN).toString('hex'),
      base64: Buffer.from(OTHER).toString('base64'),
      base64url: Buffer.from(OTHER).toString('base64url'),
      basic: `Basic ${Buffer.from(`clinic:${TOKEN}`).toString('base64')}`,
      short: `${TOKEN.slice(0, 16)}…`,
      words: 'the clinic token for key-other is tok-clinic',
    };
    const { kiosk, origin } = await setup((_req, res) => json(res, 200, spelled));
    const answer = await send(kiosk, action(origin, { headers: { authorization: 'Bearer {secret:CLINIC_TOKEN}', 'x-other': '{secret:OTHER_KEY}' } }));
    const data = answer.body.data as Record<string, string>;
    for (const key of ['upper', 'percent', 'hex', 'base64', 'base64url'] as const) expect(data[key], key).toBe('[redacted]');
    expect(data['basic']).toMatch(/^Basic \S*\[redacted\]\S*$/);
    expect(data['basic']!.length).toBeLessThan(spelled.basic.length - 20);
    expect(data['short']).toBe('[redacted]…');
    expect(data['words']).toBe(spelled.words);
  });

  it('sends a secret only to the origins listed for it (secret_not_allowed, naming both), and nothing elsewhere', async () => {
    const other = await harness.startUpstream();
    const otherOrigin = new URL(other.base).origin;
    const { kiosk, target, origin } = await setup(undefined, { more: [otherOrigin] });
    const away = await send(kiosk, action(otherOrigin, { headers: { authorization: 'Bearer {secret:CLINIC_TOKEN}' } }));
    expect(away.body).toMatchObject({ ok: false, error: 'secret_not_allowed' });
    expect(away.body.message).toContain('CLINIC_TOKEN');
    expect(away.body.message).toContain(otherOrigin);
    expect(away.body.message).toContain(`ACTION_SECRET_CLINIC_TOKEN_ORIGINS lists only ${origin}`);
    expect(other.received).toHaveLength(0);

    const unlisted = await harness.startKiosk({ actions: { allowedOrigins: [origin], secrets: SECRETS } });
    const nowhere = await send(unlisted, action(origin, { headers: { authorization: 'Bearer {secret:CLINIC_TOKEN}' } }));
    expect(nowhere.body).toMatchObject({ ok: false, error: 'secret_not_allowed' });
    expect(nowhere.body.message).toContain('ACTION_SECRET_CLINIC_TOKEN_ORIGINS is not set');
    expect(target.received).toHaveLength(0);
    expect((await send(kiosk, action(otherOrigin))).body).toMatchObject({ ok: true });
  });

  it('sends nothing when a secret is missing, naming the variable to set', async () => {
    const { kiosk, target, origin } = await setup();
    const answer = await send(kiosk, action(origin, { headers: { authorization: 'Bearer {secret:NOPE}' }, body: { a: '{secret:ALSO_MISSING}', b: '{secret:CLINIC_TOKEN}' } }));
    expect(answer.body).toMatchObject({ ok: false, error: 'missing_secret' });
    expect(answer.body.message).toContain('ACTION_SECRET_NOPE');
    expect(answer.body.message).toContain('ACTION_SECRET_ALSO_MISSING');
    expect(target.received).toHaveLength(0);
  });

  it('leaves a percent-encoded reference (a visitor\'s words in the url) as it is', async () => {
    const { kiosk, target, origin } = await setup();
    const said = encodeURIComponent('{secret:CLINIC_TOKEN}');
    await send(kiosk, action(origin, { method: 'GET', url: `${origin}/appointments?name=${said}`, body: undefined }));
    expect(target.received[0]!.url).toBe(`/appointments?name=${said}`);
  });

  it('leaves lower-case or malformed references alone', async () => {
    const { kiosk, target, origin } = await setup();
    await send(kiosk, action(origin, { headers: { 'x-a': '{secret:clinic_token}', 'x-b': '{secret: CLINIC_TOKEN}' } }));
    expect(target.received[0]!.headers['x-a']).toBe('{secret:clinic_token}');
    expect(target.received[0]!.headers['x-b']).toBe('{secret: CLINIC_TOKEN}');
  });

  it('logs one line per action: flow, tool, method, origin, outcome and time, never the values', async () => {
    const { kiosk, origin } = await setup((_req, res) => json(res, 201, { patient: 'Maria Garcia' }));
    const request = action(origin, { headers: { authorization: 'Bearer {secret:CLINIC_TOKEN}' } });
    await send(kiosk, request);
    const lines = logs.filter((line) => line.includes(String(request['action_id'])));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^\\[actions\\] clinic_checkin check_in POST ${origin.replace(/\./g, '\\.')} done 201 \\d+ms id=`));
    expect(logs.join('\n')).not.toContain('Maria');
    expect(logs.join('\n')).not.toContain('1984');
  });
});

describe('how a call ends', () => {
  it.each([
    ['204 with no body', 204, undefined, undefined],
    ['200 with an empty body', 200, 'application/json', ''],
  ])('counts %s as done, with data null', async (_what, status, type, body) => {
    const { kiosk, origin } = await setup((_req, res) => {
      res.writeHead(status, type ? { 'content-type': type } : {});
      res.end(body);
    });
    expect((await send(kiosk, action(origin))).body).toMatchObject({ ok: true, status, data: null });
  });

  it('takes JSON under a +json type and with parameters', async () => {
    for (const type of ['application/vnd.clinic+json', 'Application/JSON; charset=utf-8']) {
      const { kiosk, origin } = await setup((_req, res) => {
        res.writeHead(200, { 'content-type': type });
        res.end('{"queue_number":2}');
      });
      expect((await send(kiosk, action(origin))).body).toMatchObject({ ok: true, data: { queue_number: 2 } });
    }
  });

  it('refuses an answer that is not JSON by type, or by content (invalid_json), keeping the status', async () => {
    const html = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('{"looks":"like json"}');
    });
    expect((await send(html.kiosk, action(html.origin))).body).toMatchObject({ ok: false, error: 'invalid_json', status: 200 });
    const none = await setup((_req, res) => {
      res.writeHead(201);
      res.end('{"no":"type"}');
    });
    expect((await send(none.kiosk, action(none.origin))).body).toMatchObject({ ok: false, error: 'invalid_json', status: 201 });
    const broken = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"check_in_id": "chk-');
    });
    expect((await send(broken.kiosk, action(broken.origin))).body).toMatchObject({ ok: false, error: 'invalid_json', status: 200 });
  });

  it('reports a non-2xx answer as http with the status and a short message, never the page it sent', async () => {
    const page = `<html><body>${'Internal details '.repeat(500)}</body></html>`;
    const html = await setup((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end(page);
    });
    const answer = (await send(html.kiosk, action(html.origin))).body;
    expect(answer).toMatchObject({ ok: false, error: 'http', status: 500 });
    expect(answer.message).not.toContain('Internal details');
    expect(answer.message!.length).toBeLessThan(120);

    const long = await setup((_req, res) => json(res, 422, { detail: `the dob is wrong ${'x'.repeat(5000)}` }));
    const told = (await send(long.kiosk, action(long.origin))).body;
    expect(told).toMatchObject({ ok: false, error: 'http', status: 422 });
    expect(told.message).toContain('the dob is wrong');
    expect(told.message!.length).toBeLessThanOrEqual(300);
  });

  it('stops reading an answer over 256 KB (too_large), even one that never ends', async () => {
    const big = await setup((_req, res) => json(res, 200, { padding: 'x'.repeat(300 * 1024) }));
    expect((await send(big.kiosk, action(big.origin))).body).toMatchObject({ ok: false, error: 'too_large', status: 200 });

    const endless = await setup((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      const timer = setInterval(() => res.write(`"${'y'.repeat(16 * 1024)}",`), 1);
      res.on('close', () => clearInterval(timer));
    });
    const started = Date.now();
    expect((await send(endless.kiosk, action(endless.origin))).body).toMatchObject({ ok: false, error: 'too_large' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('times out after 10 s by default (shortened here), after timeout_seconds when given, and never after more than the cap', async () => {
    const short = await setup(silent, { api: { defaultTimeoutMs: 150 } });
    let started = Date.now();
    expect((await send(short.kiosk, action(short.origin))).body).toMatchObject({ ok: false, error: 'timeout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);

    const given = await setup(silent);
    started = Date.now();
    const answer = (await send(given.kiosk, action(given.origin, { timeout_seconds: 0.2 }))).body;
    expect(answer).toMatchObject({ ok: false, error: 'timeout' });
    expect(answer.message).toMatch(/may or may not/);
    expect(Date.now() - started).toBeLessThan(5000);

    const capped = await setup(silent, { api: { maxTimeoutMs: 200 } });
    started = Date.now();
    expect((await send(capped.kiosk, action(capped.origin, { timeout_seconds: 30 }))).body).toMatchObject({ ok: false, error: 'timeout' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('counts an answer slower than the time-out as a time-out, even if it comes later', async () => {
    const { kiosk, origin } = await setup((_req, res) => void setTimeout(() => json(res, 200, { late: true }), 400));
    expect((await send(kiosk, action(origin, { timeout_seconds: 0.1 }))).body).toMatchObject({ ok: false, error: 'timeout' });
  });

  it('reports a target that is down as network', async () => {
    const gone = createServer();
    const port = await listen(gone);
    await closeServer(gone);
    const origin = `http://127.0.0.1:${port}`;
    const kiosk = await harness.startKiosk({ actions: { allowedOrigins: [origin], secrets: {} } });
    const answer = (await send(kiosk, action(origin))).body;
    expect(answer).toMatchObject({ ok: false, error: 'network' });
    expect(answer.message).toContain('connection refused');
  });

  it('reports a connection dropped mid-request as network, and says it may have happened', async () => {
    const { kiosk, origin } = await setup((_req, res) => res.socket?.destroy());
    const answer = (await send(kiosk, action(origin))).body;
    expect(answer).toMatchObject({ ok: false, error: 'network' });
    expect(answer.message).toMatch(/may or may not/);
  });
});

describe('what is sent', () => {
  it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])('sends %s', async (method) => {
    const { kiosk, target, origin } = await setup();
    const withBody = method !== 'GET' && method !== 'DELETE';
    const request = action(origin, { method, ...(withBody ? {} : { body: undefined }) });
    expect((await send(kiosk, request)).body).toMatchObject({ ok: true });
    const got = target.received[0]!;
    expect(got).toBeDefined();
    expect(target.received).toHaveLength(1);
    expect(got.headers['idempotency-key']).toBe(request['action_id']);
    if (withBody) expect(JSON.parse(got.body.toString('utf8'))).toEqual({ name: 'Maria Garcia', dob: '1984-03-05' });
    else expect(got.body.length).toBe(0);
  });

  it('sends only the flow\'s headers, the JSON type, accept and the Idempotency-Key: never the page\'s own headers', async () => {
    const { kiosk, target, origin } = await setup();
    const request = action(origin, { headers: { 'X-Clinic-Site': 'north', Accept: 'text/html', 'Content-Type': 'text/plain', 'Idempotency-Key': 'chosen-by-flow' } });
    // The kiosk's own page sends its origin and cookies: none of them goes on.
    await send(kiosk, request, { 'content-type': 'application/json', cookie: 'session=visitor-42', 'user-agent': 'kiosk-page', origin: kiosk, 'sec-fetch-site': 'same-origin' });
    const headers = target.received[0]!.headers;
    expect(Object.keys(headers).sort()).toEqual(['accept', 'connection', 'content-length', 'content-type', 'host', 'idempotency-key', 'x-clinic-site']);
    expect(headers).toMatchObject({ accept: 'application/json', 'content-type': 'application/json', 'idempotency-key': request['action_id'], 'x-clinic-site': 'north' });
  });

  it('sends no content type and no body where there is none (absent or null), whatever the flow says', async () => {
    const { kiosk, target, origin } = await setup();
    await send(kiosk, action(origin, { method: 'GET', body: undefined, headers: { 'Content-Type': 'text/plain' } }));
    await send(kiosk, action(origin, { method: 'DELETE', body: null }));
    for (const got of target.received) {
      expect(got.headers['content-type']).toBeUndefined();
      expect(got.body.length).toBe(0);
    }
    expect(target.received).toHaveLength(2);
  });

  it.each(['Host', 'Content-Length', 'Transfer-Encoding', 'Connection', 'Proxy-Authorization', 'Upgrade'])('refuses a flow header %s, and sends nothing', async (name) => {
    const { kiosk, target, origin } = await setup();
    const answer = await send(kiosk, action(origin, { headers: { [name]: 'x' } }));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ ok: false, error: 'invalid_flow' });
    expect(answer.body.message).toContain(name);
    expect(target.received).toHaveLength(0);
  });
});

describe('the page\'s request', () => {
  it.each<[string, unknown]>([
    ['not JSON', '{"action_id": '],
    ['not an object', [1, 2]],
    ['an unknown field', { extra: 1 }],
    ['a wrong type', { type: 'something_else' }],
    ['no action id', { action_id: undefined }],
    ['an action id with a space', { action_id: 'action 1' }],
    ['an action id too long', { action_id: 'a'.repeat(129) }],
    ['no flow id', { flow_id: undefined }],
    ['a tool that is not a name', { tool: 'check in' }],
    ['no state', { state: undefined }],
    ['no flow source', { flow_source: undefined }],
    ['a version that is not one', { flow_version: '../../etc' }],
    ['values that are a list', { values: ['Maria'] }],
    ['a value under a name no template can use', { values: { 'full name': 'Maria' } }],
    // what the flow declares is no longer the page's to say
    ['a url', { url: 'http://evil.example/x' }],
    ['a method', { method: 'DELETE' }],
    ['headers', { headers: { 'x-a': 'b' } }],
    ['a body', { body: { a: 1 } }],
    ['a time-out', { timeout_seconds: 10 }],
  ])('answers 400 invalid_request for %s, and runs nothing', async (_what, change) => {
    const { kiosk, target, origin } = await setup();
    const body = typeof change === 'string' || Array.isArray(change) ? change : { ...action(origin), ...(change as object) };
    const answer = await send(kiosk, typeof body === 'string' ? body : JSON.parse(JSON.stringify(body)));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ ok: false, error: 'invalid_request' });
    expect(typeof answer.body.message).toBe('string');
    expect(target.received).toHaveLength(0);
  });

  it('accepts the engine\'s action_run message as it is, with the flow id added', async () => {
    const { kiosk, target, origin } = await setup();
    expect((await send(kiosk, { type: 'action_run', ...action(origin) })).body).toMatchObject({ ok: true });
    expect(target.received).toHaveLength(1);
  });

  it('insists on a JSON content type, so no other site\'s page can post a form to it', async () => {
    const { kiosk, target, origin } = await setup();
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const answer = await send(kiosk, action(origin), { 'content-type': type });
      expect(answer.status).toBe(400);
    }
    expect(target.received).toHaveLength(0);
  });

  it('answers 413 for a request over 64 KB', async () => {
    const { kiosk, target, origin } = await setup();
    const answer = await send(kiosk, action(origin, { values: { notes: 'n'.repeat(65 * 1024) } }));
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ ok: false, error: 'request_too_large' });
    expect(target.received).toHaveLength(0);
    // 60 values of 1000 characters (the most a text may have), each filled into the body.
    const names = Array.from({ length: 60 }, (_, i) => `note_${i}`);
    const body = Object.fromEntries(names.map((name) => [name, `{${name}}`]));
    const fits = await send(kiosk, action(origin, { body, values: Object.fromEntries(names.map((name) => [name, 'n'.repeat(1000)])) }));
    expect(fits.body.ok).toBe(true);
  });

  it('answers 405 for the wrong method', async () => {
    const { kiosk } = await setup();
    const get = await fetch(`${kiosk}/api/actions`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const post = await fetch(`${kiosk}/api/actions/some-id`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    seen.push(await get.text(), await post.text());
  });
});

describe('at most once', () => {
  it('answers a repeated request from the first, without calling the target again', async () => {
    let n = 0;
    const { kiosk, target, origin } = await setup((_req, res) => json(res, 201, { queue_number: ++n }));
    const request = action(origin);
    const first = await send(kiosk, request);
    const second = await send(kiosk, request);
    expect(target.received).toHaveLength(1);
    expect(first.body).toEqual({ action_id: request['action_id'], ok: true, status: 201, data: { queue_number: 1 } });
    expect(second.body).toEqual({ ...first.body, replayed: true });
    expect(logs.some((line) => line.includes(`repeat of id=${String(request['action_id'])}`))).toBe(true);
  });

  it('makes concurrent repeats wait for the one in flight, then gives them all its answer', async () => {
    let n = 0;
    const { kiosk, target, origin } = await setup((_req, res) => void setTimeout(() => json(res, 201, { queue_number: ++n }), 200));
    const request = action(origin);
    const answers = await Promise.all(Array.from({ length: 6 }, () => send(kiosk, request)));
    expect(target.received).toHaveLength(1);
    for (const answer of answers) expect(answer.body).toMatchObject({ ok: true, status: 201, data: { queue_number: 1 } });
    expect(answers.filter((a) => a.body.replayed)).toHaveLength(5);
  });

  it('never runs a failed action again: a repeat gets the same failure', async () => {
    const { kiosk, target, origin } = await setup(silent);
    const request = action(origin, { timeout_seconds: 0.1 });
    expect((await send(kiosk, request)).body).toMatchObject({ ok: false, error: 'timeout' });
    expect((await send(kiosk, request)).body).toMatchObject({ ok: false, error: 'timeout', replayed: true });
    expect(target.received).toHaveLength(1);
  });

  it('refuses an id used before for a different action (409), running nothing', async () => {
    const { kiosk, target, origin } = await setup();
    const request = action(origin);
    await send(kiosk, request);
    const other = action(origin, { body: { name: 'Someone Else', dob: '1990-01-01' } });
    const reused = await send(kiosk, { ...other, action_id: request['action_id'] });
    expect(reused.status).toBe(409);
    expect(reused.body).toMatchObject({ action_id: request['action_id'], ok: false, error: 'action_id_reused' });
    expect(JSON.stringify(reused.body)).not.toContain('Maria');
    expect(target.received).toHaveLength(1);
  });

  it('finishes an action whose page went away, and tells how it ended afterwards', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let answered!: () => void;
    const done = new Promise<void>((resolve) => (answered = resolve));
    const { kiosk, target, origin } = await setup((_req, res) =>
      void held.then(() => {
        json(res, 201, { queue_number: 9 });
        answered();
      }),
    );
    const request = action(origin);
    const id = String(request['action_id']);
    const abort = new AbortController();
    const sent = fetch(`${kiosk}/api/actions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request), signal: abort.signal });
    await until(() => target.received.length === 1);
    expect((await lookUp(kiosk, id)).body).toEqual({ action_id: id, state: 'running', flow_id: 'clinic_checkin', tool: 'check_in' });
    abort.abort();
    await expect(sent).rejects.toThrow();
    release();
    await done;
    for (let i = 0; i < 100 && (await lookUp(kiosk, id)).body.state === 'running'; i++) await delay(10);
    expect((await lookUp(kiosk, id)).body).toEqual({ action_id: id, state: 'done', flow_id: 'clinic_checkin', tool: 'check_in', status: 201 });
    expect(target.received).toHaveLength(1);
  });

  it('tells a failed action by GET, without data; one refused before sending takes no place (404), nor does an id never seen', async () => {
    const { kiosk, origin } = await setup((req, res) => (req.url === '/broken' ? json(res, 503, { error: 'down for maintenance' }) : json(res, 200, { ok: true })));
    const failing = action(origin, { url: `${origin}/broken` });
    await send(kiosk, failing);
    const failed = await lookUp(kiosk, String(failing['action_id']));
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ action_id: failing['action_id'], state: 'failed', error: 'http', status: 503 });
    expect(failed.body.message).toContain('down for maintenance');

    const refused = action('', { url: 'http://evil.example/x' });
    expect((await send(kiosk, refused)).body).toMatchObject({ ok: false, error: 'refused_host' });
    expect((await lookUp(kiosk, String(refused['action_id']))).status).toBe(404);

    const fine = action(origin);
    await send(kiosk, fine);
    const done = await lookUp(kiosk, String(fine['action_id']));
    expect(done.body).toMatchObject({ state: 'done', status: 200 });
    expect(done.body).not.toHaveProperty('data');

    const unknown = await lookUp(kiosk, 'visit-none:action_1');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ action_id: 'visit-none:action_1', ok: false, error: 'unknown' });
    const malformed = await lookUp(kiosk, 'not an id');
    expect(malformed.status).toBe(400);
  });

  it('does not remember a malformed request: its id can still be used', async () => {
    const { kiosk, target, origin } = await setup();
    const request = action(origin);
    expect((await send(kiosk, { ...request, method: 'TRACE' })).status).toBe(400);
    expect((await lookUp(kiosk, String(request['action_id']))).status).toBe(404);
    expect((await send(kiosk, request)).body).toMatchObject({ ok: true });
    expect(target.received).toHaveLength(1);
  });
});
