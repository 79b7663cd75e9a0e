// The /api/ proxy end to end, with a real kiosk server in front of a real local upstream that
// records what it gets: the config route, the three routes and nothing else, the key and model
// added on the server, the browser's headers left behind, body limits, and the key in no answer,
// header or log line. (Streams and failures: server-api-streams.test.ts; hostile requests: tests/security/.)

import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { BODY_LIMITS } from '../../server/api.ts';
import type { UpstreamService } from '../../server/config.ts';
import { json, useServerHarness } from '../support/server-harness.ts';

const KEY = 'sk-kiosk-test-4f9a1c7e2b8d6053';
const MODEL = 'kiosk-model';
/** Request headers an upstream may see: what the proxy sets, and what Node's client adds. */
const UPSTREAM_HEADERS = new Set(['host', 'connection', 'content-type', 'content-length', 'accept', 'accept-encoding', 'authorization']);
const BROWSER_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json',
  authorization: 'Bearer set-by-proxy',
  cookie: 'session=visitor-42',
  'user-agent': 'kiosk-page',
  'x-stainless-lang': 'js',
  'x-stainless-retry-count': '0',
};

/** The headers of a request from the kiosk's own page at `url`: its origin besides the client's own. */
const pageHeaders = (url: string): Record<string, string> => ({ ...BROWSER_HEADERS, origin: url, referer: `${url}/`, 'sec-fetch-site': 'same-origin' });

// ---- the kiosk in front of a recording upstream (the harness), and requests as the page makes them

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const { logs, seen, startUpstream, startKiosk } = useServerHarness({ rootPrefix: 'kiosk-api-', secrets: [KEY, KEY.slice(-10)] });

const service = (baseUrl: string, extra: Partial<UpstreamService> = {}): UpstreamService => ({ baseUrl, apiKey: KEY, model: MODEL, ...extra });

function observe(status: number, headers: IncomingHttpHeaders, body: string): Answer {
  seen.push(JSON.stringify(headers), body);
  return { status, headers, body };
}

/** One request with the exact path given (no URL normalisation), its whole answer read. */
function raw(url: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: Buffer | string; chunked?: boolean } = {}): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method: init.method ?? 'GET', headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(observe(res.statusCode ?? 0, res.headers, Buffer.concat(chunks).toString('utf8'))));
    });
    req.on('error', reject);
    const body = init.body === undefined ? undefined : Buffer.from(init.body);
    if (body && init.chunked) {
      for (let at = 0; at < body.length; at += 65536) req.write(body.subarray(at, at + 65536));
      req.end();
    } else {
      req.end(body);
    }
  });
}

const post = (url: string, path: string, body: unknown, headers: Record<string, string> = pageHeaders(url)) =>
  raw(url, path, { method: 'POST', headers, body: JSON.stringify(body) });

function errorOf(answer: Answer): { message: string; type: string } {
  return (JSON.parse(answer.body) as { error: { message: string; type: string } }).error;
}

// ---- the tests

describe('GET /api/config', () => {
  it('names the configured models and voice, and nothing else', async () => {
    const up = await startUpstream();
    const url = await startKiosk({ llm: service(up.base), stt: service(up.base, { model: 'whisper-1' }), tts: { ...service(up.base, { model: 'tts-1' }), voice: 'nova' } });
    const answer = await raw(url, '/api/config');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toEqual({ llm: { model: MODEL, earlyStart: true }, stt: { model: 'whisper-1', mode: 'upload' }, tts: { model: 'tts-1', voice: 'nova', format: 'auto' } });
    expect(answer.body).not.toContain('127.0.0.1');
    expect(up.received).toEqual([]);
  });

  it('says null for every service that is not configured', async () => {
    const url = await startKiosk({});
    expect(JSON.parse((await raw(url, '/api/config')).body)).toEqual({ llm: null, stt: null, tts: null });
  });

  it('takes GET only', async () => {
    const url = await startKiosk({});
    const answer = await raw(url, '/api/config', { method: 'POST' });
    expect(answer.status).toBe(405);
    expect(answer.headers['allow']).toBe('GET');
  });
});

