// Whether the microphone is really heard: its frames must keep reaching the detector. A browser
// can open the microphone and still deliver nothing: Firefox keeps every AudioContext suspended
// on a machine with no audio output device, Safari suspends it ("interrupted") when another app
// takes the audio, and a device unplugged mid-visit goes quiet. The kiosk must then say it cannot
// hear, never show "Listening". Frames come every 32 ms while the microphone is open, so a gap of
// seconds is no pause in speech: it is a microphone that gives nothing.

import { ServiceError } from '../../ports/service-error.ts';

/** The timers the watch uses (the page's, or a test's). */
export interface WatchTimers {
  now(): number;
  every(ms: number, tick: () => void): () => void;
}

const PAGE_TIMERS: WatchTimers = {
  now: () => performance.now(),
  every: (ms, tick) => {
    const id = setInterval(tick, ms);
    return () => clearInterval(id);
  },
};

/** What the watch does about a silent microphone. */
export interface FrameWatchHooks {
  /** halfway to the limit: wake the audio (resume a suspended AudioContext) */
  wake(): void;
  /** the limit passed with no frame: the microphone gives nothing (`why` for the operator's log) */
  silent(error: ServiceError): void;
  /** what the audio is doing now, for the log line */
  describe?(): string;
}

/**
 * Watches one opening of the microphone: `frame()` at every frame; `hooks.wake` once no frame has
 * come for half of `limitMs`, `hooks.silent` once none has come for `limitMs` (then the watch
 * stops). `firstFrame` resolves at the first frame (or when the watch is stopped first) and
 * rejects with the silent error.
 */
export class FrameWatch {
  readonly firstFrame: Promise<void>;
  private last: number;
  /** whether a frame has come since the watch began */
  heard = false;
  private woken = false;
  private stopTimer: (() => void) | null;
  private settle!: { resolve: () => void; reject: (error: ServiceError) => void };

  constructor(
    private readonly limitMs: number,
    private readonly hooks: FrameWatchHooks,
    private readonly timers: WatchTimers = PAGE_TIMERS,
  ) {
    this.firstFrame = new Promise<void>((resolve, reject) => (this.settle = { resolve, reject }));
    this.firstFrame.catch(() => undefined); // told through hooks.silent too
    this.last = timers.now();
    this.stopTimer = timers.every(Math.max(50, Math.round(limitMs / 4)), () => this.check());
  }

  /** A frame reached the detector. */
  frame(): void {
    this.last = this.timers.now();
    this.woken = false;
    if (!this.heard) {
      this.heard = true;
      this.settle.resolve();
    }
  }

  /** The microphone was closed: nothing more to watch (and nothing more to wait for). */
  stop(): void {
    this.stopTimer?.();
    this.stopTimer = null;
    this.settle.resolve();
  }

  private check(): void {
    const quiet = this.timers.now() - this.last;
    if (quiet >= this.limitMs) {
      const audio = this.hooks.describe?.() ?? '';
      const error = new ServiceError('microphone', 'timeout', `no sound from the microphone for ${Math.round(quiet / 1000)} s${this.heard ? ' (it had been heard)' : ''}${audio ? `; ${audio}` : ''}`);
      this.settle.reject(error);
      this.stop();
      this.hooks.silent(error);
    } else if (quiet >= this.limitMs / 2 && !this.woken) {
      this.woken = true;
      this.hooks.wake();
    }
  }
}
