// /api/stt/realtime through the kiosk's real server to the Realtime transcription double: the
// server configures the session itself, adds the key, passes on only the page's audio events
// (rebuilt), holds what comes before the service is open, and gives the page only the
// transcription's events, scrubbed of the key. Real sockets; nothing is mocked.

import { createServer } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { ApiOptions } from '../../server/api.ts';
import type { SttService } from '../../server/config.ts';
import { PASSED_TO_PAGE } from '../../server/stt-realtime-events.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../servers/openai-fakes.ts';
import { fixtureLine24k, pcm16Pieces, silencePiece } from '../support/realtime-audio.ts';
import { openPage } from '../support/realtime-page.ts';
import { listen, useServerHarness } from '../support/server-harness.ts';

const KEY = 'sk-rt-7f3a9c1e5b2d8046QxWvLp';
const harness = useServerHarness({ rootPrefix: 'kiosk-realtime-', secrets: [KEY, KEY.slice(-12)] });
const { logs, seen } = harness;

let fakes: FakeOpenAI;
beforeAll(async () => {
  fakes = await startFakeOpenAI();
});
afterAll(() => fakes.close());
beforeEach(() => fakes.reset());

function stt(overrides: Partial<SttService> = {}): SttService {
  return { baseUrl: fakes.baseURL, apiKey: KEY, model: 'gpt-4o-transcribe', mode: 'realtime', ...overrides };
}

function startKiosk(service: SttService = stt(), api: ApiOptions = {}): Promise<string> {
  return harness.startKiosk({ stt: service }, api);
}

const EXPECTED_UPDATE = {
  type: 'transcription',
  audio: { input: { format: { type: 'audio/pcm', rate: 24000 }, transcription: { model: 'gpt-4o-transcribe', language: 'de' }, turn_detection: null } },
};

