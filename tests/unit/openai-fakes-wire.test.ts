// The fakes against the official `openai` client: if the SDK reads every answer (streams, tool
// fragments, audio, errors) as it reads OpenAI's, the fakes have not drifted from the protocol.

import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  BadRequestError,
  InternalServerError,
  OpenAIError,
  RateLimitError,
  toFile,
} from 'openai';
import type { ChatCompletionChunk, ChatCompletionTool } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decodeWav, encodeWav } from '../../src/voice/wav.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../servers/openai-fakes.ts';

let fake: FakeOpenAI;
let client: OpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  client = new OpenAI({ baseURL: fake.baseURL, apiKey: 'sk-test', maxRetries: 0, logLevel: 'off' });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const tools: ChatCompletionTool[] = [
  {
    type: 'function',
    function: {
      name: 'book_table',
      description: 'Books a table',
      parameters: { type: 'object', properties: { party: { type: 'integer' }, time: { type: 'string' } }, required: ['party', 'time'] },
    },
  },
  { type: 'function', function: { name: 'add_note', description: 'Adds a note', parameters: { type: 'object', properties: { text: { type: 'string' } } } } },
];
const booking = { party: 4, time: '19:30', name: 'Ada Lovelace' };
const note = { text: 'a quiet table by the window, please' };

function scriptBooking(): void {
  fake.llm.script([
    {
      when: { user: /table/ },
      reply: { text: 'Booking a table for four.', tool_calls: [{ name: 'book_table', arguments: booking }, { name: 'add_note', arguments: note }] },
    },
  ]);
}

const ask = [{ role: 'system' as const, content: 'You book tables.' }, { role: 'user' as const, content: 'A table for four at half past seven' }];

/** One second of 200 Hz at amplitude `level`, between stretches of silence, at 16 kHz. */
function speech(silenceMs: number, toneMs: number, level = 0.3): Float32Array {
  const rate = 16_000;
  const at = (ms: number) => Math.round((ms / 1000) * rate);
  const out = new Float32Array(at(silenceMs * 2 + toneMs));
  for (let i = at(silenceMs); i < at(silenceMs + toneMs); i++) out[i] = level * Math.sin((2 * Math.PI * 200 * i) / rate);
  return out;
}