describe('only three routes are forwarded', () => {
  it.each([
    '/api',
    '/api/',
    '/api/llm',
    '/api/llm/',
    '/api/llm/models',
    '/api/llm/chat/completions/',
    '/api/llm//chat/completions',
    '/api/LLM/chat/completions',
    '/api/llm/chat%2Fcompletions',
    '/api/llm/../../x',
    '/api/llm/../tts/audio/speech',
    '/api/llm/%2e%2e/secret',
    '/api/llm/%2E%2E/%2E%2E/etc/passwd',
    '/api/stt/audio/translations',
    '/api/tts/audio/speech/../../../v1/models',
  ])('%s is 404 and never reaches the upstream', async (path) => {
    const up = await startUpstream();
    const url = await startKiosk({ llm: service(up.base), stt: service(up.base), tts: { ...service(up.base), voice: 'alloy' } });
    const answer = await raw(url, path, { method: 'POST', headers: pageHeaders(url), body: '{}' });
    expect(answer.status).toBe(404);
    expect(errorOf(answer).type).toBe('not_found');
    expect(up.received).toEqual([]);
  });

  it.each([
    ['GET', '/api/llm/chat/completions'],
    ['PUT', '/api/stt/audio/transcriptions'],
    ['DELETE', '/api/tts/audio/speech'],
  ])('%s %s is 405', async (method, path) => {
    const up = await startUpstream();
    const url = await startKiosk({ llm: service(up.base), stt: service(up.base), tts: { ...service(up.base), voice: 'alloy' } });
    const answer = await raw(url, path, { method });
    expect(answer.status).toBe(405);
    expect(answer.headers['allow']).toBe('POST');
    expect(up.received).toEqual([]);
  });

  it.each([
    ['/api/llm/chat/completions', 'language model', 'LLM_BASE_URL'],
    ['/api/stt/audio/transcriptions', 'speech-to-text', 'STT_BASE_URL'],
    ['/api/tts/audio/speech', 'text-to-speech', 'TTS_BASE_URL'],
  ])('%s is 503 naming the service when it is not configured', async (path, label, variable) => {
    const url = await startKiosk({});
    const answer = await post(url, path, { input: 'hi' });
    expect(answer.status).toBe(503);
    const error = errorOf(answer);
    expect(error.type).toBe('not_configured');
    expect(error.message).toContain(label);
    expect(error.message).toContain(variable);
  });
});

