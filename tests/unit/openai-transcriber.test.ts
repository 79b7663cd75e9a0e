// OpenAITranscriber against the fake transcription endpoint: the exact multipart request (a
// 16 kHz mono 16-bit WAV, model, language, json), the trimmed text, failures and abort.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenAITranscriber } from '../../src/adapters/openai/transcriber.ts';
import { isAbort, ServiceError } from '../../src/ports/service-error.ts';
import type { SpeechSegment } from '../../src/ports/speech-to-text.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../servers/openai-fakes.ts';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const transcriber = (timeoutMs?: number) => new OpenAITranscriber({ baseURL: fake.baseURL, model: 'whisper-1', ...(timeoutMs ? { timeoutMs } : {}) });

/** `toneMs` of a 180 Hz tone between `quietMs` of silence on each side. */
function segment(quietMs: number, toneMs: number, sampleRate = 16_000): SpeechSegment {
  const at = (ms: number) => Math.round((ms / 1000) * sampleRate);
  const samples = new Float32Array(at(quietMs * 2 + toneMs));
  for (let i = at(quietMs); i < at(quietMs + toneMs); i++) samples[i] = 0.25 * Math.sin((2 * Math.PI * 180 * i) / sampleRate);
  return { samples, sampleRate };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`resolved with ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe('OpenAITranscriber', () => {
  it('sends a 16 kHz mono 16-bit WAV with model, language and json, and returns the text trimmed', async () => {
    fake.stt.script([{ text: '  My name is Ada. \n', minSpeechMs: 760, maxSpeechMs: 840 }]);
    const text = await transcriber().transcribe(segment(300, 800), { language: 'en' });
    expect(text).toBe('My name is Ada.');
    expect(fake.stt.requests).toEqual([
      {
        model: 'whisper-1',
        language: 'en',
        response_format: 'json',
        fileName: 'speech.wav',
        fileType: 'audio/wav',
        sampleRate: 16_000,
        channels: 1,
        bitsPerSample: 16,
        durationMs: 1400,
        speechMs: expect.any(Number),
      },
    ]);
    expect(Math.abs(fake.stt.requests[0]!.speechMs - 800)).toBeLessThanOrEqual(20);
  });

  it('sends a segment recorded at another rate as 16 kHz, with its duration kept', async () => {
    fake.stt.script([{ text: 'ok' }]);
    await transcriber().transcribe(segment(200, 500, 48_000), { language: 'de' });
    expect(fake.stt.requests[0]).toMatchObject({ sampleRate: 16_000, durationMs: 900, language: 'de' });
    expect(Math.abs(fake.stt.requests[0]!.speechMs - 500)).toBeLessThanOrEqual(20);
  });

  it('returns an empty string for a silent segment', async () => {
    fake.stt.script([{ text: 'never used' }]);
    expect(await transcriber().transcribe(segment(500, 0), { language: 'en' })).toBe('');
    expect(fake.stt.pending).toHaveLength(1);
  });

  it.each([
    ['http_500', 'http', 500],
    ['http_429', 'http', 429],
    ['refuse', 'network', undefined],
  ] as const)('turns %s into ServiceError(stt, %s), without a retry', async (mode, kind, status) => {
    fake.stt.fail(mode);
    const error = await rejection(transcriber().transcribe(segment(100, 300), { language: 'en' }));
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ service: 'stt', failure: kind, status });
    expect(fake.stt.requests).toHaveLength(1);
  });

  it('times out when the service does not answer', async () => {
    fake.stt.fail('hang');
    const error = await rejection(transcriber(80).transcribe(segment(100, 300), { language: 'en' }));
    expect(error).toMatchObject({ service: 'stt', failure: 'timeout' });
  });

  it('reports a request the service refuses as http 400', async () => {
    const error = await rejection(transcriber().transcribe(segment(100, 300), { language: 'english' }));
    expect(error).toMatchObject({ service: 'stt', failure: 'http', status: 400 });
    expect((error as ServiceError).detail).toMatch(/ISO-639-1/);
  });

  it('rejects with an AbortError, not a ServiceError, when aborted', async () => {
    fake.stt.fail('hang');
    const controller = new AbortController();
    const pending = rejection(transcriber().transcribe(segment(100, 300), { language: 'en', signal: controller.signal }));
    await fake.stt.whenRequested(1);
    controller.abort();
    const error = await pending;
    expect(isAbort(error)).toBe(true);
    expect(error).not.toBeInstanceOf(ServiceError);

    const early = await rejection(transcriber().transcribe(segment(100, 300), { language: 'en', signal: AbortSignal.abort() }));
    expect(isAbort(early)).toBe(true);
    expect(fake.stt.requests).toHaveLength(1);
  });
});
