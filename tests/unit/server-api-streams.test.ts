// The /api/ proxy while things are in flight or go wrong: answers stream through unbuffered, a
// page that goes away aborts the upstream request at once, refused connections and silent
// upstreams become 502 and 504, and an upstream's error reaches the page without the key.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { ApiOptions } from '../../server/api.ts';
import { listen, useServerHarness } from '../support/server-harness.ts';

const KEY = 'sk-zq8c2e5a0f1d7b9364QxWv';
const CHAT = '/api/llm/chat/completions';
const CHAT_BODY = { model: 'page-choice', stream: true, messages: [{ role: 'user', content: 'hello' }] };

const harness = useServerHarness({ rootPrefix: 'kiosk-streams-', secrets: [KEY, KEY.slice(-8)] });
const { logs, seen } = harness;

/** A local upstream that answers with `reply`; resolves with its OpenAI-style base URL. */
async function startUpstream(reply: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  return (await harness.startUpstream(reply)).base;
}

/** The kiosk with only a language model, at `baseUrl`. */
function startKiosk(baseUrl: string, api: ApiOptions = {}): Promise<string> {
  return harness.startKiosk({ llm: { baseUrl, apiKey: KEY, model: 'kiosk-model' } }, api);
}

function chat(url: string, signal?: AbortSignal): Promise<Response> {
  const init: RequestInit = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(CHAT_BODY) };
  if (signal) init.signal = signal;
  return fetch(`${url}${CHAT}`, init);
}

async function text(response: Response): Promise<string> {
  const body = await response.text();
  seen.push(JSON.stringify([...response.headers]), body);
  return body;
}

/** Resolves when the upstream's side of the connection closes, with whether the answer was finished. */
function closed(res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => res.on('close', () => resolve(res.writableFinished)));
}

const decoder = new TextDecoder();

describe('streaming', () => {
  it('passes each SSE event on while the upstream still holds the answer open', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const base = await startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'set-cookie': 'a=b' });
      res.write('data: {"n":1}\n\n');
      void released.then(() => {
        res.write('data: {"n":2}\n\n');
        res.end('data: [DONE]\n\n');
      });
    });
    const response = await chat(await startKiosk(base));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.headers.get('set-cookie')).toBeNull();

    const reader = response.body!.getReader();
    // The upstream sends the rest only after this read: it can finish only if nothing buffers.
    const first = await reader.read();
    expect(decoder.decode(first.value)).toBe('data: {"n":1}\n\n');
    release();
    let rest = '';
    for (let part = await reader.read(); !part.done; part = await reader.read()) rest += decoder.decode(part.value, { stream: true });
    expect(rest).toBe('data: {"n":2}\n\ndata: [DONE]\n\n');
  });

  it('passes streamed speech on chunk by chunk: the first pcm reaches the page before the upstream sends its last', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let upstreamDone = false;
    const first = Buffer.from([0x01, 0x02, 0x03]); // an odd length: half a sample held over
    const base = (
      await harness.startUpstream((_req, res) => {
        res.writeHead(200, { 'content-type': 'audio/pcm' });
        res.write(first);
        void released.then(() => {
          res.end(Buffer.from([0x04, 0x05, 0x06]));
          upstreamDone = true;
        });
      })
    ).base;
    const url = await harness.startKiosk({ tts: { baseUrl: base, apiKey: KEY, model: 'tts-1', voice: 'alloy' } });
    const response = await fetch(`${url}/api/tts/audio/speech`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: 'Hello', response_format: 'pcm' }) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/pcm');
    expect(response.headers.get('content-encoding')).toBeNull();
    const reader = response.body!.getReader();
    // The upstream sends its last chunk only after this read: it can finish only if nothing buffers.
    expect([...(await reader.read()).value!]).toEqual([...first]);
    expect(upstreamDone).toBe(false);
    release();
    const rest: number[] = [];
    for (let part = await reader.read(); !part.done; part = await reader.read()) rest.push(...part.value);
    expect(rest).toEqual([0x04, 0x05, 0x06]);
  });

  it('aborts the upstream request as soon as the page closes a stream', async () => {
    let upstreamClosed!: Promise<boolean>;
    const base = await startUpstream((_req, res) => {
      upstreamClosed = closed(res);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"n":1}\n\n');
    });
    const controller = new AbortController();
    const response = await chat(await startKiosk(base), controller.signal);
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    expect(await upstreamClosed).toBe(false);
  });

  it('aborts the upstream request when the page gives up before any answer', async () => {
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    let upstreamClosed!: Promise<boolean>;
    const base = await startUpstream((_req, res) => {
      upstreamClosed = closed(res);
      arrived();
    });
    const url = await startKiosk(base);
    const controller = new AbortController();
    const pending = chat(url, controller.signal);
    await arrival;
    controller.abort();
    await expect(pending).rejects.toThrow();
    expect(await upstreamClosed).toBe(false);
  });

  it('breaks the stream to the page when the upstream breaks it', async () => {
    const base = await startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"n":1}\n\n', () => res.socket?.destroy());
    });
    const response = await chat(await startKiosk(base));
    const reader = response.body!.getReader();
    await reader.read();
    await expect(reader.read()).rejects.toThrow();
  });
});