describe('forwarding', () => {
  it('sends chat to BASE/chat/completions with the key, the configured model, and none of the browser headers', async () => {
    const up = await startUpstream((_req, res) => json(res, 200, { id: 'c1' }, { 'set-cookie': 'tracker=1', 'x-request-id': 'r1' }));
    const url = await startKiosk({ llm: service(up.base) });
    const request = { model: 'page-choice', stream: false, messages: [{ role: 'user', content: 'hi' }], tools: [] };
    const answer = await post(url, '/api/llm/chat/completions?api-version=9', request);

    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ id: 'c1' });
    expect(answer.headers['set-cookie']).toBeUndefined();
    expect(answer.headers['x-request-id']).toBeUndefined();
    expect(answer.headers['content-type']).toBe('application/json');

    const [got] = up.received;
    expect(got?.url).toBe('/v1/chat/completions');
    expect(got?.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(got?.headers['accept']).toBe('application/json');
    expect(Object.keys(got?.headers ?? {}).filter((h) => !UPSTREAM_HEADERS.has(h))).toEqual([]);
    expect(JSON.parse(got?.body.toString() ?? '')).toEqual({ ...request, model: MODEL, max_completion_tokens: 1024 });
  });

  it('sends a request again on a fresh connection when the kept-alive one was closed under it, and only then', async () => {
    // The upstream drops the second request that arrives on a connection it has already served,
    // as a server does that closes an idle connection just as the proxy reuses it.
    const served = new WeakSet<object>();
    const up = await startUpstream((req, res) => {
      if (served.has(req.socket)) return void req.socket.destroy();
      served.add(req.socket);
      json(res, 200, { text: 'hello' });
    });
    const url = await startKiosk({ llm: service(up.base) });
    const request = { messages: [{ role: 'user', content: 'hi' }] };
    for (let i = 0; i < 3; i++) {
      const answer = await post(url, '/api/llm/chat/completions', request);
      expect(answer.status, `request ${i + 1}`).toBe(200);
    }
    // The second request reused the first one's connection, was dropped, and went again on its
    // own; the third found no connection to reuse. Nothing else was sent twice.
    expect(up.received).toHaveLength(4);
  });

  it("sends a transcription as a form of its own: the page's audio file and fields, the server's model", async () => {
    const up = await startUpstream((_req, res) => json(res, 200, { text: 'hello' }));
    const url = await startKiosk({ stt: service(up.base, { model: 'whisper-1' }) });
    const audio = new Uint8Array([82, 73, 70, 70, 0, 1, 2, 255]);
    const form = new FormData();
    form.append('file', new Blob([audio], { type: 'audio/wav' }), 'speech.wav');
    form.append('model', 'whisper-1');
    form.append('language', 'en');
    form.append('response_format', 'json');
    const encoded = new Request('http://encode.invalid/', { method: 'POST', body: form });
    const body = Buffer.from(await encoded.arrayBuffer());
    const type = encoded.headers.get('content-type') ?? '';
    expect(type).toMatch(/^multipart\/form-data; boundary=/);

    const answer = await raw(url, '/api/stt/audio/transcriptions', { method: 'POST', headers: { ...pageHeaders(url), 'content-type': type }, body });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ text: 'hello' });
    const [got] = up.received;
    expect(got?.url).toBe('/v1/audio/transcriptions');
    expect(got?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(got?.headers['authorization']).toBe(`Bearer ${KEY}`);
    const sent = await new Response(got!.body, { headers: { 'content-type': got!.headers['content-type']! } }).formData();
    expect([...sent.keys()]).toEqual(['file', 'model', 'language', 'response_format']);
    const file = sent.get('file') as File;
    expect([file.name, file.type, new Uint8Array(await file.arrayBuffer())]).toEqual(['speech.wav', 'audio/wav', audio]);
    expect([sent.get('model'), sent.get('language'), sent.get('response_format')]).toEqual(['whisper-1', 'en', 'json']);
  });

  it('fills in the speech model and voice when the page leaves them out, and returns the audio as it came', async () => {
    const audio = Buffer.from('RIFF....WAVEfmt fake audio');
    const up = await startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': audio.length, 'set-cookie': 'x=y' });
      res.end(audio);
    });
    const url = await startKiosk({ tts: { ...service(up.base, { model: 'tts-1' }), voice: 'alloy', voices: ['alloy', 'nova'] } });

    const answer = await post(url, '/api/tts/audio/speech', { input: 'Welcome', response_format: 'wav' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('audio/wav');
    expect(answer.headers['content-length']).toBe(String(audio.length));
    expect(answer.headers['set-cookie']).toBeUndefined();
    expect(answer.body).toBe(audio.toString('utf8'));
    expect(up.received[0]?.url).toBe('/v1/audio/speech');
    expect(JSON.parse(up.received[0]?.body.toString() ?? '')).toEqual({ input: 'Welcome', response_format: 'wav', model: 'tts-1', voice: 'alloy' });

    // Another voice the operator offers is taken; the model is always the server's; no format is pcm.
    await post(url, '/api/tts/audio/speech', { input: 'Hi', model: 'tts-1-hd', voice: 'nova' });
    expect(JSON.parse(up.received[1]?.body.toString() ?? '')).toEqual({ input: 'Hi', model: 'tts-1', voice: 'nova', response_format: 'pcm' });
  });

  it('passes on pcm and wav only, and only the format TTS_FORMAT forces', async () => {
    const up = await startUpstream();
    const open = await startKiosk({ tts: { ...service(up.base, { model: 'tts-1' }), voice: 'alloy' } });
    for (const format of ['pcm', 'wav']) expect((await post(open, '/api/tts/audio/speech', { input: 'Hi', response_format: format })).status).toBe(200);
    const mp3 = await post(open, '/api/tts/audio/speech', { input: 'Hi', response_format: 'mp3' });
    expect(mp3.status).toBe(400);
    expect(errorOf(mp3).message).toBe('The response_format "mp3" is not offered on this kiosk; it speaks pcm or wav.');
    expect(up.received).toHaveLength(2);

    const wavOnly = await startKiosk({ tts: { ...service(up.base, { model: 'tts-1' }), voice: 'alloy', format: 'wav' } });
    const pcm = await post(wavOnly, '/api/tts/audio/speech', { input: 'Hi', response_format: 'pcm' });
    expect(pcm.status).toBe(400);
    // The page's own fallback reads a refusal about response_format as "ask for wav".
    expect(errorOf(pcm).message).toBe('The response_format "pcm" is not offered on this kiosk; it speaks wav (TTS_FORMAT).');
    await post(wavOnly, '/api/tts/audio/speech', { input: 'Hi' });
    expect(JSON.parse(up.received[2]?.body.toString() ?? '')).toMatchObject({ response_format: 'wav' });
  });

  it('sends no Authorization at all to a service without a key', async () => {
    const up = await startUpstream();
    const url = await startKiosk({ llm: { baseUrl: up.base, model: MODEL } });
    expect((await post(url, '/api/llm/chat/completions', { messages: [] })).status).toBe(200);
    expect(up.received[0]?.headers['authorization']).toBeUndefined();
  });

  it.each(['not json', '[1, 2]', 'null'])('answers 400 to a chat body that is not a JSON object (%s)', async (body) => {
    const up = await startUpstream();
    const url = await startKiosk({ llm: service(up.base) });
    const answer = await raw(url, '/api/llm/chat/completions', { method: 'POST', headers: pageHeaders(url), body });
    expect(answer.status).toBe(400);
    expect(up.received).toEqual([]);
  });

  it('logs one line per proxied request: method, route, status, milliseconds', async () => {
    const up = await startUpstream();
    const url = await startKiosk({ llm: service(up.base) });
    const before = logs.length;
    await post(url, '/api/llm/chat/completions', { messages: [{ role: 'user', content: 'my name is Alex' }] });
    await raw(url, '/api/config');
    expect(logs.slice(before)).toEqual([expect.stringMatching(/^\[api\] POST \/api\/llm\/chat\/completions 200 \d+ms$/)]);
  });
});

