// One sentence of raw pcm speech, played while it arrives. The body is read from the moment the
// sentence is prepared; what arrives before `play` waits, and from `play` on each chunk goes on
// the audio clock right behind the one before it (AudioBufferSourceNodes back to back). The
// sentence is over when the last piece has sounded, and breaks off (after what had arrived has
// been heard) when the stream fails or stalls.

import { ServiceError } from '../../ports/service-error.ts';
import { BrokenOff, type SpokenClip } from '../../ports/text-to-speech.ts';
import { atClockTime, ensureRunning, type AudioOutput, type Playhead, type SoundSource } from './audio-out.ts';
import { watchClipEnd, type ClipClock } from './clip-end-watch.ts';
import { Pcm16Decoder, PCM_SAMPLE_RATE } from './pcm16.ts';

/** The body of one speech answer, and what its reading tells the request around it. */
export interface SpeechDownload {
  body: ReadableStream<Uint8Array>;
  /** a chunk arrived (the stall timer starts again) */
  moved(): void;
  /** the error a failed read stands for: a stall, the caller's abort, a broken connection */
  failure(error: unknown): Error;
  /** the body is over, one way or another */
  done(): void;
}

/** One `play` of the clip, while it lasts. */
interface Playing {
  signal: AbortSignal;
  started: () => void;
  scheduled: (() => void) | undefined;
  finish: (error?: Error) => void;
  /** the pieces queued and not yet ended, each with its `ended` listener */
  sources: Map<SoundSource, () => void>;
  last: SoundSource | null;
  /** when the last piece placed ends, on the audio clock */
  endsAt: number;
  /** the samples placed so far: how much of the sentence has been (or is being) heard */
  samples: number;
  cancelStarted: (() => void) | null;
  unwatch: () => void;
}

export class StreamedClip implements SpokenClip {
  /** resolves when the first audio has arrived; rejects when the body fails or ends before any */
  readonly firstAudio: Promise<void>;
  private heard = false;
  private arrived!: () => void;
  private failedEarly!: (error: Error) => void;
  private readonly decoder = new Pcm16Decoder();
  private readonly waiting: Float32Array[] = [];
  private complete = false;
  private error: Error | null = null;
  private playing: Playing | null = null;
  private cancelDownload: () => void = () => {};
  private readonly clock: ClipClock;

  constructor(
    private readonly context: AudioOutput,
    private readonly playhead: Playhead,
    download: SpeechDownload,
  ) {
    this.clock = { now: () => context.currentTime };
    this.firstAudio = new Promise<void>((resolve, reject) => {
      this.arrived = resolve;
      this.failedEarly = reject;
    });
    void this.receive(download);
  }

  async play(signal: AbortSignal, started: () => void, scheduled?: () => void): Promise<void> {
    if (signal.aborted) return this.cancelDownload();
    try {
      await ensureRunning(this.context);
    } catch (error) {
      this.cancelDownload();
      throw error;
    }
    if (signal.aborted) return this.cancelDownload();
    return new Promise<void>((resolve, reject) => {
      const stop = () => this.stop();
      const playing: Playing = {
        signal,
        started,
        scheduled,
        sources: new Map(),
        last: null,
        endsAt: 0,
        samples: 0,
        cancelStarted: null,
        unwatch: () => {},
        finish: (error) => {
          signal.removeEventListener('abort', stop);
          playing.unwatch();
          playing.cancelStarted?.();
          this.playing = null;
          if (error) reject(error);
          else resolve();
        },
      };
      this.playing = playing;
      signal.addEventListener('abort', stop, { once: true });
      for (const samples of this.waiting.splice(0)) this.schedule(playing, samples);
      if (this.complete || this.error) this.over(playing);
    });
  }

  /** Reads the body to its end, handing each chunk's samples on. */
  private async receive(download: SpeechDownload): Promise<void> {
    const reader = download.body.getReader();
    this.cancelDownload = () => void reader.cancel().catch(() => {});
    try {
      for (let part = await reader.read(); !part.done; part = await reader.read()) {
        download.moved();
        const samples = this.decoder.decode(part.value);
        if (samples.length > 0) this.take(samples);
      }
      if (!this.heard) throw new ServiceError('tts', 'malformed', 'the speech service answered with no audio');
      this.complete = true;
    } catch (error) {
      this.error = download.failure(error);
      if (!this.heard) this.failedEarly(this.error);
    } finally {
      download.done();
      if (this.playing) this.over(this.playing);
    }
  }

  private take(samples: Float32Array): void {
    if (!this.heard) {
      this.heard = true;
      this.arrived();
    }
    if (this.playing) this.schedule(this.playing, samples);
    else this.waiting.push(samples);
  }

  /** Puts one piece on the audio clock, right behind everything queued before it. */
  private schedule(playing: Playing, samples: Float32Array): void {
    const buffer = this.context.createBuffer(1, samples.length, PCM_SAMPLE_RATE);
    buffer.getChannelData(0).set(samples);
    const source = this.context.createBufferSource();
    source.buffer = buffer;
    source.connect(this.context.destination);
    const at = this.playhead.place(samples.length / PCM_SAMPLE_RATE);
    source.start(at);
    const ended = () => {
      source.removeEventListener('ended', ended);
      playing.sources.delete(source);
      source.disconnect();
      if (source === playing.last && (this.complete || this.error)) this.ended(playing);
    };
    source.addEventListener('ended', ended);
    playing.sources.set(source, ended);
    playing.last = source;
    playing.endsAt = at + samples.length / PCM_SAMPLE_RATE;
    playing.samples += samples.length;
    playing.cancelStarted ??= atClockTime(this.clock, at, () => {
      if (!playing.signal.aborted) playing.started();
    });
  }

  /** Everything has arrived (or the stream broke): the clip ends when the last piece has sounded. */
  private over(playing: Playing): void {
    if (this.complete) playing.scheduled?.();
    if (playing.sources.size === 0) return this.ended(playing);
    // The `ended` event alone must not decide when the kiosk may listen again (clip-end-watch.ts).
    const now = this.clock.now();
    playing.unwatch = watchClipEnd({ clock: this.clock, startedAt: now, duration: Math.max(0, playing.endsAt - now), overdue: () => this.ended(playing) });
  }

  /** The last piece has sounded (or the watch says it must have): the sentence is over. */
  private ended(playing: Playing): void {
    if (this.playing !== playing) return;
    this.silence(playing);
    // Broken off after some of it was heard: the voice taking over is told how much.
    const error = this.error instanceof ServiceError && playing.samples > 0 ? new BrokenOff(this.error, playing.samples / PCM_SAMPLE_RATE) : this.error;
    playing.finish(error ?? undefined);
  }

  /** Barge-in or a new step: every queued piece stops now, and the download with it. */
  private stop(): void {
    const playing = this.playing;
    this.cancelDownload();
    if (!playing) return;
    this.silence(playing);
    this.playhead.clear();
    playing.finish();
  }

  private silence(playing: Playing): void {
    for (const [source, ended] of playing.sources) {
      source.removeEventListener('ended', ended);
      source.stop();
      source.disconnect();
    }
    playing.sources.clear();
  }
}
