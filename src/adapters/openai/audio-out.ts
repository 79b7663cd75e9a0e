// Sound on the page's one AudioContext: where each piece of a spoken sentence is placed on the
// audio clock (back to back, so chunks and sentences follow each other with no gap), and the
// context woken before anything plays.

import { ServiceError } from '../../ports/service-error.ts';
import type { ClipClock } from './clip-end-watch.ts';

/** The parts of an AudioBuffer the voice uses. */
export interface SoundBuffer {
  readonly duration: number;
  getChannelData(channel: number): Float32Array;
}

/** The parts of an AudioBufferSourceNode the voice uses. */
export interface SoundSource {
  buffer: SoundBuffer | null;
  connect(destination: unknown): unknown;
  disconnect(): void;
  start(when?: number): void;
  stop(): void;
  addEventListener(type: 'ended', listener: () => void): void;
  removeEventListener(type: 'ended', listener: () => void): void;
}

/** The parts of a GainNode the voice uses: its loudness. */
export interface VolumeNode {
  readonly gain: { value: number };
  connect(destination: unknown): unknown;
}

/** The parts of the page's AudioContext the voice uses (so Node tests can stand in for it). */
export interface AudioOutput {
  readonly currentTime: number;
  readonly state: string;
  readonly destination: unknown;
  resume(): Promise<void>;
  createBuffer(channels: number, length: number, sampleRate: number): SoundBuffer;
  createBufferSource(): SoundSource;
  createGain(): VolumeNode;
  decodeAudioData(data: ArrayBuffer): Promise<SoundBuffer>;
}

/**
 * `context` as one voice plays through it: the same clock and buffers, and a destination behind
 * the voice's own volume (`gain`), so every piece it plays, and those playing now, follow it.
 */
export function throughVolume(context: AudioOutput, gain: VolumeNode): AudioOutput {
  return {
    get currentTime() {
      return context.currentTime;
    },
    get state() {
      return context.state;
    },
    destination: gain,
    resume: () => context.resume(),
    createBuffer: (channels, length, sampleRate) => context.createBuffer(channels, length, sampleRate),
    createBufferSource: () => context.createBufferSource(),
    createGain: () => context.createGain(),
    decodeAudioData: (data) => context.decodeAudioData(data),
  };
}

/**
 * How far ahead of the audio clock the first piece is placed: the hop to the audio thread (a few
 * render quanta of 128 samples). Every millisecond of it is a millisecond before the reply is
 * heard, so it is short; a stream that falls behind gets the same short lead, a brief gap at
 * worst (the speech services send faster than real time, so the queue grows as a sentence plays).
 * bench:voice measured 50 ms here as most of the kiosk's own overhead in a reply.
 */
export const LEAD_S = 0.01;

/**
 * How long `play` waits for a suspended AudioContext to resume before it gives up. Firefox's first
 * resume opens the sound server's stream, which took over a second beside other work (and a second
 * lost the kiosk's voice for the whole visit); an output that is really held back only delays the
 * fall-back to captions, which are on screen meanwhile.
 */
const RESUME_WAIT_MS = 5000;

/**
 * The end of everything one voice has queued on the audio clock. Each piece starts where the one
 * before it ends, or a lead ahead of now when that end has already passed (the first piece of a
 * reply, or a stream that fell behind).
 */
export class Playhead {
  private end = 0;

  constructor(
    private readonly clock: ClipClock,
    private readonly leadS = LEAD_S,
    /** told the new end at each piece placed */
    private readonly queuedUntil: (clockTime: number) => void = () => {},
  ) {}

  /** Places a piece of `duration` seconds; returns the clock time it starts at. */
  place(duration: number): number {
    const at = Math.max(this.clock.now() + this.leadS, this.end);
    this.end = at + duration;
    this.queuedUntil(this.end);
    return at;
  }

  /** When the last piece placed ends. */
  get endsAt(): number {
    return this.end;
  }

  /** What was queued has been stopped: the next piece starts a lead ahead of now. */
  clear(): void {
    this.end = 0;
  }
}

/** Calls `then` when the audio clock reaches `at` (at once when it has). Returns the cancel. */
export function atClockTime(clock: ClipClock, at: number, then: () => void): () => void {
  const ms = (at - clock.now()) * 1000;
  if (ms <= 0) {
    then();
    return () => {};
  }
  const timer = setTimeout(then, ms);
  return () => clearTimeout(timer);
}

/** A suspended context plays nothing and never ends: resume it, or say why not. */
export async function ensureRunning(context: AudioOutput): Promise<void> {
  if (context.state === 'running') return;
  if (context.state === 'closed') throw new ServiceError('tts', 'missing', 'the AudioContext is closed');
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([context.resume(), new Promise<void>((resolve) => (timer = setTimeout(resolve, RESUME_WAIT_MS)))]);
  clearTimeout(timer);
  if ((context.state as string) !== 'running') {
    throw new ServiceError('tts', 'denied', 'the browser keeps audio output suspended until the visitor taps');
  }
}
