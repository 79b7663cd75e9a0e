// What a request may hold of the server: a body that does not arrive in time is cut off (408, the
// connection closed), uploads to speech recognition beyond a few at once are refused at once (429)
// without their bodies being read, and a proxied exchange in which nothing moves is closed on both
// sides. The limits are the API handler's options, made short here.

import { connect } from 'node:net';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { ApiOptions } from '../../server/api.ts';
import { errorCode, expectServing, send, stalledUpload } from '../support/hostile-requests.ts';
import { useServerHarness, type Upstream } from '../support/server-harness.ts';

const KEY = 'sk-resources-91d0e2c7f3ab';
const harness = useServerHarness({ rootPrefix: 'kiosk-resources-', secrets: [KEY] });

const MULTIPART = { 'content-type': 'multipart/form-data; boundary=kiosk' };
const JSON_TYPE = { 'content-type': 'application/json' };

async function kiosk(api: ApiOptions, reply?: (res: ServerResponse) => void): Promise<{ url: string; up: Upstream }> {
  const up = await harness.startUpstream(reply ? (_req, res) => reply(res) : undefined);
  const service = { baseUrl: up.base, apiKey: KEY, model: 'm' };
  const origin = new URL(up.base).origin;
  const url = await harness.startKiosk({ llm: service, stt: service, tts: { ...service, voice: 'alloy' }, actions: { allowedOrigins: [origin], secrets: {} }, operatorPin: '2468' }, api);
  return { url, up };
}

/** Resolves when `res` (an upstream's answer to the kiosk) is closed, with whether it had finished. */
function closedUpstream(res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => res.on('close', () => resolve(res.writableFinished)));
}

describe('a body must arrive in time', () => {
  it.each([
    ['/api/llm/chat/completions', JSON_TYPE],
    ['/api/stt/audio/transcriptions', MULTIPART],
    ['/api/tts/audio/speech', JSON_TYPE],
    ['/api/actions', JSON_TYPE],
    ['/api/analytics', JSON_TYPE],
    ['/api/operator/unlock', JSON_TYPE],
  ])('%s: a body still short of its length at the deadline gets 408 body_timeout and the connection closed', async (path, headers) => {
    const { url, up } = await kiosk({ bodyTimeoutMs: 300 });
    const upload = stalledUpload(url, path, headers, 1000, Buffer.from('{"a":'));
    const answer = await upload.answer;
    await upload.closed;
    expect(answer).not.toBe('closed');
    if (answer === 'closed') return;
    expect([answer.status, errorCode(answer), answer.headers['connection']]).toEqual([408, 'body_timeout', 'close']);
    expect(JSON.parse(answer.body)).toEqual({ error: { type: 'body_timeout', message: 'The request body did not arrive within 300 ms.' } });
    expect(up.received).toEqual([]);
    await expectServing(url);
  });

  it('counts from the start of the request, however steadily a slow body trickles in', async () => {
    const { url } = await kiosk({ bodyTimeoutMs: 300 });
    const upload = stalledUpload(url, '/api/actions', JSON_TYPE, 10_000, Buffer.from('{'));
    // A byte every 20 ms: never idle, but far from done at the deadline.
    const drip = setInterval(() => upload.request.write(' '), 20);
    const answer = await upload.answer;
    clearInterval(drip);
    expect(answer !== 'closed' && answer.status).toBe(408);
  });

  it('lets an answer that outlasts the deadline stream on once the body has arrived', async () => {
    // Long enough for the small body to arrive on a busy machine; a 100 ms deadline could pass
    // before the server read it, and the answer was then the deadline's 408.
    const bodyTimeoutMs = 1000;
    let finish!: () => void;
    const { url } = await kiosk({ bodyTimeoutMs }, (res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
      finish = () => res.end('data: [DONE]\n\n');
    });
    const sent = Date.now();
    const response = await fetch(`${url}/api/llm/chat/completions`, { method: 'POST', headers: JSON_TYPE, body: '{"messages":[]}' });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();
    // Let the body deadline pass with the answer still open: that time is what is tested.
    await new Promise((resolve) => setTimeout(resolve, sent + bodyTimeoutMs + 50 - Date.now()));
    finish();
    let rest = '';
    for (let part = await reader.read(); !part.done; part = await reader.read()) rest += new TextDecoder().decode(part.value);
    expect(rest).toBe('data: [DONE]\n\n');
  });
});

