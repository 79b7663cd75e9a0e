// Speech to text over an OpenAI-compatible `/audio/transcriptions` endpoint: one finished
// segment in, as a 16 kHz mono WAV, its text out. OpenAI, Groq, whisper.cpp and faster-whisper
// servers all take this request.

import type OpenAI from 'openai';
import { toFile } from 'openai';
import { ServiceError } from '../../ports/service-error.ts';
import type { SegmentTranscriber, SpeechSegment, TranscribeOptions } from '../../ports/speech-to-text.ts';
import { StreamResampler } from '../../voice/pcm.ts';
import { encodeWav } from '../../voice/wav.ts';
import { createOpenAIClient } from './client.ts';
import { abortError, RequestWatch, toServiceError } from './failures.ts';

export interface OpenAITranscriberOptions {
  /** the API's base URL, e.g. `${origin}/api/stt` */
  baseURL: string | URL;
  model: string;
  /** how long one transcription may take (default 15000) */
  timeoutMs?: number;
}

/** The sample rate the segments are sent at (the VAD's rate, and what Whisper wants). */
export const TRANSCRIPTION_SAMPLE_RATE = 16_000;

/** A SegmentTranscriber over OpenAI's transcription API. */
export class OpenAITranscriber implements SegmentTranscriber {
  readonly kind = 'segment';
  readonly name: string;
  private readonly client: OpenAI;
  private readonly timeoutMs: number;

  constructor(private readonly options: OpenAITranscriberOptions) {
    this.name = `openai:${options.model}`;
    this.client = createOpenAIClient(options.baseURL);
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  /** The segment's text, trimmed. Rejects with a ServiceError('stt'), or an AbortError when aborted. */
  async transcribe(segment: SpeechSegment, options: TranscribeOptions): Promise<string> {
    const watch = new RequestWatch(options.signal);
    watch.arm(this.timeoutMs);
    try {
      const samples = new StreamResampler(segment.sampleRate, TRANSCRIPTION_SAMPLE_RATE).push(segment.samples);
      const wav = encodeWav(samples, TRANSCRIPTION_SAMPLE_RATE);
      const file = await toFile(wav, 'speech.wav', { type: 'audio/wav' });
      const answer: unknown = await this.client.audio.transcriptions.create(
        { file, model: this.options.model, language: options.language, response_format: 'json' },
        { signal: watch.signal },
      );
      const text = (answer as { text?: unknown } | null)?.text;
      if (typeof text !== 'string') throw new ServiceError('stt', 'malformed', `an answer without text: ${JSON.stringify(answer).slice(0, 200)}`);
      return text.trim();
    } catch (error) {
      if (watch.timedOut) throw new ServiceError('stt', 'timeout', `no transcript within ${this.timeoutMs} ms`);
      if (watch.cancelled) throw abortError(options.signal);
      throw toServiceError('stt', error);
    } finally {
      watch.dispose();
    }
  }
}
