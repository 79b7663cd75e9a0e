// A stand-in for the page's AudioContext in Node tests of the speech adapter: a clock that runs
// in real time, buffers and buffer sources that end when their audio would have, and a record of
// every piece put on the clock (when it starts, how long it is, whether it was stopped).

import type { AudioOutput } from '../../src/adapters/openai/audio-out.ts';
import { decodeWav } from '../../src/voice/wav.ts';

class FakeBuffer {
  readonly data: Float32Array;
  constructor(
    readonly length: number,
    readonly sampleRate: number,
  ) {
    this.data = new Float32Array(length);
  }
  get duration(): number {
    return this.length / this.sampleRate;
  }
  getChannelData(): Float32Array {
    return this.data;
  }
}

/** One AudioBufferSourceNode, as the test sees it. */
export class FakeSource {
  buffer: FakeBuffer | null = null;
  private readonly listeners = new Set<() => void>();
  /** the clock time it was started at, once started */
  startAt: number | null = null;
  stopped = false;
  ended = false;
  connected = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly context: FakeAudioContext) {}

  get duration(): number {
    return this.buffer?.duration ?? 0;
  }

  addEventListener(_type: 'ended', listener: () => void): void {
    this.listeners.add(listener);
  }
  removeEventListener(_type: 'ended', listener: () => void): void {
    this.listeners.delete(listener);
  }

  connect(): void {
    this.connected = true;
  }
  disconnect(): void {
    this.connected = false;
  }

  start(when = 0): void {
    this.startAt = when;
    const endsAt = Math.max(when, this.context.currentTime) + this.duration;
    this.timer = setTimeout(() => this.end(), (endsAt - this.context.currentTime) * 1000);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.stopped = true;
    // Web Audio sends `ended` after a stop too.
    setTimeout(() => this.end(), 0);
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    for (const listener of [...this.listeners]) listener();
  }
}

export class FakeAudioContext {
  state: 'running' | 'suspended' | 'closed' = 'running';
  readonly destination = {};
  /** every source made, in order */
  readonly sources: FakeSource[] = [];
  private readonly zero = performance.now();

  get currentTime(): number {
    return (performance.now() - this.zero) / 1000;
  }

  resume(): Promise<void> {
    if (this.state === 'suspended') this.state = 'running';
    return Promise.resolve();
  }

  createBuffer(_channels: number, length: number, sampleRate: number): FakeBuffer {
    return new FakeBuffer(length, sampleRate);
  }

  createBufferSource(): FakeSource {
    const source = new FakeSource(this);
    this.sources.push(source);
    return source;
  }

  decodeAudioData(bytes: ArrayBuffer): Promise<FakeBuffer> {
    const wav = decodeWav(bytes);
    const buffer = new FakeBuffer(wav.samples.length, wav.sampleRate);
    buffer.data.set(wav.samples);
    return Promise.resolve(buffer);
  }

  /** The sources that were started, in the order of their start times. */
  get started(): FakeSource[] {
    return this.sources.filter((s) => s.startAt !== null).sort((a, b) => a.startAt! - b.startAt!);
  }

  /** As the page's AudioContext, for the adapter. */
  asAudioContext(): AudioOutput {
    return this;
  }
}
