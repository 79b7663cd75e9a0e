// No body crashes the server: deeply nested, huge, malformed and wrongly typed bodies at every
// /api/ route, and an action target or upstream answering JSON nested thousands of levels deep,
// each followed by a check that the server still answers. (Before the nesting limit, 10 000
// levels sent to /api/actions made JSON.stringify throw in a handler nobody awaited, and Node exited.)

import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestedTooDeep } from '../../server/json-depth.ts';
import { deepArray, deepObject, errorCode, expectServing, send } from '../support/hostile-requests.ts';
import { useServerHarness, type KioskServices, type Upstream } from '../support/server-harness.ts';

const KEY = 'sk-hostile-bodies-5e1f0a9c3d7b';
const PIN = '480213';
const harness = useServerHarness({ rootPrefix: 'kiosk-hostile-', secrets: [KEY, PIN] });

/** Every /api/ route, with the method and content type the page uses on it. */
const ROUTES = [
  { path: '/api/config', method: 'GET', type: 'application/json' },
  { path: '/api/status', method: 'GET', type: 'application/json' },
  { path: '/api/llm/chat/completions', method: 'POST', type: 'application/json' },
  { path: '/api/stt/audio/transcriptions', method: 'POST', type: 'multipart/form-data; boundary=kiosk' },
  { path: '/api/tts/audio/speech', method: 'POST', type: 'application/json' },
  { path: '/api/actions', method: 'POST', type: 'application/json' },
  { path: '/api/actions/a1', method: 'GET', type: 'application/json' },
  { path: '/api/analytics', method: 'POST', type: 'application/json' },
  { path: '/api/operator', method: 'GET', type: 'application/json' },
  { path: '/api/operator/unlock', method: 'POST', type: 'application/json' },
] as const;

/**
 * Deep enough to overflow JSON.stringify even in a test's worker thread (whose stack is larger
 * than the server's main thread's, where 10 000 levels did it), and within the actions' 64 KB.
 */
const DEEP = 30_000;
/** The security review's request: an action whose body nests arrays thousands of levels deep. */
const DEEP_ACTION = `{"action_id":"a1","flow_id":"f","tool":"t","method":"POST","url":"http://127.0.0.1:9/","body":${deepArray(DEEP)}}`;

/** Bodies no page of the kiosk sends, by name: none of them may cost more than a refusal. */
const BODIES: Record<string, string | Buffer> = {
  'deep arrays': deepArray(DEEP),
  'deep objects': deepObject(DEEP / 3),
  'a deep action': DEEP_ACTION,
  'deep chat messages': `{"messages":${deepArray(DEEP)}}`,
  'deep speech input': `{"input":${deepObject(DEEP / 3)},"voice":"alloy"}`,
  'a deep PIN': `{"pin":${deepArray(DEEP)}}`,
  'huge (9 MB)': Buffer.alloc(9 * 1024 * 1024, 'a'),
  'cut off': '{"messages":[{"role":"user","content":"hi"',
  'not UTF-8': Buffer.from([0x7b, 0xff, 0xfe, 0x22, 0x7d]),
  empty: '',
  null: 'null',
  'a number too large': '1e999',
  'a list': '[1,2,3]',
  'a text': '"hello"',
  'an operator in the PIN': '{"pin":{"$ne":""}}',
  'wrong chat types': '{"messages":5,"n":"all","max_tokens":-1,"model":["x"]}',
  'wrong action types': '{"action_id":["a1"],"flow_id":{},"tool":7,"method":null,"url":{"href":"http://x"}}',
  'wrong event types': '{"event":{"name":"x"},"flow_id":5,"outcome":["done"]}',
  'a prototype key': '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"pin":"1"}',
};

/** The statuses a hostile body may get: the route's ordinary answer (a wrong PIN too), or a refusal. Never a 5xx. */
const ACCEPTABLE = [200, 202, 400, 403, 404, 405, 413, 415];

const BODY_DEPENDENT = new Set(['deep arrays', 'deep objects', 'a deep action', 'deep chat messages', 'deep speech input', 'a deep PIN', 'huge (9 MB)', 'cut off', 'not UTF-8', 'empty']);

/** The kiosk with every service and route on, its upstream recording what reaches it. */
async function fullKiosk(): Promise<{ url: string; up: Upstream }> {
  const up = await harness.startUpstream();
  const target = new URL(up.base).origin;
  const services: KioskServices = {
    llm: { baseUrl: up.base, apiKey: KEY, model: 'kiosk-chat' },
    stt: { baseUrl: up.base, apiKey: KEY, model: 'kiosk-whisper' },
    tts: { baseUrl: up.base, apiKey: KEY, model: 'kiosk-tts', voice: 'alloy' },
    actions: { allowedOrigins: [target], secrets: {} },
    operatorPin: PIN,
  };
  return { url: await harness.startKiosk(services), up };
}

