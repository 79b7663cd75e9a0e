// Spoken replies through the browser's own voices (window.speechSynthesis). Owns the choice of a
// voice for the flow's language and the way out when a browser has no voices or never starts.

import { ServiceError, type ServiceFailure } from '../../ports/service-error.ts';
import type { SpeakOptions, SpokenClip, TextToSpeech } from '../../ports/text-to-speech.ts';

/** The parts of SpeechSynthesisVoice this adapter reads. */
export interface VoiceLike {
  readonly name: string;
  readonly lang: string;
  readonly localService: boolean;
  readonly default: boolean;
}

interface UtteranceLike {
  lang: string;
  /** 0 to 1, fixed once the utterance is spoken */
  volume: number;
  voice: VoiceLike | null;
  onstart: (() => void) | null;
  onend: (() => void) | null;
  onerror: ((event: { error?: string }) => void) | null;
}

interface SynthesisLike {
  speak(utterance: UtteranceLike): void;
  cancel(): void;
  pause?(): void;
  resume?(): void;
  getVoices(): VoiceLike[];
  addEventListener(type: 'voiceschanged', listener: () => void): void;
  removeEventListener(type: 'voiceschanged', listener: () => void): void;
}

interface SynthesisApi {
  synth: SynthesisLike;
  Utterance: new (text: string) => UtteranceLike;
}

function synthesisApi(): SynthesisApi | null {
  const g = globalThis as unknown as { speechSynthesis?: SynthesisLike; SpeechSynthesisUtterance?: SynthesisApi['Utterance'] };
  return g.speechSynthesis && typeof g.SpeechSynthesisUtterance === 'function' ? { synth: g.speechSynthesis, Utterance: g.SpeechSynthesisUtterance } : null;
}

/** True when the browser has speech synthesis at all (it may still have no voices). */
export function browserSpeechAvailable(): boolean {
  return synthesisApi() !== null;
}

/** The part of speechSynthesis the voice watch reads. */
export type VoiceList = Pick<SynthesisLike, 'getVoices' | 'addEventListener' | 'removeEventListener'>;

/**
 * Tells `changed` whether the browser has any voice to speak with, now and whenever its list
 * changes (Chrome fills it in after the page loads; a headless browser has none, and the kiosk
 * then speaks in captions only). Returns a function that stops watching.
 */
export function watchBrowserVoices(changed: (has: boolean) => void, synth: VoiceList | null = synthesisApi()?.synth ?? null): () => void {
  if (!synth) {
    changed(false);
    return () => undefined;
  }
  const tell = () => changed(synth.getVoices().length > 0);
  tell();
  synth.addEventListener('voiceschanged', tell);
  return () => synth.removeEventListener('voiceschanged', tell);
}

export interface BrowserSpeechOptions {
  /**
   * How long a clip may wait for its first sound (voices loading included) before it fails with
   * `missing`, so that a browser with no voices (headless Chromium) falls back to captions.
   */
  startTimeoutMs: number;
}

const DEFAULTS: BrowserSpeechOptions = { startTimeoutMs: 1500 };

const tag = (lang: string) => lang.toLowerCase().replace(/_/g, '-');

/**
 * The voice for `language` (BCP 47): one whose language is the same, else one with the same
 * primary language (en for en-GB); on-device voices first, then the browser's default. Null when
 * none speaks the language.
 */
export function chooseVoice(voices: readonly VoiceLike[], language: string): VoiceLike | null {
  const wanted = tag(language);
  const primary = wanted.split('-')[0];
  const rank = (v: VoiceLike) => {
    const lang = tag(v.lang);
    const match = lang === wanted ? 0 : lang.split('-')[0] === primary ? 2 : -1;
    return match < 0 ? -1 : match * 2 + (v.localService ? 0 : 2) + (v.default ? 0 : 1);
  };
  let best: VoiceLike | null = null;
  let bestRank = Infinity;
  for (const voice of voices) {
    const r = rank(voice);
    if (r >= 0 && r < bestRank) [best, bestRank] = [voice, r];
  }
  return best;
}