describe('/api/stt/realtime, relayed', () => {
  it('configures the session itself, with the key, and the page reads the transcript', async () => {
    fakes.stt.script([{ text: 'My name is Maria Garcia', minSpeechMs: 800, maxSpeechMs: 2200 }]);
    const page = await openPage(await startKiosk(), seen, '/api/stt/realtime?language=de');
    await page.next('session.created');
    const updated = await page.next('session.updated');
    expect(updated['session']).toMatchObject(EXPECTED_UPDATE);
    const [session] = fakes.realtime.sessions;
    expect(session).toMatchObject({ url: '/v1/realtime?intent=transcription', authorization: `Bearer ${KEY}`, model: 'gpt-4o-transcribe', language: 'de' });
    expect(session!.updates).toEqual([EXPECTED_UPDATE]);

    const pieces = pcm16Pieces(fixtureLine24k('clinic', 0));
    for (const audio of pieces) page.send({ type: 'input_audio_buffer.append', audio });
    page.send({ type: 'input_audio_buffer.commit', event_id: 'turn-1' });
    const completed = await page.next('conversation.item.input_audio_transcription.completed');
    expect(completed['transcript']).toBe('My name is Maria Garcia');
    expect(session!.received).toEqual(['session.update', ...pieces.map(() => 'input_audio_buffer.append'), 'input_audio_buffer.commit']);
    expect(fakes.realtime.commits[0]).toMatchObject({ appends: pieces.length, transcript: 'My name is Maria Garcia' });

    const types = page.types();
    expect(types).toContain('conversation.item.input_audio_transcription.delta');
    expect(types).toContain('conversation.item.added');
    expect(types.every((type) => PASSED_TO_PAGE.has(type))).toBe(true);
    // The double ends each item with conversation.item.done, which the page is not given.
    await page.next('conversation.item.added');
    expect(types).not.toContain('conversation.item.done');
    expect(seen.join('\n')).not.toContain(KEY);
  });

  it('names no language when the page gives none, and sends no key when none is set', async () => {
    const page = await openPage(await startKiosk(stt({ apiKey: undefined })), seen);
    const updated = await page.next('session.updated');
    expect((updated['session'] as { audio: { input: { transcription: object } } }).audio.input.transcription).toEqual({ model: 'gpt-4o-transcribe' });
    expect(fakes.realtime.sessions[0]!.authorization).toBeUndefined();
    expect(fakes.realtime.sessions[0]!.updates).toEqual([{ ...EXPECTED_UPDATE, audio: { input: { ...EXPECTED_UPDATE.audio.input, transcription: { model: 'gpt-4o-transcribe' } } } }]);
  });

  it("refuses the page's own session.update, unknown events, bad JSON and binary frames, and passes none on", async () => {
    const page = await openPage(await startKiosk(), seen);
    await page.next('session.updated');
    page.send({ type: 'session.update', event_id: 'mine', session: { type: 'transcription', audio: { input: { transcription: { model: 'whisper-1', prompt: 'spend more' } } } } });
    page.send({ type: 'response.create' });
    page.send('{"type": "input_audio_buffer.append", ');
    page.send({ type: 'input_audio_buffer.append', audio: 'not base64!' });
    page.send({ type: 'input_audio_buffer.append', audio: Buffer.from([1, 2, 3]).toString('base64') });
    page.send({ type: 'input_audio_buffer.commit', event_id: 42 });
    page.send(`${'['.repeat(100)}${']'.repeat(100)}`);
    page.socket.send(Buffer.from([1, 2, 3, 4]), { binary: true });
    page.send({ type: 'input_audio_buffer.clear', event_id: 'after', extra: { session: 'no' } });
    await page.next('input_audio_buffer.cleared');
    expect(page.errorCodes()).toEqual(['not_allowed', 'unknown_event', 'invalid_json', 'invalid_audio', 'invalid_audio', 'invalid_event_id', 'too_deep', 'binary_not_accepted']);
    const refusal = (await page.next('error'))['error'];
    expect(refusal).toMatchObject({ type: 'invalid_request_error', code: 'not_allowed', event_id: 'mine' });
    expect(fakes.realtime.sessions[0]!.received).toEqual(['session.update', 'input_audio_buffer.clear']);
    expect(fakes.realtime.sessions[0]!.updates).toHaveLength(1);
    expect(fakes.realtime.sessions[0]!.model).toBe('gpt-4o-transcribe');
  });

  it('refuses an event over its limit in words, and closes the socket on one far over it', async () => {
    const page = await openPage(await startKiosk(stt(), { sttRealtime: { maxMessageBytes: 64 * 1024 } }), seen);
    await page.next('session.updated');
    page.send({ type: 'input_audio_buffer.append', audio: silencePiece(1500) }); // 96 KB of base64
    expect((await page.next('error'))['error']).toMatchObject({ code: 'message_too_large' });
    page.send({ type: 'input_audio_buffer.append', audio: silencePiece(1100) }); // 70 KB
    expect((await page.next('error'))['error']).toMatchObject({ code: 'message_too_large' });
    page.send({ type: 'input_audio_buffer.append', audio: silencePiece(500) });
    page.send({ type: 'input_audio_buffer.commit' });
    await page.next('input_audio_buffer.committed');
    expect(fakes.realtime.sessions[0]!.received).toEqual(['session.update', 'input_audio_buffer.append', 'input_audio_buffer.commit']);
    page.send({ type: 'input_audio_buffer.append', audio: silencePiece(3000) }); // 192 KB: over twice the limit
    expect((await page.closed).code).toBe(1009);
    await fakes.realtime.whenClosed(1);
  });

  it('holds what the page sends before the service is open, and passes it on in order after the session.update', async () => {
    fakes.stt.script([{ text: 'yes' }]);
    const release = fakes.realtime.holdUpgrades();
    const page = await openPage(await startKiosk(), seen);
    await fakes.realtime.whenHeld(1);
    const pieces = pcm16Pieces(fixtureLine24k('clinic', 2));
    for (const [i, audio] of pieces.entries()) page.send({ type: 'input_audio_buffer.append', event_id: `a${i}`, audio });
    page.send({ type: 'input_audio_buffer.commit' });
    // An event the relay refuses at once: when its error comes back, everything before it was read.
    page.send({ type: 'ping' });
    await page.next('error');
    expect(fakes.realtime.sessions).toEqual([]);
    release();
    expect((await page.next('conversation.item.input_audio_transcription.completed'))['transcript']).toBe('yes');
    expect(fakes.realtime.sessions[0]!.received).toEqual(['session.update', ...pieces.map(() => 'input_audio_buffer.append'), 'input_audio_buffer.commit']);
    expect(fakes.realtime.commits[0]!.appends).toBe(pieces.length);
  });

  it('closes the page (1009) when more than it may hold comes before the service is open', async () => {
    fakes.realtime.holdUpgrades();
    const page = await openPage(await startKiosk(stt(), { sttRealtime: { maxQueuedBytes: 100 * 1024 } }), seen);
    await fakes.realtime.whenHeld(1);
    for (let i = 0; i < 5; i++) page.send({ type: 'input_audio_buffer.append', audio: silencePiece(500) });
    expect((await page.next('error'))['error']).toMatchObject({ type: 'invalid_request_error', code: 'queue_full' });
    expect((await page.closed).code).toBe(1009);
  });

  it('closes the service socket as soon as the page closes, and logs one line without the key', async () => {
    const url = await startKiosk();
    const ours = () => logs.slice(before).filter((line) => line.includes('/api/stt/realtime'));
    const before = logs.length;
    const page = await openPage(url, seen);
    await page.next('session.updated');
    page.send({ type: 'input_audio_buffer.append', audio: silencePiece(200) });
    page.send({ type: 'response.create' });
    await page.next('error');
    page.socket.close(1000);
    await fakes.realtime.whenClosed(1);
    expect(fakes.realtime.sessions[0]!.closeCode).toBe(1000);
    // The line is written before the service's socket is closed, so it is there by now.
    expect(ours()).toHaveLength(1);
    const [line] = ours();
    expect(line).toMatch(/^\[api\] WS \/api\/stt\/realtime 101 \d+ms closed by the page \(1000\); 2 events from the page \(1 refused\), \d+ to it \(0 of the service's dropped\)$/);
  });

  it("takes the key out of whatever the service says, and drops the service's other events", async () => {
    // A service that repeats the key it was given, and sends events the page has no use for.
    const wss = new WebSocketServer({ noServer: true });
    const http = createServer();
    http.on('upgrade', (req, socket, head) =>
      wss.handleUpgrade(req, socket, head, (ws) => {
        ws.send(JSON.stringify({ type: 'error', event_id: 'e1', error: { type: 'invalid_request_error', code: 'x', message: `Bad key ${req.headers.authorization}; ${Buffer.from(KEY).toString('base64')}` } }));
        ws.send(JSON.stringify({ type: 'response.output_audio.delta', delta: KEY }));
        ws.send(Buffer.from(KEY), { binary: true });
        ws.send('not json');
        ws.send(JSON.stringify({ type: 'rate_limits.updated', rate_limits: [] }));
        ws.send(JSON.stringify({ type: 'conversation.item.input_audio_transcription.delta', item_id: 'i', delta: `…${KEY}…` }));
      }),
    );
    const port = await listen(http);
    harness.onCleanup(() => new Promise<void>((done) => {
      for (const client of wss.clients) client.terminate();
      http.close(() => done());
    }));
    const page = await openPage(await startKiosk(stt({ baseUrl: `http://127.0.0.1:${port}/v1` })), seen);
    const delta = await page.next('conversation.item.input_audio_transcription.delta');
    expect(page.types()).toEqual(['error', 'conversation.item.input_audio_transcription.delta']);
    expect(delta['delta']).toBe('…[redacted]…');
    expect(JSON.stringify(page.events)).not.toContain(KEY);
    expect(JSON.stringify(page.events)).not.toContain(Buffer.from(KEY).toString('base64'));
    expect(JSON.stringify(page.events[0])).toContain('Bad key Bearer [redacted]');
  });
});
