// Text to speech over an OpenAI-compatible `/audio/speech` endpoint, played through Web Audio on
// the context the page shares. Each sentence is asked for as raw pcm and played while it
// arrives (streamed-clip.ts); a service that refuses pcm is asked for WAV, fetched whole and
// decoded (buffer-clip.ts), for the rest of the visit. TTS_FORMAT on the server forces either.

import type OpenAI from 'openai';
import { APIError } from 'openai';
import { ServiceError } from '../../ports/service-error.ts';
import type { SpeechFormat } from '../../ports/services.ts';
import type { SpeakOptions, SpokenClip, TextToSpeech } from '../../ports/text-to-speech.ts';
import { LEAD_S, Playhead, throughVolume, type AudioOutput, type VolumeNode } from './audio-out.ts';
import { BufferClip } from './buffer-clip.ts';
import { createOpenAIClient } from './client.ts';
import { abortError, RequestWatch, toServiceError } from './failures.ts';
import { carriesPcm, PcmRefused, refusesPcm } from './speech-format.ts';
import { StreamedClip } from './streamed-clip.ts';

export interface OpenAISpeechOptions {
  /** the API's base URL, e.g. `${origin}/api/tts` */
  baseURL: string | URL;
  model: string;
  voice: string;
  /** the voice for a language, by lower-case tag or primary subtag (`de`, `pt-br`); others get `voice` */
  byLanguage?: Readonly<Record<string, string>>;
  /** the page's AudioContext (one, resumed on a tap, shared with everything that plays) */
  audioContext: () => AudioOutput;
  /** told the clock time at which everything this voice has queued ends, at each piece queued (the context rests after it) */
  queuedUntil?: (clockTime: number) => void;
  /** `auto` (default): pcm, and WAV once the service refuses it; `pcm` or `wav`: that alone */
  format?: SpeechFormat;
  /**
   * how long the service may keep a sentence waiting: for its first audio, and (streamed)
   * between two chunks (default 15000)
   */
  timeoutMs?: number;
}

/** A TextToSpeech over OpenAI's speech API. */
export class OpenAISpeech implements TextToSpeech {
  readonly name: string;
  private readonly client: OpenAI;
  private readonly timeoutMs: number;
  /** what the next sentence is asked for as; `auto` turns into `wav` when the service refuses pcm */
  private format: SpeechFormat;
  private playhead: Playhead | null = null;
  private volume = 1;
  /** someone may be speaking over the kiosk: silent until let go */
  private held = false;
  /** the page's context, and the same with this voice's volume in front of its destination */
  private output: { context: AudioOutput; gain: VolumeNode; through: AudioOutput } | null = null;

  constructor(private readonly options: OpenAISpeechOptions) {
    this.name = `openai:${options.model}:${options.voice}`;
    this.client = createOpenAIClient(options.baseURL);
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.format = options.format ?? 'auto';
  }

  /** Fetches one sentence, until it can start. Rejects with a ServiceError('tts'), or an AbortError. */
  async prepare(text: string, options: SpeakOptions): Promise<SpokenClip> {
    if (this.format === 'wav') return this.whole(text, options);
    try {
      return await this.streamed(text, options);
    } catch (error) {
      if (!(error instanceof PcmRefused)) throw error;
      if (this.format === 'pcm') throw new ServiceError('tts', 'malformed', error.message);
      this.format = 'wav';
      return this.whole(text, options);
    }
  }

  /** Raw pcm, ready once its first audio is here; the rest goes on arriving while it plays. */
  private async streamed(text: string, options: SpeakOptions): Promise<SpokenClip> {
    const watch = new RequestWatch(options.signal);
    watch.arm(this.timeoutMs);
    const failure = (error: unknown): Error => {
      if (watch.timedOut) return new ServiceError('tts', 'timeout', `no audio for ${this.timeoutMs} ms`);
      if (watch.cancelled) return abortError(options.signal);
      return toServiceError('tts', error);
    };
    let response: Response;
    try {
      response = await this.speech(text, options.language, 'pcm', watch.signal);
    } catch (error) {
      watch.dispose();
      if (error instanceof APIError && refusesPcm(error.status, error.message)) throw new PcmRefused(error.message);
      throw failure(error);
    }
    const type = response.headers.get('content-type');
    if (!carriesPcm(type) || !response.body) {
      watch.dispose();
      void response.body?.cancel().catch(() => {});
      throw new PcmRefused(`it answered with ${type ?? 'no body'}`);
    }
    const clip = new StreamedClip(this.context(), this.clock(), {
      body: response.body,
      moved: () => watch.arm(this.timeoutMs),
      failure,
      done: () => watch.dispose(),
    });
    await clip.firstAudio;
    return clip;
  }

  /** A WAV, fetched whole and decoded. */
  private async whole(text: string, options: SpeakOptions): Promise<SpokenClip> {
    const watch = new RequestWatch(options.signal);
    watch.arm(this.timeoutMs);
    try {
      const response = await this.speech(text, options.language, 'wav', watch.signal);
      const bytes = await response.arrayBuffer();
      const context = this.context();
      const buffer = await context.decodeAudioData(bytes).catch((error: unknown) => {
        throw new ServiceError('tts', 'malformed', `audio that does not decode (${bytes.byteLength} bytes): ${(error as Error).message}`);
      });
      return new BufferClip(context, this.clock(), buffer);
    } catch (error) {
      if (watch.timedOut) throw new ServiceError('tts', 'timeout', `no audio within ${this.timeoutMs} ms`);
      if (watch.cancelled) throw abortError(options.signal);
      throw toServiceError('tts', error);
    } finally {
      watch.dispose();
    }
  }

  private speech(input: string, language: string, format: 'pcm' | 'wav', signal: AbortSignal): Promise<Response> {
    const { model } = this.options;
    return this.client.audio.speech.create({ model, voice: this.voiceFor(language), input, response_format: format }, { signal });
  }

  /** The voice that speaks `language`: its own (by tag, then primary subtag), else the default. */
  voiceFor(language: string): string {
    const tag = language.toLowerCase();
    const voices = this.options.byLanguage ?? {};
    const pick = (key: string) => (Object.hasOwn(voices, key) ? voices[key] : undefined);
    return pick(tag) ?? pick(tag.split('-')[0]!) ?? this.options.voice;
  }

  /** The loudness of this voice, at once: what is playing now too. */
  setVolume(gain: number): void {
    this.volume = Math.max(0, gain);
    if (this.output) this.output.gain.gain.value = this.loudness();
  }

  /** Silent at once while held (the sentence plays on, unheard), heard again when let go. */
  hold(held: boolean): void {
    this.held = held;
    if (this.output) this.output.gain.gain.value = this.loudness();
  }

  private loudness(): number {
    return this.held ? 0 : this.volume;
  }

  /** The page's context, as this voice plays through it: behind its own volume. */
  private context(): AudioOutput {
    const context = this.options.audioContext();
    if (this.output?.context !== context) {
      const gain = context.createGain();
      gain.gain.value = this.loudness();
      gain.connect(context.destination);
      this.output = { context, gain, through: throughVolume(context, gain) };
    }
    return this.output.through;
  }

  /** The end of everything this voice has queued on the audio clock (one for all its sentences). */
  private clock(): Playhead {
    this.playhead ??= new Playhead({ now: () => this.context().currentTime }, LEAD_S, this.options.queuedUntil);
    return this.playhead;
  }
}