/** What a synthesis error code means for the voice loop. */
function failureOf(code: string): ServiceFailure {
  if (code === 'network') return 'network';
  if (code === 'not-allowed') return 'denied';
  if (code === 'synthesis-failed' || code === 'text-too-long' || code === 'invalid-argument') return 'malformed';
  return 'missing';
}

/** How long after its start a clip may go without an `end` before it counts as finished. */
const endWatchdogMs = (text: string) => 10_000 + text.length * 200;

/** Text to speech with the browser's voices; nothing leaves the device if the voice is local. */
export class BrowserSpeech implements TextToSpeech {
  readonly name = 'browser';
  private readonly options: BrowserSpeechOptions;
  /** Chrome can drop the events of an utterance nothing refers to: hold the one speaking. */
  private speaking: UtteranceLike | null = null;
  private volume = 1;

  constructor(options: Partial<BrowserSpeechOptions> = {}) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** The loudness of the next sentence (the browser cannot change one it is speaking). */
  setVolume(gain: number): void {
    this.volume = Math.min(1, Math.max(0, gain));
  }

  /** The browser pauses the sentence being said while held, and goes on from there when let go. */
  hold(held: boolean): void {
    const synth = synthesisApi()?.synth;
    if (held) synth?.pause?.();
    else synth?.resume?.();
  }

  /** Prepares nothing ahead (the browser speaks from text); rejects when there is no speech synthesis. */
  async prepare(text: string, options: SpeakOptions): Promise<SpokenClip> {
    const api = synthesisApi();
    if (!api) throw new ServiceError('tts', 'missing', 'this browser has no speech synthesis');
    return { play: (signal, started) => this.play(api, text, options.language, signal, started) };
  }

  private play(api: SynthesisApi, text: string, language: string, signal: AbortSignal, started: () => void): Promise<void> {
    if (signal.aborted) return Promise.resolve();
    const { synth } = api;
    return new Promise<void>((resolve, reject) => {
      let utterance: UtteranceLike | null = null;
      let settled = false;
      let watchdog: ReturnType<typeof setTimeout> | undefined;
      const finish = (error?: ServiceError) => {
        if (settled) return;
        settled = true;
        clearTimeout(startTimer);
        clearTimeout(watchdog);
        signal.removeEventListener('abort', onAbort);
        synth.removeEventListener('voiceschanged', onVoices);
        if (this.speaking === utterance) this.speaking = null;
        if (error) reject(error);
        else resolve();
      };
      // Settle first: cancel() makes the browser report `interrupted`, which must not decide the outcome.
      const finishSilently = (error?: ServiceError) => {
        finish(error);
        if (utterance) synth.cancel();
      };
      const onAbort = () => finishSilently();
      const startTimer = setTimeout(() => {
        const ms = this.options.startTimeoutMs;
        finishSilently(new ServiceError('tts', 'missing', utterance ? `speech did not start within ${ms} ms` : `the browser has no voices (waited ${ms} ms)`));
      }, this.options.startTimeoutMs);

      const speak = (voices: VoiceLike[]) => {
        const u = new api.Utterance(text);
        utterance = u;
        u.lang = language;
        u.volume = this.volume;
        u.voice = chooseVoice(voices, language);
        u.onstart = () => {
          if (settled) return;
          clearTimeout(startTimer);
          started();
          // An end event that never comes must not hold the conversation.
          watchdog = setTimeout(() => finishSilently(), endWatchdogMs(text));
        };
        u.onend = () => finish();
        u.onerror = (event) => {
          const code = event.error ?? 'unknown';
          // Cancelled (by us or anyone): the clip is over, not broken.
          if (code === 'interrupted' || code === 'canceled') finish();
          else finish(new ServiceError('tts', failureOf(code), `speech synthesis error: ${code}`));
        };
        this.speaking = u;
        synth.speak(u);
      };
      // Voices often arrive after the page loads (Chrome): wait for them within the start timeout.
      const onVoices = () => {
        const voices = synth.getVoices();
        if (settled || utterance || voices.length === 0) return;
        synth.removeEventListener('voiceschanged', onVoices);
        speak(voices);
      };

      signal.addEventListener('abort', onAbort);
      const voices = synth.getVoices();
      if (voices.length > 0) speak(voices);
      else synth.addEventListener('voiceschanged', onVoices);
    });
  }
}
