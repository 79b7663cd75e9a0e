// A stand-in for the page's AudioContext in Node tests of the speech adapter: a clock that runs
// in real time, buffers and buffer sources that end when their audio would have, and a record of
// every piece put on the clock (when it starts, how long it is, whether it was stopped).
//
// A test can hold the clock (`hold`, `release`): while held, the audio clock moves only by a
// nanosecond at each reading (an audio thread alive but far behind) and no piece ends. A test of
// what happens when the sound arrives in time holds the clock until it has arrived, so a busy
// machine that starves the test cannot make the sound late.

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
  /** what it was connected to last */
  connectedTo: unknown = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** the clock time its audio is over */
  private endsAt = 0;

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

  connect(destination: unknown): void {
    this.connected = true;
    this.connectedTo = destination;
  }
  disconnect(): void {
    this.connected = false;
  }

  start(when = 0): void {
    this.startAt = when;
    this.endsAt = Math.max(when, this.context.currentTime) + this.duration;
    this.context.startedOne();
    this.arm();
  }

  /** Sets the timer of its natural end, unless the clock is held (the context calls it again on release). */
  arm(): void {
    clearTimeout(this.timer);
    if (this.startAt === null || this.ended || this.stopped || this.context.held) return;
    this.timer = setTimeout(() => this.end(), Math.max(0, this.endsAt - this.context.currentTime) * 1000);
  }

  /** The clock is held: its audio does not run out meanwhile. */
  disarm(): void {
    clearTimeout(this.timer);
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
  /** every gain node made, in order, with what each was connected to */
  readonly gains: { gain: { value: number }; connectedTo: unknown; connect(destination: unknown): void }[] = [];
  /** performance.now() at clock time 0 (moved on by the time spent held) */
  private zero = performance.now();
  /** the clock time it was held at, and how far readings have crept since (null: running) */
  private heldAt: number | null = null;
  private creep = 0;
  private readonly queueWaiters: { seconds: number; resolve: () => void }[] = [];

  get currentTime(): number {
    if (this.heldAt === null) return (performance.now() - this.zero) / 1000;
    this.creep += 1e-9;
    return this.heldAt + this.creep;
  }

  get held(): boolean {
    return this.heldAt !== null;
  }

  /** Stops the clock (see the top of the file). */
  hold(): void {
    if (this.heldAt !== null) return;
    this.heldAt = this.currentTime;
    this.creep = 0;
    for (const source of this.sources) source.disarm();
  }

  /** Lets the clock run on in real time from where it was held. */
  release(): void {
    if (this.heldAt === null) return;
    this.zero = performance.now() - (this.heldAt + this.creep) * 1000;
    this.heldAt = null;
    for (const source of this.sources) source.arm();
  }

  /** Resolves once pieces holding `seconds` of audio in all have been started. */
  whenQueued(seconds: number): Promise<void> {
    if (this.queuedSeconds() >= seconds - 1e-6) return Promise.resolve();
    return new Promise((resolve) => this.queueWaiters.push({ seconds, resolve }));
  }

  /** A source was started (FakeSource calls it). */
  startedOne(): void {
    const queued = this.queuedSeconds();
    for (const waiter of [...this.queueWaiters]) {
      if (queued < waiter.seconds - 1e-6) continue;
      this.queueWaiters.splice(this.queueWaiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }

  private queuedSeconds(): number {
    return this.started.reduce((sum, source) => sum + source.duration, 0);
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

  createGain(): { gain: { value: number }; connectedTo: unknown; connect(destination: unknown): void } {
    const node = {
      gain: { value: 1 },
      connectedTo: null as unknown,
      connect(destination: unknown) {
        node.connectedTo = destination;
      },
    };
    this.gains.push(node);
    return node;
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