describe('body limits', () => {
  it.each([
    ['/api/llm/chat/completions', BODY_LIMITS.llm, false],
    ['/api/llm/chat/completions', BODY_LIMITS.llm, true],
    ['/api/stt/audio/transcriptions', BODY_LIMITS.stt, false],
    ['/api/stt/audio/transcriptions', BODY_LIMITS.stt, true],
    ['/api/tts/audio/speech', BODY_LIMITS.tts, false],
    ['/api/tts/audio/speech', BODY_LIMITS.tts, true],
  ])('%s over %i bytes (chunked: %s) is 413 and never leaves the kiosk', async (path, limit, chunked) => {
    const up = await startUpstream();
    const url = await startKiosk({ llm: service(up.base), stt: service(up.base), tts: { ...service(up.base), voice: 'alloy' } });
    const body = Buffer.alloc(limit + 1, 'a');
    const headers: Record<string, string> = { 'content-type': path.includes('/stt/') ? 'multipart/form-data; boundary=kiosk' : 'application/json' };
    if (!chunked) headers['content-length'] = String(body.length);
    const answer = await raw(url, path, { method: 'POST', headers, body, chunked });
    expect(answer.status).toBe(413);
    expect(errorOf(answer).type).toBe('request_too_large');
    expect(up.received).toEqual([]);
  });

  it('forwards a chat body of exactly the limit', async () => {
    const up = await startUpstream();
    const url = await startKiosk({ llm: service(up.base) });
    const shell = JSON.stringify({ messages: '' });
    const body = JSON.stringify({ messages: 'x'.repeat(BODY_LIMITS.llm - shell.length) });
    expect(body.length).toBe(BODY_LIMITS.llm);
    expect((await raw(url, '/api/llm/chat/completions', { method: 'POST', headers: pageHeaders(url), body })).status).toBe(200);
    expect(up.received).toHaveLength(1);
  });
});
