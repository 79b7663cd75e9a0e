// The streaming socket, /api/stt/realtime, under attack (issue 29, points 5 and 8): a page that
// never reads its socket while it keeps the service answering had the server queue everything for
// it, without limit (441,746 events, 221 MB in 40 s); and the service's error naming the key
// masked (`sk-stt-s***…6789`) reached the page as it was, where the upload route redacts it. A
// real kiosk server in front of a real WebSocket service speaking the Realtime protocol.

import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { openPage } from '../support/realtime-page.ts';
import { closeServer, json, listen, useServerHarness } from '../support/server-harness.ts';

const KEY = 'sk-stt-s0Qz9Wv4Lx2Nf7Rb6789';
/** How OpenAI echoes a key it refuses: its first 8 characters and last 4, the rest starred. */
const MASKED = `${KEY.slice(0, 8)}${'*'.repeat(KEY.length - 12)}${KEY.slice(-4)}`;
const REFUSED_KEY = `Incorrect API key provided: ${MASKED}. You can find your API key at https://platform.openai.com/account/api-keys.`;
const harness = useServerHarness({ rootPrefix: 'kiosk-socket-', secrets: [KEY, MASKED, KEY.slice(-12)] });

interface Service {
  baseUrl: string;
  /** resolves when the kiosk's socket to the service has closed */
  closed: Promise<void>;
  /** events the service sent */
  sent: () => number;
}

/**
 * A Realtime transcription service on `/v1/realtime`: `opened` runs as the kiosk's socket opens,
 * `answer` for each event the kiosk sends (its events, as the service's JSON texts).
 */
async function startService(opened: (send: (event: object) => void) => void, answer: (type: string, send: (event: object) => void) => void = () => {}): Promise<Service> {
  const sockets = new WebSocketServer({ noServer: true });
  let sent = 0;
  let closed!: () => void;
  const whenClosed = new Promise<void>((resolve) => (closed = resolve));
  const server = createServer((_req, res) => json(res, 401, { error: { message: REFUSED_KEY, type: 'invalid_request_error', code: 'invalid_api_key' } }));
  server.on('upgrade', (req, socket, head) =>
    sockets.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      const send = (event: object) => {
        sent += 1;
        ws.send(JSON.stringify(event));
      };
      ws.on('close', () => closed());
      ws.on('message', (data) => answer((JSON.parse(String(data)) as { type: string }).type, send));
      send({ type: 'session.created', session: { type: 'transcription' } });
      opened(send);
    }),
  );
  const port = await listen(server);
  harness.onCleanup(() => {
    for (const socket of sockets.clients) socket.terminate();
    return closeServer(server);
  });
  return { baseUrl: `http://127.0.0.1:${port}/v1`, closed: whenClosed, sent: () => sent };
}

const realtime = (baseUrl: string) => ({ stt: { baseUrl, apiKey: KEY, model: 'gpt-4o-transcribe', mode: 'realtime' as const } });

describe('a page that does not read its socket', () => {
  it('has at most the queue toward it (256 KB here) held for it: past that both sockets close, the page with 1008', async () => {
    // Each commit is answered with 8 words of 32 KB: what a service sends, in large pieces, so that the
    // 4 MB the system's own buffers take on a local connection fill in a few dozen commits.
    const delta = 'w'.repeat(32 * 1024);
    const service = await startService(
      () => {},
      (type, send) => {
        if (type !== 'input_audio_buffer.commit') return;
        for (let i = 0; i < 8; i++) send({ type: 'conversation.item.input_audio_transcription.delta', item_id: 'item_1', content_index: 0, delta });
      },
    );
    const kiosk = await harness.startKiosk(realtime(service.baseUrl), { sttRealtime: { maxPageQueueBytes: 256 * 1024 } });
    const page = await openPage(kiosk, []);
    await page.next('session.created');
    page.socket.pause();
    let serviceClosed = false;
    void service.closed.then(() => (serviceClosed = true));
    // 120 commits would put 30 MB toward the page; the server lets go of it long before.
    for (let i = 0; i < 120 && !serviceClosed; i++) {
      page.send({ type: 'input_audio_buffer.commit' });
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await Promise.race([service.closed, new Promise((resolve) => setTimeout(resolve, 3000))]);
    expect(serviceClosed).toBe(true);
    expect(service.sent()).toBeLessThan(8 * 60);
    page.socket.resume();
    expect((await page.closed).code).toBe(1008);
    expect(harness.logs.join('\n')).toMatch(/WS \/api\/stt\/realtime 101 \d+ms the page is not reading its socket/);
  });
});

describe("the service's words about the key", () => {
  it('reach the page with the key taken out, masked or not, as the upload route takes it out', async () => {
    const service = await startService((send) => {
      send({ type: 'error', event_id: 'event_1', error: { type: 'invalid_request_error', code: 'invalid_api_key', message: REFUSED_KEY, param: null } });
      send({ type: 'error', event_id: 'event_2', error: { type: 'invalid_request_error', code: null, message: 'Another key, sk-proj-AbCdEf0123456789xYz, is not this one', param: null } });
      send({ type: 'conversation.item.input_audio_transcription.failed', item_id: 'item_1', content_index: 0, error: { type: 'server_error', code: 'auth', message: `Key ${MASKED} expired` } });
    });
    const kiosk = await harness.startKiosk(realtime(service.baseUrl));
    const page = await openPage(kiosk, harness.seen);
    const first = (await page.next('error'))['error'] as { message: string };
    const second = (await page.next('error'))['error'] as { message: string };
    const failed = (await page.next('conversation.item.input_audio_transcription.failed'))['error'] as { message: string };

    const form = new FormData();
    form.append('file', new Blob([new Uint8Array([1, 2, 3, 4])]), 'turn.wav');
    const upload = await fetch(`${kiosk}/api/stt/audio/transcriptions`, { method: 'POST', body: form });
    const uploaded = ((await upload.json()) as { error: { message: string } }).error.message;
    harness.seen.push(uploaded);

    expect(uploaded).toBe('Incorrect API key provided: [redacted] You can find your API key at https://platform.openai.com/account/api-keys.');
    expect(first.message).toBe(uploaded);
    expect(second.message).toBe('Another key, [redacted], is not this one');
    expect(failed.message).toBe('Key [redacted] expired');
    expect(page.events.map((event) => JSON.stringify(event)).join('\n')).not.toMatch(/sk-|\*\*\*/);
  });
});
