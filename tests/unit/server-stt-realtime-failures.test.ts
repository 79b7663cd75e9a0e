// /api/stt/realtime when it must not open, and when the service fails: openings from other pages
// or names, without the service or in upload mode, with a bad language or over the limit are
// refused before anything reaches the service; a service that refuses the key, cannot be
// reached, does not answer or drops the socket gives the page one plain error and a close it
// can fall back on; a socket with nothing moving is closed at both ends.

import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiOptions } from '../../server/api.ts';
import { startServer } from '../../server/app.ts';
import type { SttService } from '../../server/config.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../servers/openai-fakes.ts';
import { silencePiece } from '../support/realtime-audio.ts';
import { openPage, refusedOpening, type RealtimePage } from '../support/realtime-page.ts';
import { tempSiteRoot, useServerHarness } from '../support/server-harness.ts';

const KEY = 'sk-rt-failing-2c8e4a6b0d9f1357ZyXw';
const harness = useServerHarness({ rootPrefix: 'kiosk-realtime-fail-', secrets: [KEY, KEY.slice(-12)] });
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

function startKiosk(service: SttService | null = stt(), api: ApiOptions = {}): Promise<string> {
  return harness.startKiosk({ stt: service }, api);
}

/** The one error event the page got, and how its socket closed. */
async function failure(page: RealtimePage): Promise<{ error: Record<string, unknown>; code: number }> {
  const { code } = await page.closed;
  const errors = page.events.filter((event) => event.type === 'error');
  expect(errors).toHaveLength(1);
  return { error: errors[0]!['error'] as Record<string, unknown>, code };
}

describe('/api/stt/realtime refuses to open', () => {
  it('for a page on another origin or a name the kiosk does not answer to (403)', async () => {
    const url = await startKiosk();
    const foreign = await refusedOpening(url, seen, '/api/stt/realtime', { origin: 'https://evil.example' });
    expect(foreign).toMatchObject({ status: 403, body: { error: { type: 'cross_site' } } });
    const site = await refusedOpening(url, seen, '/api/stt/realtime', { 'sec-fetch-site': 'cross-site' });
    expect(site.body.error?.type).toBe('cross_site');
    const rebound = await refusedOpening(url, seen, '/api/stt/realtime', { host: 'attacker.example' });
    expect(rebound).toMatchObject({ status: 403, body: { error: { type: 'host_not_allowed' } } });
    const own = await openPage(url, seen, '/api/stt/realtime', { origin: url });
    await own.next('session.created');
    expect(fakes.realtime.sessions).toHaveLength(1);
  });

  it('without a speech service, or with STT_MODE=upload (503 not_configured)', async () => {
    const none = await refusedOpening(await startKiosk(null), seen);
    expect(none).toMatchObject({ status: 503, body: { error: { type: 'not_configured' } } });
    expect(none.body.error?.message).toContain('STT_BASE_URL');
    const upload = await refusedOpening(await startKiosk(stt({ mode: 'upload' })), seen);
    expect(upload).toMatchObject({ status: 503, body: { error: { type: 'not_configured' } } });
    expect(upload.body.error?.message).toContain('STT_MODE');
    expect(await refusedOpening(await startKiosk(stt({ mode: undefined })), seen)).toMatchObject({ status: 503 });
    expect(fakes.realtime.sessions).toEqual([]);
  });

  it.each(['english', 'EN', 'e', 'en-US', 'en&language=de'])('for language=%s (400)', async (language) => {
    const refused = await refusedOpening(await startKiosk(), seen, `/api/stt/realtime?language=${language}`);
    expect(refused).toMatchObject({ status: 400, body: { error: { type: 'invalid_request' } } });
  });

  it('beyond the open sockets allowed (429), and again once one has closed', async () => {
    const url = await startKiosk(stt(), { sttRealtime: { maxSockets: 2 } });
    const first = await openPage(url, seen);
    await openPage(url, seen);
    const busy = await refusedOpening(url, seen);
    expect(busy).toMatchObject({ status: 429, body: { error: { type: 'busy' } } });
    expect(busy.headers['retry-after']).toBe('1');
    first.socket.close();
    await first.closed;
    await fakes.realtime.whenClosed(1);
    const again = await openPage(url, seen);
    await again.next('session.updated');
  });

  it('at any other address of the kiosk (404)', async () => {
    const url = await startKiosk();
    expect(await refusedOpening(url, seen, '/api/stt/realtime/more')).toMatchObject({ status: 404 });
    expect(await refusedOpening(url, seen, '/')).toMatchObject({ status: 404, body: { error: { type: 'not_found' } } });
  });
});

