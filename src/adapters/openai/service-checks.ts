// The operator's "Test" of each service: one short, real request through the kiosk's own /api/
// routes (so the server's key, model and address are what is tested), and a plain answer.

import { APIError } from 'openai';
import { ServiceError } from '../../ports/service-error.ts';
import type { SpeechFormat } from '../../ports/services.ts';
import { createOpenAIClient } from './client.ts';
import { RequestWatch, toServiceError } from './failures.ts';
import { carriesPcm, PcmRefused, refusesPcm } from './speech-format.ts';
import { OpenAITranscriber } from './transcriber.ts';

/** What a test came to: whether the service answered as it should, and how long it took. */
export interface CheckResult {
  ok: boolean;
  /** one sentence for the operator */
  text: string;
  ms: number;
}

/** How long a test may take before it counts as failed. */
export const CHECK_TIMEOUT_MS = 15_000;

/** The language model: a one-line question, answered in a few words. */
export function checkChat(baseURL: string, model: string): Promise<CheckResult> {
  return timed('llm', async (signal) => {
    const client = createOpenAIClient(baseURL);
    const answer = await client.chat.completions.create(
      { model, messages: [{ role: 'user', content: 'This is a connection test. Reply with the word OK.' }], max_tokens: 8 },
      { signal },
    );
    const text = answer.choices[0]?.message.content?.trim() ?? '';
    return `answered${text ? ` "${text.slice(0, 40)}"` : ''}`;
  });
}

/** Speech recognition: half a second of silence, which must come back as a transcript (most likely empty). */
export function checkTranscription(baseURL: string, model: string, language: string): Promise<CheckResult> {
  return timed('stt', async (signal) => {
    const transcriber = new OpenAITranscriber({ baseURL, model, timeoutMs: CHECK_TIMEOUT_MS });
    const text = await transcriber.transcribe({ samples: new Float32Array(8000), sampleRate: 16000 }, { language, signal });
    return `transcribed half a second of silence${text ? ` as "${text.slice(0, 40)}"` : ''}`;
  });
}

/**
 * The kiosk's voice: one short sentence, which must come back as audio (it is not played), in the
 * format the kiosk speaks with (`auto`: pcm, else WAV when the service refuses pcm).
 */
export function checkSpeech(baseURL: string, model: string, voice: string, format: SpeechFormat = 'auto'): Promise<CheckResult> {
  return timed('tts', async (signal) => {
    const client = createOpenAIClient(baseURL);
    const ask = async (as: 'pcm' | 'wav'): Promise<number> => {
      const response = await client.audio.speech.create({ model, voice, input: 'Test.', response_format: as }, { signal });
      const type = response.headers.get('content-type');
      if (as === 'pcm' && !carriesPcm(type)) throw new PcmRefused(`it answered with ${type}`);
      return (await response.arrayBuffer()).byteLength;
    };
    let bytes: number;
    let fellBack = false;
    try {
      bytes = await ask(format === 'wav' ? 'wav' : 'pcm');
    } catch (error) {
      const refused = error instanceof PcmRefused || (error instanceof APIError && refusesPcm(error.status, error.message));
      if (!refused) throw error;
      if (format !== 'auto') throw new ServiceError('tts', 'malformed', error.message);
      fellBack = true;
      bytes = await ask('wav');
    }
    if (bytes === 0) throw new Error('the service answered with no audio');
    const wav = fellBack ? '; as WAV, since the service refuses pcm' : '';
    return `spoke "Test." (${(bytes / 1024).toFixed(0)} KB of audio, voice ${voice}${wav})`;
  });
}

async function timed(service: 'llm' | 'stt' | 'tts', request: (signal: AbortSignal) => Promise<string>): Promise<CheckResult> {
  const started = performance.now();
  const watch = new RequestWatch();
  watch.arm(CHECK_TIMEOUT_MS);
  const ms = () => Math.round(performance.now() - started);
  try {
    const what = await request(watch.signal);
    const took = ms();
    return { ok: true, text: `Working: ${what} in ${seconds(took)}.`, ms: took };
  } catch (error) {
    const took = ms();
    if (watch.timedOut) return { ok: false, text: `Not working: no answer within ${seconds(CHECK_TIMEOUT_MS)}.`, ms: took };
    return { ok: false, text: `Not working: ${why(toServiceError(service, error))}.`, ms: took };
  } finally {
    watch.dispose();
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The failure in the operator's words, with the service's own status and message. */
function why(error: ServiceError): string {
  const detail = error.detail.replace(/\s+/g, ' ').slice(0, 160);
  switch (error.failure) {
    case 'http':
      return error.status === undefined ? `the service failed (${detail})` : `the service answered ${error.status} (${detail})`;
    case 'network':
      return `the kiosk's server could not be reached (${detail})`;
    case 'timeout':
      return 'no answer in time';
    default:
      return `the answer was not what was expected (${detail})`;
  }
}
