// The page cannot spend the operator's keys beyond what the kiosk itself would: the server picks
// every model, the chat asks for one choice and a capped number of tokens, the voice comes from
// the operator's list, and a transcription form carries the audio and the fields OpenAI's endpoint
// knows, nothing else. The page's own requests (the official OpenAI client, as the operator's
// "Test" sends them) still go through, to the local doubles of the services.

import { describe, expect, it } from 'vitest';
import { checkChat, checkSpeech, checkTranscription } from '../../src/adapters/openai/service-checks.ts';
import { readConfig } from '../../server/config.ts';
import { startFakeOpenAI } from '../servers/openai-fakes.ts';
import { errorCode, send } from '../support/hostile-requests.ts';
import { useServerHarness, type Upstream } from '../support/server-harness.ts';

const KEY = 'sk-spending-2b8e6f01c9d4';
const harness = useServerHarness({ rootPrefix: 'kiosk-spending-', secrets: [KEY] });

const JSON_TYPE = { 'content-type': 'application/json' };

/** The kiosk with all three services on one recording upstream; `maxTokens` and `voices` as given. */
async function kiosk(options: { maxTokens?: number; voices?: string[] } = {}): Promise<{ url: string; up: Upstream }> {
  const up = await harness.startUpstream();
  const url = await harness.startKiosk({
    llm: { baseUrl: up.base, apiKey: KEY, model: 'operator-chat', ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}) },
    stt: { baseUrl: up.base, apiKey: KEY, model: 'operator-whisper' },
    tts: { baseUrl: up.base, apiKey: KEY, model: 'operator-tts', voice: 'alloy', ...(options.voices ? { voices: options.voices } : {}) },
  });
  return { url, up };
}

/** What the upstream got as JSON, request by request. */
const sentJson = (up: Upstream) => up.received.map((r) => JSON.parse(r.body.toString('utf8')) as Record<string, unknown>);

/** A multipart form encoded as a browser would, and its content type. */
async function encode(form: FormData): Promise<{ body: Buffer; type: string }> {
  const request = new Request('http://encode.invalid/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), type: request.headers.get('content-type')! };
}

function audioForm(fields: Array<[string, string | Blob]> = []): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array([82, 73, 70, 70, 1, 2, 3])], { type: 'audio/wav' }), 'speech.wav');
  for (const [name, value] of fields) form.append(name, value);
  return form;
}

describe('chat', () => {
  it('takes the model, the number of choices, the paid tier and the token limit out of the page’s hands', async () => {
    const { url, up } = await kiosk();
    const post = (body: object) => send(url, '/api/llm/chat/completions', { method: 'POST', headers: JSON_TYPE, body: JSON.stringify(body) });
    const messages = [{ role: 'user', content: 'hi' }];
    for (const body of [
      { model: 'o1-pro', n: 128, max_tokens: 100_000, service_tier: 'priority', messages },
      { messages, max_completion_tokens: 50 },
      { messages, max_tokens: 1024 },
      { messages },
      { messages, max_tokens: null, n: 1 },
    ]) {
      expect((await post(body)).status).toBe(200);
    }
    expect(sentJson(up)).toEqual([
      { model: 'operator-chat', n: 1, max_tokens: 1024, messages },
      { model: 'operator-chat', messages, max_completion_tokens: 50 },
      { model: 'operator-chat', messages, max_tokens: 1024 },
      { model: 'operator-chat', messages, max_completion_tokens: 1024 },
      { model: 'operator-chat', messages, n: 1, max_completion_tokens: 1024 },
    ]);
  });

  it('caps at LLM_MAX_TOKENS, and refuses a token limit that is not a whole number above 0', async () => {
    const { url, up } = await kiosk({ maxTokens: 200 });
    const post = (body: object) => send(url, '/api/llm/chat/completions', { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ messages: [], ...body }) });
    expect((await post({ max_tokens: 5000, max_completion_tokens: 300 })).status).toBe(200);
    expect(sentJson(up)[0]).toMatchObject({ max_tokens: 200, max_completion_tokens: 200 });
    for (const limit of [0, -1, 1.5, '100', 'lots', [100], { n: 1 }]) {
      const answer = await post({ max_tokens: limit });
      expect([answer.status, errorCode(answer), answer.body]).toEqual([400, 'invalid_request', expect.stringContaining('max_tokens must be a whole number above 0')]);
    }
    expect(up.received).toHaveLength(1);
  });
});

describe('speech', () => {
  it("always uses the server's model, and a voice from TTS_VOICES (TTS_VOICE when none is named)", async () => {
    const { url, up } = await kiosk({ voices: ['alloy', 'nova'] });
    const post = (body: object) => send(url, '/api/tts/audio/speech', { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ input: 'Hello', ...body }) });
    for (const body of [{ model: 'tts-1-hd', voice: 'nova' }, {}, { voice: '' }, { voice: null }]) expect((await post(body)).status).toBe(200);
    expect(sentJson(up).map((r) => [r['model'], r['voice']])).toEqual([
      ['operator-tts', 'nova'],
      ['operator-tts', 'alloy'],
      ['operator-tts', 'alloy'],
      ['operator-tts', 'alloy'],
    ]);
  });

  it.each([
    ['another voice', { voice: 'shimmer' }, 'The voice "shimmer" is not offered on this kiosk; it speaks with alloy, nova (TTS_VOICES).'],
    ['a custom voice object', { voice: { id: 'voice_1234' } }, 'That voice is not offered on this kiosk; it speaks with alloy, nova (TTS_VOICES).'],
    ['a list of voices', { voice: ['alloy'] }, 'That voice is not offered on this kiosk; it speaks with alloy, nova (TTS_VOICES).'],
  ])('refuses %s, naming the voices it has, and sends nothing', async (_what, body, message) => {
    const { url, up } = await kiosk({ voices: ['alloy', 'nova'] });
    const answer = await send(url, '/api/tts/audio/speech', { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ input: 'Hello', ...body }) });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ error: { type: 'invalid_request', message } });
    expect(up.received).toEqual([]);
  });
});