describe('/api/stt/realtime when the service fails', () => {
  it('gives one plain error and closes 1011 when the service refuses the key (401)', async () => {
    fakes.realtime.failUpgrade(401);
    const page = await openPage(await startKiosk(), seen);
    const { error, code } = await failure(page);
    expect(code).toBe(1011);
    expect(error).toMatchObject({ type: 'server_error', code: 'stt_refused', message: 'The speech-to-text service refused the key (401).' });
    expect(logs.filter((line) => line.includes('/api/stt/realtime 101')).at(-1)).toMatch(/ \d+ms the speech-to-text service refused the key \(401\); 0 events from the page \(0 refused\), 1 to it /);
  });

  it('closes 1013 when the service is over its limit (429)', async () => {
    fakes.realtime.failUpgrade(429);
    const { error, code } = await failure(await openPage(await startKiosk(), seen));
    expect(code).toBe(1013);
    expect(error['code']).toBe('stt_busy');
  });

  it('says so when there is no realtime transcription at the address (404)', async () => {
    const { error, code } = await failure(await openPage(await startKiosk(stt({ baseUrl: `${fakes.baseURL}/nothing` })), seen));
    expect(code).toBe(1011);
    expect(error['message']).toBe('The speech-to-text service has no realtime transcription at STT_BASE_URL (404).');
  });

  it('says so when the service cannot be reached', async () => {
    const closed = createServer();
    const port = await new Promise<number>((resolve) => closed.listen(0, '127.0.0.1', () => resolve((closed.address() as { port: number }).port)));
    await new Promise((resolve) => closed.close(resolve));
    const { error, code } = await failure(await openPage(await startKiosk(stt({ baseUrl: `http://127.0.0.1:${port}/v1` })), seen));
    expect(code).toBe(1011);
    expect(error).toMatchObject({ code: 'stt_unreachable', message: 'The speech-to-text service could not be reached (ECONNREFUSED).' });
  });

  it('gives up on a service that does not open the session in time', async () => {
    fakes.realtime.failUpgrade('hang');
    const page = await openPage(await startKiosk(stt(), { sttRealtime: { openTimeoutMs: 300 } }), seen);
    const { error, code } = await failure(page);
    expect(code).toBe(1011);
    expect(error).toMatchObject({ code: 'stt_timeout', message: 'The speech-to-text service did not open a session within 300 ms.' });
  });

  it('gives one plain error and closes 1011 when the service drops the socket mid-turn', async () => {
    fakes.realtime.drop('append');
    const page = await openPage(await startKiosk(), seen);
    await page.next('session.updated');
    page.send({ type: 'input_audio_buffer.append', audio: silencePiece(200) });
    const { error, code } = await failure(page);
    expect(code).toBe(1011);
    expect(error).toMatchObject({ code: 'stt_closed', message: 'The speech-to-text service closed the session (1006).' });
    expect(fakes.realtime.sessions[0]!.dropped).toBe('append');
  });

  it('closes both sockets when nothing moves either way', async () => {
    const page = await openPage(await startKiosk(stt(), { streamIdleMs: 300 }), seen);
    await page.next('session.updated');
    expect(await page.closed).toEqual({ code: 1000, reason: 'idle' });
    await fakes.realtime.whenClosed(1);
    expect(logs.some((line) => /WS \/api\/stt\/realtime 101 \d+ms idle for 300 ms;/.test(line))).toBe(true);
  });

  it('closes the page (1008) after too many refused events', async () => {
    const page = await openPage(await startKiosk(stt(), { sttRealtime: { maxRefusals: 3 } }), seen);
    for (let i = 0; i < 5; i++) page.send({ type: 'response.create' });
    expect((await page.closed).code).toBe(1008);
    expect(page.errorCodes()).toEqual(['unknown_event', 'unknown_event', 'unknown_event']);
    await fakes.realtime.whenClosed(1);
  });

  it('closes the relayed sockets (1001) when the kiosk stops, without waiting for them', async () => {
    const root = tempSiteRoot('kiosk-realtime-stop-');
    harness.onCleanup(() => rmSync(root, { recursive: true, force: true }));
    const server = await startServer({ root, config: { llm: null, stt: stt(), tts: null }, host: '127.0.0.1', port: 0, memory: await harness.memory(), quiet: true });
    const page = await openPage(server.url, seen);
    await page.next('session.updated');
    await server.close();
    expect((await page.closed).code).toBe(1001);
    await fakes.realtime.whenClosed(1);
  });
});