describe('chat completions', () => {
  it('streams text and tool-call fragments that the SDK reassembles', async () => {
    scriptBooking();
    const stream = await client.chat.completions.create({ model: 'gpt-test', messages: ask, tools, stream: true });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);

    const first = chunks[0]!;
    expect(first.object).toBe('chat.completion.chunk');
    expect(first.id).toMatch(/^chatcmpl-/);
    expect(first.model).toBe('gpt-test');
    expect(first.choices[0]!.delta).toMatchObject({ role: 'assistant', content: '' });
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);

    const texts = chunks.map((c) => c.choices[0]!.delta.content).filter((t): t is string => !!t);
    expect(texts.length).toBeGreaterThan(3);
    expect(Math.max(...texts.map((t) => t.length))).toBeLessThanOrEqual(6);
    expect(texts.join('')).toBe('Booking a table for four.');

    const fragments = chunks.flatMap((c) => c.choices[0]!.delta.tool_calls ?? []);
    for (const [index, args] of [booking, note].entries()) {
      const mine = fragments.filter((f) => f.index === index);
      expect(mine[0]).toMatchObject({ id: expect.stringMatching(/^call_/), type: 'function', function: { arguments: '' } });
      expect(mine.slice(1).length).toBeGreaterThanOrEqual(3);
      expect(mine.slice(1).every((f) => f.id === undefined && f.function?.name === undefined)).toBe(true);
      expect(JSON.parse(mine.map((f) => f.function?.arguments ?? '').join(''))).toEqual(args);
    }
    expect(fragments.find((f) => f.index === 0)?.function?.name).toBe('book_table');

    const last = chunks[chunks.length - 1]!;
    expect(last.choices[0]).toMatchObject({ delta: {}, finish_reason: 'tool_calls' });
    expect(chunks.slice(0, -1).every((c) => c.choices[0]!.finish_reason === null)).toBe(true);
  });

  it('writes server-sent events exactly: data lines, blank lines, [DONE]', async () => {
    const response = await fetch(`${fake.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-test', messages: ask, stream: true }),
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = (await response.text()).split('\n\n');
    expect(events.pop()).toBe('');
    expect(events.pop()).toBe('data: [DONE]');
    for (const event of events) expect(event).toMatch(/^data: \{.*\}$/s);
    const parsed = events.map((e) => JSON.parse(e.slice(6)) as ChatCompletionChunk);
    expect(parsed[0]).toMatchObject({ object: 'chat.completion.chunk', system_fingerprint: null, choices: [{ index: 0, logprobs: null, finish_reason: null }] });
    expect(parsed.map((c) => c.choices[0]!.delta.content ?? '').join('')).toBe('Okay.');
    expect(parsed[parsed.length - 1]!.choices[0]!.finish_reason).toBe('stop');
  });

  it("gives the SDK's own stream helper the same tool calls", async () => {
    scriptBooking();
    const final = await client.chat.completions.stream({ model: 'gpt-test', messages: ask, tools }).finalChatCompletion();
    const message = final.choices[0]!.message;
    expect(message.content).toBe('Booking a table for four.');
    const calls = message.tool_calls!.map((c) => (c.type === 'function' ? [c.function.name, JSON.parse(c.function.arguments)] : []));
    expect(calls).toEqual([['book_table', booking], ['add_note', note]]);
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('answers stream: false with a chat.completion', async () => {
    scriptBooking();
    const completion = await client.chat.completions.create({ model: 'gpt-test', messages: ask, tools });
    expect(completion.object).toBe('chat.completion');
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBe('Booking a table for four.');
    const call = choice.message.tool_calls![0]!;
    expect(call.type === 'function' && JSON.parse(call.function.arguments)).toEqual(booking);
  });

  it('says nothing after a tool result no rule expects, and "Okay." otherwise', async () => {
    const history = [
      ...ask,
      { role: 'assistant' as const, content: null, tool_calls: [{ id: 'call_1', type: 'function' as const, function: { name: 'book_table', arguments: '{}' } }] },
      { role: 'tool' as const, tool_call_id: 'call_1', content: '{"ok":true}' },
    ];
    const afterTool = await client.chat.completions.create({ model: 'gpt-test', messages: history });
    expect(afterTool.choices[0]).toMatchObject({ finish_reason: 'stop', message: { content: '' } });
    const plain = await client.chat.completions.create({ model: 'gpt-test', messages: ask });
    expect(plain.choices[0]!.message.content).toBe('Okay.');
  });

  it('matches rules on the user, the system prompt and the last role, and drops once-rules', async () => {
    fake.llm.script([
      { when: { system: /tables/, user: /four/ }, reply: { text: 'first' }, once: true },
      { when: { system: /tables/ }, reply: { text: 'second' } },
    ]);
    const text = async () => (await client.chat.completions.create({ model: 'm', messages: ask })).choices[0]!.message.content;
    expect(await text()).toBe('first');
    expect(await text()).toBe('second');
    expect(fake.llm.requests).toHaveLength(2);
  });

  it('refuses what OpenAI refuses: unanswered tool calls, empty tools, five stop phrases', async () => {
    const unanswered = [...ask, { role: 'assistant' as const, content: null, tool_calls: [{ id: 'call_9', type: 'function' as const, function: { name: 'x', arguments: '{}' } }] }];
    await expect(client.chat.completions.create({ model: 'm', messages: unanswered })).rejects.toThrow(/call_9/);
    await expect(client.chat.completions.create({ model: 'm', messages: ask, tools: [] })).rejects.toBeInstanceOf(BadRequestError);
    const stop = ['a', 'b', 'c', 'd', 'e'];
    await expect(client.chat.completions.create({ model: 'm', messages: ask, stop })).rejects.toMatchObject({ status: 400, param: 'stop' });
    expect(fake.llm.requests).toHaveLength(0);
  });
});

describe('audio', () => {
  it('transcribes a WAV sent by the SDK and records what it was sent', async () => {
    fake.stt.script([{ text: 'A table for four', minSpeechMs: 900, maxSpeechMs: 1100 }]);
    const file = await toFile(Buffer.from(encodeWav(speech(500, 1000), 16_000)), 'a.wav');
    const answer = await client.audio.transcriptions.create({ file, model: 'whisper-1', language: 'en', response_format: 'json' });
    expect(answer.text).toBe('A table for four');
    expect(fake.stt.requests[0]).toMatchObject({ model: 'whisper-1', language: 'en', response_format: 'json', fileName: 'a.wav' });
    expect(fake.stt.requests[0]).toMatchObject({ sampleRate: 16_000, channels: 1, bitsPerSample: 16, durationMs: 2000 });
    expect(fake.stt.requests[0]!.speechMs).toBeGreaterThanOrEqual(980);
    expect(fake.stt.requests[0]!.speechMs).toBeLessThanOrEqual(1020);
  });

  it('answers text and verbose_json, flags a segment of the wrong length, and hears nothing in silence', async () => {
    fake.stt.script([{ text: 'one' }, { text: 'two' }, { text: 'three', maxSpeechMs: 500 }, { text: 'four' }]);
    const wav = async (toneMs: number) => toFile(Buffer.from(encodeWav(speech(200, toneMs), 16_000)), 's.wav', { type: 'audio/wav' });
    expect(await client.audio.transcriptions.create({ file: await wav(400), model: 'w', response_format: 'text' })).toBe('one\n');
    const verbose = await client.audio.transcriptions.create({ file: await wav(400), model: 'w', language: 'de', response_format: 'verbose_json' });
    expect(verbose).toMatchObject({ text: 'two', language: 'german', duration: 0.8, segments: [] });
    const long = await client.audio.transcriptions.create({ file: await wav(700), model: 'w' });
    expect(long.text).toBe('[unexpected segment of 700 ms]');
    const silent = await client.audio.transcriptions.create({ file: await toFile(Buffer.from(encodeWav(new Float32Array(8000), 16_000)), 'q.wav'), model: 'w' });
    expect(silent.text).toBe('');
    expect(fake.stt.pending).toEqual([{ text: 'four' }]);
  });

  it('refuses a file that is not a WAV, and a request that is not multipart', async () => {
    const bad = client.audio.transcriptions.create({ file: await toFile(Buffer.from('not audio'), 'x.wav'), model: 'w' });
    await expect(bad).rejects.toMatchObject({ status: 400, param: 'file', type: 'invalid_request_error' });
    const json = await fetch(`${fake.baseURL}/audio/transcriptions`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(json.status).toBe(400);
    expect((await json.json()) as unknown).toMatchObject({ error: { type: 'invalid_request_error', param: null, code: null } });
  });

  it('speaks a WAV that decodes, as long as the text, and raw PCM', async () => {
    const response = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello there', response_format: 'wav' });
    expect(response.headers.get('content-type')).toBe('audio/wav');
    const wav = decodeWav(new Uint8Array(await response.arrayBuffer()));
    expect(wav).toMatchObject({ sampleRate: 24_000, channels: 1, bitsPerSample: 16 });
    expect(wav.samples.length).toBe(24 * 440); // 11 characters at 40 ms
    expect(Math.max(...wav.samples)).toBeGreaterThan(0.05);
    expect(fake.tts.requests[0]).toEqual({ model: 'tts-1', voice: 'alloy', input: 'Hello there', response_format: 'wav' });

    fake.tts.durationFor = (text) => (text === 'Hi' ? 1000 : undefined);
    const pcm = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hi', response_format: 'pcm' });
    expect((await pcm.arrayBuffer()).byteLength).toBe(24_000 * 2);
    await expect(client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hi' })).rejects.toBeInstanceOf(BadRequestError);
  });

  it('streams pcm in chunks at its pace: the first arrives while the rest is still to be sent', async () => {
    fake.tts.durationFor = () => 1000;
    Object.assign(fake.tts, { firstChunkMs: 50, chunkMs: 100, realTimeFactor: 0.5 });
    const asked = Date.now();
    const response = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'A long sentence.', response_format: 'pcm' });
    expect(response.headers.get('content-type')).toBe('audio/pcm');
    expect(response.headers.get('content-length')).toBeNull();
    const reader = response.body!.getReader();
    const first = await reader.read();
    const firstAt = Date.now();
    let bytes = first.value!.byteLength;
    for (let part = await reader.read(); !part.done; part = await reader.read()) bytes += part.value.byteLength;
    expect(bytes).toBe(24_000 * 2);
    const [delivery] = fake.tts.deliveries;
    expect(delivery).toMatchObject({ input: 'A long sentence.', format: 'pcm', audioMs: 1000, chunks: 10, sent: 10, gone: false });
    expect(delivery!.firstChunkAt! - asked).toBeGreaterThanOrEqual(45);
    // Nine more chunks, 50 ms apart: the first was read about 450 ms before the last went out.
    expect(delivery!.lastChunkAt! - delivery!.firstChunkAt!).toBeGreaterThanOrEqual(400);
    expect(firstAt).toBeLessThan(delivery!.lastChunkAt!);
  });

  it('streams a WAV too, whose pieces join into one that decodes', async () => {
    fake.tts.durationFor = () => 500;
    fake.tts.chunkMs = 100;
    const response = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hi', response_format: 'wav' });
    const wav = decodeWav(new Uint8Array(await response.arrayBuffer()));
    expect(wav.samples.length).toBe(12_000);
    expect(fake.tts.deliveries[0]).toMatchObject({ format: 'wav', chunks: 5, sent: 5 });
  });

  it('as a service that knows no pcm, refuses it with a 400 about response_format, and still speaks wav', async () => {
    fake.tts.refusePcm = true;
    const refused = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hi', response_format: 'pcm' }).then(() => null, (e: unknown) => e);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect(refused).toMatchObject({ status: 400, param: 'response_format', type: 'invalid_request_error', message: expect.stringContaining("'pcm'") });
    const wav = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hi', response_format: 'wav' });
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    expect(fake.tts.requests.map((r) => r.response_format)).toEqual(['pcm', 'wav']);
  });

  it('holds a stream open after some chunks, and sees the client go away', async () => {
    fake.tts.holdAfterChunks = 2;
    const controller = new AbortController();
    const response = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello there', response_format: 'pcm' }, { signal: controller.signal });
    const reader = response.body!.getReader();
    let bytes = 0;
    while (bytes < 2 * 4800) bytes += (await reader.read()).value!.byteLength;
    expect(fake.tts.deliveries[0]).toMatchObject({ sent: 2, gone: false });
    controller.abort();
    await fake.tts.whenAborted(1);
    expect(fake.tts.deliveries[0]!.gone).toBe(true);
    expect(fake.tts.deliveries[0]!.lastChunkAt).toBeUndefined();
  });
});

describe('failures, as the SDK sees them', () => {
  const chat = (signal?: AbortSignal, timeout?: number) =>
    client.chat.completions.create({ model: 'm', messages: ask, stream: true }, { ...(signal ? { signal } : {}), ...(timeout ? { timeout } : {}) });
  const hear = async () => client.audio.transcriptions.create({ file: await toFile(Buffer.from(encodeWav(speech(100, 300), 16_000)), 'a.wav'), model: 'w' });
  const speak = () => client.audio.speech.create({ model: 't', voice: 'v', input: 'Hi', response_format: 'wav' });

  it.each([
    ['http_500', InternalServerError, 500],
    ['http_429', RateLimitError, 429],
  ] as const)('%s is an APIError with its status, for every service', async (mode, kind, status) => {
    fake.llm.fail(mode);
    fake.stt.fail(mode);
    fake.tts.fail(mode);
    for (const call of [() => chat(), hear, speak]) {
      const error = await call().then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(kind);
      expect(error).toMatchObject({ status, error: { message: expect.any(String), type: expect.any(String) } });
    }
  });

  it('refuse is an APIConnectionError, for every service', async () => {
    fake.llm.fail('refuse');
    fake.stt.fail('refuse');
    fake.tts.fail('refuse');
    for (const call of [() => chat(), hear, speak]) await expect(call()).rejects.toBeInstanceOf(APIConnectionError);
  });

  it('hang answers nothing: the SDK times out or is aborted, and the fake sees the client leave', async () => {
    fake.llm.fail('hang');
    // Long enough for the request to reach the fake on a starved machine: a time-out before it
    // arrives would be no hang at all.
    const timedOut = chat(undefined, 2_000);
    await fake.llm.whenRequested(1);
    await expect(timedOut).rejects.toBeInstanceOf(APIConnectionTimeoutError);
    await fake.llm.whenAborted(1);
    const controller = new AbortController();
    const pending = chat(controller.signal);
    await fake.llm.whenRequested(2);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(APIUserAbortError);
    await fake.llm.whenAborted(2);
    fake.stt.fail('hang');
    await expect(client.audio.transcriptions.create({ file: await toFile(Buffer.from(encodeWav(speech(100, 300), 16_000)), 'a.wav'), model: 'w' }, { timeout: 100 })).rejects.toBeInstanceOf(
      APIConnectionTimeoutError,
    );
  });

  it('malformed is a data line the SDK cannot parse', async () => {
    fake.llm.fail('malformed');
    const stream = await chat();
    await expect(
      (async () => {
        for await (const chunk of stream) void chunk;
      })(),
    ).rejects.toBeInstanceOf(SyntaxError);
  });

  it("cut ends the stream without a finish_reason, which the SDK's helper refuses", async () => {
    fake.llm.script([{ reply: { text: 'Hello there, welcome.' } }]);
    fake.llm.fail('cut');
    const texts: string[] = [];
    for await (const chunk of await chat()) texts.push(chunk.choices[0]!.delta.content ?? '');
    expect(texts.join('')).toBe('Hell');
    await expect(client.chat.completions.stream({ model: 'm', messages: ask }).finalChatCompletion()).rejects.toThrow(OpenAIError);
    await expect(client.chat.completions.stream({ model: 'm', messages: ask }).finalChatCompletion()).rejects.toThrow(/finish_reason/);
  });

  it('fails `count` times, then answers again; fail("ok") clears', async () => {
    fake.llm.fail('http_500', 1);
    await expect(client.chat.completions.create({ model: 'm', messages: ask })).rejects.toBeInstanceOf(InternalServerError);
    expect((await client.chat.completions.create({ model: 'm', messages: ask })).choices[0]!.message.content).toBe('Okay.');
    fake.tts.fail('http_500');
    fake.tts.fail('ok');
    expect((await speak()).status).toBe(200);
  });
});