describe('upstream failures', () => {
  it('answers 502 when the upstream refuses the connection, without its address', async () => {
    const probe = createServer();
    const port = await listen(probe);
    await new Promise((resolve) => probe.close(resolve));
    const response = await chat(await startKiosk(`http://127.0.0.1:${port}/v1`));
    expect(response.status).toBe(502);
    const body = await text(response);
    expect(JSON.parse(body)).toEqual({ error: { type: 'upstream_unreachable', message: expect.stringContaining('connection refused') } });
    expect(body).not.toContain(String(port));
  });

  it('answers 504 when no response headers come in time, and drops the upstream request', async () => {
    // The deadline is long enough for the request to reach the upstream on a busy machine
    // (at 100 ms it sometimes timed out first, and the upstream never saw a request to drop).
    let arrived!: (closing: Promise<boolean>) => void;
    const arrival = new Promise<Promise<boolean>>((resolve) => (arrived = resolve));
    const base = await startUpstream((_req, res) => arrived(closed(res)));
    const response = await chat(await startKiosk(base, { headersTimeoutMs: 1000 }));
    expect(response.status).toBe(504);
    expect(JSON.parse(await text(response))).toEqual({ error: { type: 'upstream_timeout', message: 'The language model service did not answer within 1 s.' } });
    expect(await (await arrival)).toBe(false);
  });

  it.each([
    [401, JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}. Check it.`, code: 'invalid_api_key' } })],
    [401, JSON.stringify({ error: { message: `Incorrect API key provided: sk-zq********${KEY.slice(-4)}.` } })],
    [403, `forbidden for key ${KEY.slice(0, 12)}…${KEY.slice(-6)}`],
    [429, `Rate limit reached. ${'Please slow down. '.repeat(200)}`],
    [500, `<html><body>Internal error, Authorization: Bearer ${KEY}</body></html>`],
  ])('passes status %i on with a short message scrubbed of the key', async (status, upstreamBody) => {
    const base = await startUpstream((_req, res) => {
      res.writeHead(status, { 'content-type': 'text/plain', 'set-cookie': 'session=1', 'www-authenticate': `Bearer realm="${KEY}"` });
      res.end(upstreamBody);
    });
    const response = await chat(await startKiosk(base));
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(response.headers.get('www-authenticate')).toBeNull();
    const body = await text(response);
    const { error } = JSON.parse(body) as { error: { message: string; type: string } };
    expect(error.type).toBe('upstream_error');
    expect(error.message.length).toBeLessThanOrEqual(300);
    for (let i = 0; i + 4 <= KEY.length; i++) {
      if (KEY.slice(i, i + 4).includes('-')) continue; // "sk-k" and the like are not secret
      expect(body).not.toContain(KEY.slice(i, i + 4));
    }
  });

  it('logs a page that left before the end', async () => {
    const base = await startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {}\n\n');
    });
    const url = await startKiosk(base);
    const controller = new AbortController();
    const response = await chat(url, controller.signal);
    await response.body!.getReader().read();
    const before = logs.length;
    controller.abort();
    await expect.poll(() => logs.length).toBeGreaterThan(before);
    expect(logs.at(-1)).toMatch(/^\[api\] POST \/api\/llm\/chat\/completions 200 \d+ms \(closed before the end\)$/);
  });
});