describe('hostile bodies at every route', () => {
  const cases = ROUTES.flatMap((route) => Object.keys(BODIES).map((name) => [route.path, name, route] as const));

  it.each(cases)('%s with %s: a refusal or an ordinary answer, and the server still serves', async (path, name, route) => {
    const { url, up } = await fullKiosk();
    const body = BODIES[name]!;
    const answer = await send(url, path, { method: route.method, headers: { 'content-type': route.type }, body });
    harness.seen.push(answer.body);
    expect(ACCEPTABLE).toContain(answer.status);
    if (answer.status >= 400) expect(errorCode(answer)).toMatch(/^[a-z_]+$/);
    if (answer.status === 400 && name.startsWith('deep') && route.method === 'POST' && !path.includes('/stt/')) {
      expect(answer.body).toContain(`nested more than ${MAX_JSON_DEPTH} levels deep`);
    }
    if (BODY_DEPENDENT.has(name)) expect(up.received).toEqual([]);
    await expectServing(url);
  });

  it.each(ROUTES.filter((r) => r.method === 'GET'))('POST to $path with the deep action is 405, and the server still serves', async ({ path }) => {
    const { url } = await fullKiosk();
    const answer = await send(url, path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: DEEP_ACTION });
    expect(answer.status).toBe(405);
    await expectServing(url);
  });

  it('takes a chat request nested 64 levels deep and refuses one of 65', async () => {
    const { url, up } = await fullKiosk();
    const nested = (levels: number) => `{"messages":${deepArray(levels - 1)}}`;
    const post = (body: string) => send(url, '/api/llm/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect((await post(nested(MAX_JSON_DEPTH))).status).toBe(200);
    const refused = await post(nested(MAX_JSON_DEPTH + 1));
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toEqual({ error: { type: 'invalid_request', message: 'The chat request is JSON nested more than 64 levels deep.' } });
    expect(up.received).toHaveLength(1);
  });
});

describe('hostile answers', () => {
  it('fails an action whose target answers JSON 8 000 levels deep, remembers it, and goes on serving', async () => {
    const target = await harness.startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(deepArray(8000));
    });
    const origin = new URL(target.base).origin;
    const url = await harness.startKiosk({ actions: { allowedOrigins: [origin], secrets: {} } });
    const action = harness.toolAsk('deep-answer-1', { method: 'POST', url: `${origin}/check-ins`, body: { name: 'Maria' } }, 'clinic');
    const answer = await send(url, '/api/actions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(action) });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({
      action_id: 'deep-answer-1',
      ok: false,
      error: 'invalid_json',
      status: 200,
      message: `${origin} answered JSON nested more than 64 levels deep (status 200); it was not read.`,
    });
    expect(target.received).toHaveLength(1);
    // The repeat is answered from memory, and the action's record reads back.
    const repeat = await send(url, '/api/actions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(action) });
    expect(JSON.parse(repeat.body)).toMatchObject({ ok: false, error: 'invalid_json', replayed: true });
    expect(JSON.parse((await send(url, '/api/actions/deep-answer-1')).body)).toMatchObject({ state: 'failed', error: 'invalid_json' });
    expect(target.received).toHaveLength(1);
    await expectServing(url);
  });

  it('fails an action whose target answers an error in JSON 8 000 levels deep', async () => {
    const target = await harness.startUpstream((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(`{"error":${deepObject(8000)}}`);
    });
    const origin = new URL(target.base).origin;
    const url = await harness.startKiosk({ actions: { allowedOrigins: [origin], secrets: {} } });
    const action = harness.toolAsk('deep-error-1', { method: 'POST', url: `${origin}/check-ins` }, 'clinic');
    const answer = await send(url, '/api/actions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(action) });
    expect(JSON.parse(answer.body)).toMatchObject({ ok: false, error: 'http', status: 500, message: expect.stringContaining('nested more than 64 levels deep') });
    await expectServing(url);
  });

  it('passes an upstream error in JSON 8 000 levels deep on as a short message', async () => {
    const up = await harness.startUpstream((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(`{"error":${deepArray(8000)}}`);
    });
    const url = await harness.startKiosk({ llm: { baseUrl: up.base, apiKey: KEY, model: 'kiosk-chat' } });
    const answer = await send(url, '/api/llm/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"messages":[]}' });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: { type: 'upstream_error', message: 'an error answer in JSON nested more than 64 levels deep' } });
    await expectServing(url);
  });
});

describe('the nesting check itself', () => {
  it('counts arrays and objects alike, and stops at the limit', () => {
    for (const make of [deepArray, deepObject]) {
      expect(nestedTooDeep(JSON.parse(make(MAX_JSON_DEPTH)))).toBe(false);
      expect(nestedTooDeep(JSON.parse(make(MAX_JSON_DEPTH + 1)))).toBe(true);
    }
    // object, array, object, array: four levels (brackets inside a text are no level)
    expect(nestedTooDeep(JSON.parse('{"a":[1,{"b":[]}],"c":"[[[[[["}'), 4)).toBe(false);
    expect(nestedTooDeep(JSON.parse('{"a":[1,{"b":[[]]}]}'), 4)).toBe(true);
    expect(nestedTooDeep('text')).toBe(false);
    expect(nestedTooDeep(null)).toBe(false);
  });

  it('walks 200 000 levels without a stack of its own and a wide, shallow value in full', () => {
    expect(nestedTooDeep(JSON.parse(deepArray(200_000)), 300_000)).toBe(false);
    const wide = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, [i, { v: i }]]));
    expect(nestedTooDeep(wide)).toBe(false);
  });
});
