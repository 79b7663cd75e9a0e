// Web Audio's `ended` event is the only word that a clip is over, and it can be lost: a busy
// machine starves the audio thread, the output device stalls, the OS suspends the context. A
// clip that never ends holds the kiosk in "Speaking" and the visitor is never heard again. This
// watch ends the clip itself once the context's clock has passed the clip's end, or has stopped
// moving, after the clip's own length.

export interface ClipClock {
  /** the AudioContext's `currentTime`, in seconds */
  now(): number;
}

export interface ClipEndWatchOptions {
  clock: ClipClock;
  /** the context time at which the clip started, and its length, in seconds */
  startedAt: number;
  duration: number;
  /** called once, when the clip should be treated as over */
  overdue: (why: 'played' | 'stalled') => void;
  /** how often to look once the clip should be over (default 500 ms) */
  pollMs?: number;
}

/** A margin for the audio thread's lag before a played clip is called over without its event. */
const END_MARGIN_S = 0.25;

/** Starts watching; returns the function that stops the watch (call it when `ended` arrives). */
export function watchClipEnd(options: ClipEndWatchOptions): () => void {
  const { clock, startedAt, duration, overdue } = options;
  const pollMs = options.pollMs ?? 500;
  const endsAt = startedAt + duration;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = Number.NaN;
  const look = () => {
    const now = clock.now();
    if (now >= endsAt + END_MARGIN_S) return overdue('played');
    if (now === last) return overdue('stalled');
    last = now;
    timer = setTimeout(look, pollMs);
  };
  timer = setTimeout(look, Math.max(0, duration * 1000));
  return () => clearTimeout(timer);
}
