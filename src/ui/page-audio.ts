// The page's one AudioContext, which the kiosk's voice and the voice detector share, and its rest
// while neither needs it. A running context renders silence without end: in Chromium a twentieth
// of a core (the audio service and the page's audio thread), all day on a kiosk whose visitor has
// gone, and an output device held open. So it is suspended once no microphone listens through
// it and what was played ended a while ago, and woken again by whoever asks for it.

/** The parts of an AudioContext its rest needs. */
export interface RestingContext {
  readonly state: string;
  readonly currentTime: number;
  resume(): Promise<void>;
  suspend(): Promise<void>;
}

/**
 * How long the output stays awake after its last use: long enough that the next sentence of a
 * reply, or the reply to a tap just made, finds it running (a woken context is heard a few
 * milliseconds later in Chromium; Firefox may reopen the sound server's stream, which is slower).
 */
export const AWAKE_AFTER_USE_MS = 10_000;

export interface PageAudioOptions<C extends RestingContext> {
  /** makes the context, once, the first time it is asked for */
  make: () => C;
  awakeAfterUseMs?: number;
  /** the clock of the rest's timer (performance.now() in the page) */
  now?: () => number;
  /** runs `check` in `ms` (setTimeout in the page) */
  later?: (check: () => void, ms: number) => void;
}

export class PageAudio<C extends RestingContext> {
  private context: C | null = null;
  /** microphones listening through the context now: it never rests while one is */
  private listeners = 0;
  /** the audio clock's time at which everything queued so far has been played */
  private playedUntil = 0;
  /** when the context was last used, on `now`'s clock: asked for, or (ahead of now) when what is queued is expected to end */
  private lastUse = 0;
  /** whether a check of the rest is waiting to run */
  private pending = false;
  private readonly awakeMs: number;
  private readonly now: () => number;
  private readonly later: (check: () => void, ms: number) => void;

  constructor(private readonly options: PageAudioOptions<C>) {
    this.awakeMs = options.awakeAfterUseMs ?? AWAKE_AFTER_USE_MS;
    this.now = options.now ?? (() => performance.now());
    this.later = options.later ?? ((check, ms) => void setTimeout(check, ms));
  }

  /**
   * The context, made on first use. Woken when `wake` (a browser lets audio run only after a tap:
   * a context made before one stays suspended, and is woken at the tap).
   */
  get(wake = true): C {
    this.context ??= this.options.make();
    if (!wake) return this.context;
    this.lastUse = this.now();
    if (this.context.state === 'suspended') void this.context.resume().catch(() => undefined);
    this.restLater();
    return this.context;
  }

  /**
   * Wakes the context if one was made (called from a tap or a key, whose gesture lets every
   * browser resume it, so that a reply that follows it finds the output running); makes none.
   */
  wake(): void {
    if (this.context) this.get(true);
  }

  /** A microphone listens through the context from now until the returned function is called. */
  listen(): () => void {
    this.listeners++;
    this.get(true);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.listeners--;
      this.lastUse = this.now();
      this.restLater();
    };
  }

  /** Something has been queued to play until `clockTime` on the context's clock: its end counts as a use. */
  playsUntil(clockTime: number): void {
    this.playedUntil = Math.max(this.playedUntil, clockTime);
    const endsInMs = this.context ? Math.max(0, (clockTime - this.context.currentTime) * 1000) : 0;
    this.lastUse = Math.max(this.lastUse, this.now() + endsInMs);
    this.restLater();
  }

  private restLater(): void {
    if (this.pending || this.listeners > 0) return;
    this.pending = true;
    this.later(() => this.restIfIdle(), this.untilIdleMs());
  }

  /**
   * How long until the context has gone unused for awakeMs, and its clock has passed the end of
   * what was queued (an audio thread running late plays on past the moment its end was expected).
   */
  private untilIdleMs(): number {
    const playing = this.context ? Math.max(0, (this.playedUntil - this.context.currentTime) * 1000) : 0;
    return Math.max(this.awakeMs - (this.now() - this.lastUse), playing, 0);
  }

  private restIfIdle(): void {
    this.pending = false;
    const context = this.context;
    if (!context || this.listeners > 0) return;
    if (this.untilIdleMs() > 0) return this.restLater();
    if (context.state === 'running') void context.suspend().catch(() => undefined);
  }
}
