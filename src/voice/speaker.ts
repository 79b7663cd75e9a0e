// The kiosk's voice: sentences in, sound out, one after another. The next sentence is prepared
// while the one before it plays, and with a voice that queues sound ahead it is put right behind
// it, so there is no gap between sentences; `stop()` silences everything at once (a barge-in, a
// new step, a wipe). When the configured speech service fails, the rest is spoken by the
// fallback (the browser's own voice), and of a sentence that broke off while it played, the
// fallback says the clause that was not heard, not the whole sentence again; when that fails too,
// the kiosk goes on with captions only.

import { isAbort, ServiceError } from '../ports/service-error.ts';
import { BrokenOff, type SpokenClip, type TextToSpeech } from '../ports/text-to-speech.ts';
import { restOfSentence } from './sentences.ts';

export interface SpeakerEvents {
  /** sound started (true) or the queue ran dry or was stopped (false) */
  speaking(on: boolean): void;
  /** nothing is queued or playing any more (after `speaking(false)` when there was sound) */
  quiet?(): void;
  /** one sentence began to sound */
  sentenceStarted?(text: string): void;
  /** the first sentence of a reply (one said while nothing was queued) can start: its first audio is here */
  firstAudio?(): void;
  /** a voice failed; `fallingBack` says whether another voice takes over */
  failed(error: ServiceError, fallingBack: boolean): void;
}

interface Queued {
  text: string;
  clip: Promise<SpokenClip>;
  /** its playing, once begun (in turn, or early: queued right behind the sentence before it) */
  playing?: Promise<void>;
}

export class Speaker {
  private voices: TextToSpeech[];
  private queue: Queued[] = [];
  private controller = new AbortController();
  private playing = false;
  private sounding = false;
  private drained: Promise<void> = Promise.resolve();
  private markIdle: () => void = () => undefined;
  private held = false;

  constructor(
    voices: readonly TextToSpeech[],
    private language: string,
    private readonly events: SpeakerEvents,
  ) {
    this.voices = [...voices];
  }

  /** The visitor chose another language: what is queued or playing stops; the next sentence is spoken in `language`. */
  setLanguage(language: string): void {
    if (language === this.language) return;
    this.language = language;
    this.stop();
  }

  /** How loud every voice speaks (a gain from 0 to 1), the one speaking now included, and those that take over. */
  setVolume(gain: number): void {
    for (const voice of this.voices) voice.setVolume?.(gain);
  }

  /**
   * Holds the voice's sound at once (someone may be speaking over the kiosk), or lets it be heard
   * again (it was a noise); `stop()` lets it go too, for what is said next.
   */
  hold(held: boolean): void {
    if (this.held === held) return;
    this.held = held;
    for (const voice of this.voices) voice.hold?.(held);
  }

  /** True from the first sound of a reply until the queue runs dry or is stopped. */
  get speaking(): boolean {
    return this.sounding;
  }

  /** True while a sentence is queued or playing (the kiosk is about to speak or speaking). */
  get busy(): boolean {
    return this.playing || this.queue.length > 0;
  }

  get voiceName(): string | null {
    return this.voices[0]?.name ?? null;
  }

  /** Queues a sentence. Preparation starts now, so it is ready when its turn comes. */
  say(text: string): void {
    const clean = text.trim();
    if (!clean || this.voices.length === 0) return;
    const signal = this.controller.signal;
    const clip = this.prepare(clean, signal);
    if (!this.busy) {
      clip.then(() => {
        if (!signal.aborted) this.events.firstAudio?.();
      }, () => undefined);
    }
    this.queue.push({ text: clean, clip });
    if (!this.playing) {
      this.playing = true;
      this.drained = new Promise((resolve) => (this.markIdle = resolve));
      void this.play(this.controller.signal);
    }
  }

  /** Silences the kiosk now and forgets what it was about to say. */
  stop(): void {
    this.controller.abort();
    this.controller = new AbortController();
    this.queue = [];
    this.hold(false);
    this.finish();
  }

  /** Resolves when everything queued has been spoken (or stopped). */
  idle(): Promise<void> {
    return this.drained;
  }

  private prepare(text: string, signal: AbortSignal): Promise<SpokenClip> {
    const voice = this.voices[0]!;
    const clip = voice.prepare(text, { language: this.language, signal });
    clip.catch(() => undefined); // handled when its turn comes
    return clip;
  }

  private async play(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const next = this.queue.shift();
      if (!next) break;
      try {
        if (!next.playing) {
          const clip = await next.clip;
          if (signal.aborted) break;
          next.playing ??= this.sound(next, clip, signal);
        }
        await next.playing;
      } catch (error) {
        if (signal.aborted || isAbort(error)) break;
        if (!this.fallBack(error)) {
          this.queue = [];
          break;
        }
        // The sentence that failed (what was not heard of it, when it broke off while playing) and
        // those prepared with the failed voice go to the next one.
        const rest = error instanceof BrokenOff ? restOfSentence(next.text, error.heardSeconds) : next.text;
        const left = rest ? [{ text: rest }, ...this.queue] : this.queue;
        this.queue = left.map((q) => ({ text: q.text, clip: this.prepare(q.text, signal) }));
      }
    }
    if (!signal.aborted) this.finish();
  }

  private sound(item: Queued, clip: SpokenClip, signal: AbortSignal): Promise<void> {
    const started = () => {
      if (signal.aborted) return;
      if (!this.sounding) {
        this.sounding = true;
        this.events.speaking(true);
      }
      this.events.sentenceStarted?.(item.text);
    };
    return clip.play(signal, started, () => this.queueBehind(signal));
  }

  /**
   * All of the sentence playing is queued: the next, as soon as it is ready, goes right behind it
   * (with no gap when it is ready before the one playing ends). Its failure is met in turn.
   */
  private queueBehind(signal: AbortSignal): void {
    const after = this.queue[0];
    if (!after || after.playing || signal.aborted) return;
    after.clip.then(
      (clip) => {
        // Not first in line any more: either its turn has come (the loop plays it) or it was dropped.
        if (signal.aborted || after.playing || this.queue[0] !== after) return;
        after.playing = this.sound(after, clip, signal);
        after.playing.catch(() => undefined);
      },
      () => undefined,
    );
  }

  /** Drops the failed voice; true when another takes over. */
  private fallBack(error: unknown): boolean {
    const failure = error instanceof ServiceError ? error : new ServiceError('tts', 'malformed', String(error));
    this.voices.shift();
    this.events.failed(failure, this.voices.length > 0);
    return this.voices.length > 0;
  }

  private finish(): void {
    this.playing = false;
    if (this.sounding) {
      this.sounding = false;
      this.events.speaking(false);
    }
    this.events.quiet?.();
    this.markIdle();
  }
}