describe('uploads to speech recognition', () => {
  it('takes 4 at once: 16 more of 20 stalled uploads get 429 and are closed before the deadline; the 4 are let go at it', async () => {
    // The deadline must outlast the opening of all 20: on a busy machine (the unit tests run at a
    // low priority beside the browsers) a 2 s one passed first, the 4 were let go, and 3 uploads
    // that came late found their places free and were taken.
    const { url, up } = await kiosk({ bodyTimeoutMs: 8000, maxUploads: 4 });
    const megabyte = Buffer.alloc(1024 * 1024, 'a');
    const uploads = Array.from({ length: 20 }, () => stalledUpload(url, '/api/stt/audio/transcriptions', MULTIPART, 7 * 1024 * 1024, megabyte));
    const events: string[] = [];
    const answers = await Promise.all(
      uploads.map(async (upload) => {
        const answer = await upload.answer;
        const status = answer === 'closed' ? 'no answer' : answer.status;
        events.push(`answer ${status}`);
        await upload.closed;
        events.push(`closed ${status}`);
        return answer;
      }),
    );
    const statuses = answers.map((a) => (a === 'closed' ? 0 : a.status)).sort();
    expect(statuses).toEqual([...Array<number>(4).fill(408), ...Array<number>(16).fill(429)]);
    // Every refused upload was answered and its connection closed before the first deadline
    // passed: nothing of theirs was kept waiting for the rest of a 7 MB body.
    const firstTimeout = events.indexOf('answer 408');
    expect(events.slice(0, firstTimeout).filter((e) => e === 'closed 429')).toHaveLength(16);
    for (const answer of answers) {
      if (answer === 'closed' || answer.status !== 429) continue;
      expect([errorCode(answer), answer.headers['retry-after'], answer.headers['connection']]).toEqual(['busy', '1', 'close']);
      expect(answer.body).toContain('4 recordings are already being transcribed');
    }
    expect(up.received).toEqual([]);

    // Their places are free again.
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array([1, 2, 3])]), 'a.wav');
    expect((await fetch(`${url}/api/stt/audio/transcriptions`, { method: 'POST', body: form })).status).toBe(200);
    expect(up.received).toHaveLength(1);
  });
});

describe('a proxied exchange in which nothing moves', () => {
  it('is closed when the upstream goes quiet in the middle of a stream: the page sees the stream end, the upstream a close', async () => {
    let upstreamClosed!: Promise<boolean>;
    // Quiet from the start counts too: a 200 ms limit passed on a busy machine before the upstream
    // (in this process) had answered at all, and the page got the 504 of an upstream that sent nothing.
    const { url } = await kiosk({ streamIdleMs: 1500 }, (res) => {
      upstreamClosed = closedUpstream(res);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"n":1}\n\n');
    });
    const response = await fetch(`${url}/api/llm/chat/completions`, { method: 'POST', headers: JSON_TYPE, body: '{"messages":[]}' });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: {"n":1}\n\n');
    await expect(reader.read()).rejects.toThrow();
    expect(await upstreamClosed).toBe(false);
    await expectServing(url);
  });

  it('answers 504 when the upstream sends nothing at all', async () => {
    let upstreamClosed!: Promise<boolean>;
    const { url } = await kiosk({ streamIdleMs: 200, headersTimeoutMs: 60_000 }, (res) => {
      upstreamClosed = closedUpstream(res);
    });
    const answer = await send(url, '/api/tts/audio/speech', { method: 'POST', headers: JSON_TYPE, body: '{"input":"Hello"}' });
    expect(answer.status).toBe(504);
    expect(JSON.parse(answer.body)).toEqual({ error: { type: 'upstream_timeout', message: 'The text-to-speech service sent nothing for 200 ms.' } });
    expect(await upstreamClosed).toBe(false);
  });

  it('is closed when the page stops reading a long answer', async () => {
    let upstreamAnswering!: (closed: Promise<boolean>) => void;
    const answering = new Promise<Promise<boolean>>((resolve) => (upstreamAnswering = resolve));
    const { url } = await kiosk({ streamIdleMs: 300 }, (res) => {
      upstreamAnswering(closedUpstream(res));
      res.writeHead(200, { 'content-type': 'audio/wav' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      // Writes as fast as the kiosk takes it, for as long as it does.
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on('drain', pump);
      pump();
    });
    const { hostname, port } = new URL(url);
    const body = '{"input":"A long answer"}';
    const page = connect(Number(port), hostname);
    page.on('error', () => {}); // the kiosk cuts it off: that is the point
    page.write(`POST /api/tts/audio/speech HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    page.pause(); // and never read
    const pageClosed = new Promise<void>((resolve) => page.on('close', () => resolve()));
    expect(await (await answering)).toBe(false);
    page.resume();
    await pageClosed;
    await expectServing(url);
  });
});
