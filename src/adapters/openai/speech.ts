// Text to speech over an OpenAI-compatible `/audio/speech` endpoint, played through Web Audio.
// Browser only, and thin: fetch a WAV, decode it, play it on a context the page shares.

import type OpenAI from 'openai';
import { ServiceError } from '../../ports/service-error.ts';
import type { SpeakOptions, SpokenClip, TextToSpeech } from '../../ports/text-to-speech.ts';
import { watchClipEnd } from './clip-end-watch.ts';
import { createOpenAIClient } from './client.ts';
import { abortError, RequestWatch, toServiceError } from './failures.ts';

export interface OpenAISpeechOptions {
  /** the API's base URL, e.g. `${origin}/api/tts` */
  baseURL: string | URL;
  model: string;
  voice: string;
  /** the page's AudioContext (one, resumed on a tap, shared with everything that plays) */
  audioContext: () => AudioContext;
  /** how long fetching one sentence may take (default 15000) */
  timeoutMs?: number;
}

/** How long `play` waits for a suspended AudioContext to resume before it gives up. */
const RESUME_WAIT_MS = 1000;

/** A TextToSpeech over OpenAI's speech API. */
export class OpenAISpeech implements TextToSpeech {
  readonly name: string;
  private readonly client: OpenAI;
  private readonly timeoutMs: number;

  constructor(private readonly options: OpenAISpeechOptions) {
    this.name = `openai:${options.model}:${options.voice}`;
    this.client = createOpenAIClient(options.baseURL);
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  /** Fetches and decodes one sentence. Rejects with a ServiceError('tts'), or an AbortError. */
  async prepare(text: string, options: SpeakOptions): Promise<SpokenClip> {
    const watch = new RequestWatch(options.signal);
    watch.arm(this.timeoutMs);
    try {
      const { model, voice } = this.options;
      const response = await this.client.audio.speech.create({ model, voice, input: text, response_format: 'wav' }, { signal: watch.signal });
      const bytes = await response.arrayBuffer();
      const context = this.options.audioContext();
      const buffer = await context.decodeAudioData(bytes).catch((error: unknown) => {
        throw new ServiceError('tts', 'malformed', `audio that does not decode (${bytes.byteLength} bytes): ${(error as Error).message}`);
      });
      return new BufferClip(context, buffer);
    } catch (error) {
      if (watch.timedOut) throw new ServiceError('tts', 'timeout', `no audio within ${this.timeoutMs} ms`);
      if (watch.cancelled) throw abortError(options.signal);
      throw toServiceError('tts', error);
    } finally {
      watch.dispose();
    }
  }
}

/** A decoded sentence, played once through an AudioBufferSourceNode. */
class BufferClip implements SpokenClip {
  constructor(
    private readonly context: AudioContext,
    private readonly buffer: AudioBuffer,
  ) {}

  async play(signal: AbortSignal, started: () => void): Promise<void> {
    if (signal.aborted) return;
    await this.ensureRunning();
    if (signal.aborted) return;
    const source = this.context.createBufferSource();
    source.buffer = this.buffer;
    source.connect(this.context.destination);
    await new Promise<void>((resolve) => {
      let unwatch = () => {};
      const finish = () => {
        unwatch();
        signal.removeEventListener('abort', stop);
        source.onended = null;
        source.disconnect();
        resolve();
      };
      const stop = () => {
        source.stop();
        finish();
      };
      source.onended = finish;
      signal.addEventListener('abort', stop, { once: true });
      source.start();
      // The `ended` event alone must not decide when the kiosk may listen again.
      const context = this.context;
      unwatch = watchClipEnd({ clock: { now: () => context.currentTime }, startedAt: context.currentTime, duration: this.buffer.duration, overdue: stop });
      started();
    });
  }

  /** A suspended context plays nothing and never ends: resume it, or say why not. */
  private async ensureRunning(): Promise<void> {
    if (this.context.state === 'running') return;
    if (this.context.state === 'closed') throw new ServiceError('tts', 'missing', 'the AudioContext is closed');
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.context.resume(), new Promise<void>((resolve) => (timer = setTimeout(resolve, RESUME_WAIT_MS)))]);
    clearTimeout(timer);
    if ((this.context.state as AudioContextState) !== 'running') {
      throw new ServiceError('tts', 'denied', 'the browser keeps audio output suspended until the visitor taps');
    }
  }
}