describe('transcription', () => {
  it("sends the server's model whatever the page names, with the fields OpenAI knows", async () => {
    const { url, up } = await kiosk();
    const form = audioForm([
      ['model', 'gpt-4o-transcribe'],
      ['language', 'de'],
      ['prompt', 'Names: Lindqvist'],
      ['response_format', 'verbose_json'],
      ['temperature', '0'],
      ['timestamp_granularities[]', 'word'],
      ['timestamp_granularities[]', 'segment'],
    ]);
    const { body, type } = await encode(form);
    const answer = await send(url, '/api/stt/audio/transcriptions', { method: 'POST', headers: { 'content-type': type }, body });
    expect(answer.status).toBe(200);
    const got = up.received[0]!;
    const sent = await new Response(got.body, { headers: { 'content-type': got.headers['content-type']! } }).formData();
    expect([...sent.entries()].filter(([name]) => name !== 'file')).toEqual([
      ['model', 'operator-whisper'],
      ['language', 'de'],
      ['prompt', 'Names: Lindqvist'],
      ['response_format', 'verbose_json'],
      ['temperature', '0'],
      ['timestamp_granularities[]', 'word'],
      ['timestamp_granularities[]', 'segment'],
    ]);
  });

  it.each([
    ['an unknown field', audioForm([['stream', 'true']]), 'Unknown field in the transcription form: stream'],
    ['a second model field among unknown ones', audioForm([['model', 'a'], ['model_override', 'b'], ['x-api-key', 'c']]), 'Unknown fields in the transcription form: model_override, x-api-key'],
    ['no file', (() => { const f = new FormData(); f.append('language', 'en'); return f; })(), 'needs exactly one audio file'],
    ['two files', audioForm([['file', new Blob([new Uint8Array([1])]) ]]), 'needs exactly one audio file'],
    ['the file as text', (() => { const f = new FormData(); f.append('file', 'RIFF'); return f; })(), 'needs exactly one audio file'],
    ['a field given twice', audioForm([['language', 'en'], ['language', 'de']]), 'The field "language" is given more than once.'],
    ['a field as a file', audioForm([['prompt', new Blob(['a long prompt'])]]), 'The field "prompt" must be text, not a file.'],
  ])('refuses %s and sends nothing', async (_what, form, message) => {
    const { url, up } = await kiosk();
    const { body, type } = await encode(form);
    const answer = await send(url, '/api/stt/audio/transcriptions', { method: 'POST', headers: { 'content-type': type }, body });
    expect(answer.status).toBe(400);
    expect((JSON.parse(answer.body) as { error: { message: string } }).error.message).toContain(message);
    expect(up.received).toEqual([]);
  });

  it('refuses a form that does not parse', async () => {
    const { url, up } = await kiosk();
    const answer = await send(url, '/api/stt/audio/transcriptions', { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: '--y\r\n\r\nnot this form' });
    expect([answer.status, errorCode(answer)]).toEqual([400, 'invalid_request']);
    expect(up.received).toEqual([]);
  });
});

describe("the page's own requests", () => {
  it('go through to the services as the operator panel sends them, and reach them with the server’s models', async () => {
    const fakes = await startFakeOpenAI();
    harness.onCleanup(() => fakes.close());
    fakes.llm.script([{ reply: { text: 'OK' } }]);
    const config = readConfig({ LLM_BASE_URL: fakes.baseURL, LLM_MODEL: 'fake-chat', LLM_API_KEY: KEY, STT_BASE_URL: fakes.baseURL, STT_MODEL: 'fake-whisper', TTS_BASE_URL: fakes.baseURL, TTS_MODEL: 'fake-tts', TTS_VOICE: 'fable', TTS_VOICES: 'onyx' });
    const url = await harness.startKiosk(config);
    const results = [
      await checkChat(`${url}/api/llm`, 'page-chat'),
      await checkTranscription(`${url}/api/stt`, 'page-whisper', 'en'),
      await checkSpeech(`${url}/api/tts`, 'page-tts', 'onyx'),
    ];
    expect(results.map((r) => r.text)).toEqual([expect.stringMatching(/^Working: answered "OK"/), expect.stringMatching(/^Working: transcribed/), expect.stringMatching(/^Working: spoke/)]);
    expect(fakes.llm.requests.map((r) => [r.model, r['max_tokens'], r['n']])).toEqual([['fake-chat', 8, undefined]]);
    expect(fakes.stt.requests.map((r) => [r.model, r.language, r.response_format])).toEqual([['fake-whisper', 'en', 'json']]);
    expect(fakes.tts.requests.map((r) => [r.model, r.voice])).toEqual([['fake-tts', 'onyx']]);
  });
});
