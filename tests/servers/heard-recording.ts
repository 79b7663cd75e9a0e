// What a transcription double hears when the audio it is sent was cut from a recording it knows
// (a test's fixture, played as the kiosk's microphone): it finds where in the recording the audio
// came from, by the shape of its loudness, and answers with the words whose middle lies there,
// as a real recogniser transcribes the words a stretch holds. A turn cut at a pause then gets
// the words before the pause, and the next stretch the words after it, wherever the kiosk cut;
// audio sent again from where an earlier stretch began (the kiosk sends a turn again whole when
// the visitor goes on after a pause) gets all the words it holds.

/** Loudness is compared in windows this long. */
const WINDOW_MS = 10;
/**
 * The quietest a window counts as (−60 dBFS): digital silence, a quiet room, and what a browser's
 * noise suppression and gain control make of them all look alike.
 */
const FLOOR = 1e-3;
/** Below this likeness (Pearson's r of the loudness) the audio is not from the recording. */
const LEAST_LIKENESS = 0.9;
/** A place up to this many times as unlike as the best one still counts as a match (the earliest is taken). */
const NEAR_BEST = 1.5;
/** Audio comes in order: a stretch is looked for from a little before where the last one ended. */
const BACK_MS = 2000;

export interface HeardWord {
  text: string;
  /** where the word lies in the recording, in ms from its first sample */
  startMs: number;
  endMs: number;
}

/** Where a stretch of audio was found in the recording, and how alike the two are (r, up to 1). */
export interface FoundStretch {
  startMs: number;
  endMs: number;
  likeness: number;
  /** it begins where the stretch before it began, or before: that audio sent again, with more (the kiosk sends a turn again whole when the visitor goes on after a pause) */
  again: boolean;
  /** where its new audio begins: after the stretch before it, which it may overlap (a turn's audio from before its onset), or at its start when it is sent `again` */
  newFromMs: number;
}

/** The loudness of `samples` (at `sampleRate`), one log10 RMS per window. */
export function loudness(samples: Float32Array, sampleRate: number): Float64Array {
  const size = Math.max(1, Math.round((sampleRate * WINDOW_MS) / 1000));
  const out = new Float64Array(Math.floor(samples.length / size));
  for (let w = 0; w < out.length; w++) {
    let sum = 0;
    for (let i = w * size; i < (w + 1) * size; i++) sum += samples[i]! * samples[i]!;
    out[w] = Math.log10(Math.sqrt(sum / size) + FLOOR);
  }
  return out;
}

export class HeardRecording {
  private readonly shape: Float64Array;
  /** every stretch found so far, in order (what a test or the benchmark can read of the matching) */
  readonly found: FoundStretch[] = [];
  /** where the last stretch found began and ended (ms): the next is looked for from a little before either */
  private lastStartMs = 0;
  private lastEndMs = 0;

  constructor(samples: Float32Array, sampleRate: number, readonly words: readonly HeardWord[]) {
    this.shape = loudness(samples, sampleRate);
  }

  /** Where `samples` came from in the recording, or null when nothing in it is alike enough. */
  find(samples: Float32Array, sampleRate: number): FoundStretch | null {
    const heard = loudness(samples, sampleRate);
    const n = heard.length;
    if (n < 3 || n > this.shape.length) return null;
    const mean = heard.reduce((a, b) => a + b, 0) / n;
    let spread = 0;
    for (const v of heard) spread += (v - mean) ** 2;
    if (spread === 0) return null; // one loudness throughout (silence): it could be anywhere
    // Pearson's r of the heard loudness against the recording's at each place from `from`; the
    // place is the first that is about as alike as the best (a short stretch such as one word is
    // also alike to others later on; audio comes in order), at the top of its peak.
    const search = (from: number): { at: number; r: number } => {
      const likeness: number[] = [];
      for (let at = from; at + n <= this.shape.length; at++) {
        let sum = 0;
        let sumSq = 0;
        let cross = 0;
        for (let i = 0; i < n; i++) {
          const v = this.shape[at + i]!;
          sum += v;
          sumSq += v * v;
          cross += v * (heard[i]! - mean);
        }
        const variance = sumSq - (sum * sum) / n;
        likeness.push(variance <= 0 ? -1 : cross / Math.sqrt(variance * spread));
      }
      const best = likeness.reduce((a, b) => Math.max(a, b), -1);
      // Unlikeness (1 − r) within a small factor of the best's: every place where silence turns to
      // speech is somewhat alike (r about 0.97), the stretch's own place far more (0.99 and up).
      const near = Math.max(LEAST_LIKENESS, 1 - (NEAR_BEST * (1 - best) + 0.002));
      let first = likeness.findIndex((r) => r >= near);
      if (first < 0) return { at: -1, r: best };
      for (let i = first; i < Math.min(likeness.length, first + n); i++) if (likeness[i]! > likeness[first]!) first = i;
      return { at: from + first, r: likeness[first]! };
    };
    let best = search(Math.max(0, Math.floor((Math.min(this.lastStartMs, this.lastEndMs - BACK_MS) - WINDOW_MS) / WINDOW_MS)));
    let before = this.lastEndMs;
    if (best.r < LEAST_LIKENESS) {
      best = search(0); // a test that played an earlier line again
      before = 0;
    }
    if (best.r < LEAST_LIKENESS) return null;
    const startMs = best.at * WINDOW_MS;
    // From where the last stretch began, or before it: the same audio sent again, all of it to hear.
    const again = this.found.length > 0 && startMs <= this.lastStartMs + WINDOW_MS;
    const found = { startMs, endMs: (best.at + n) * WINDOW_MS, likeness: best.r, again, newFromMs: again ? startMs : Math.max(startMs, before) };
    this.lastStartMs = found.startMs;
    this.lastEndMs = found.endMs;
    this.found.push(found);
    return found;
  }

  /** The words whose middle lies in the stretch's new audio, joined as a recogniser writes them. */
  wordsIn(stretch: FoundStretch): string {
    return this.words
      .filter((w) => {
        const middle = (w.startMs + w.endMs) / 2;
        return middle >= stretch.newFromMs && middle < stretch.endMs;
      })
      .map((w) => w.text)
      .join(' ');
  }

  /** What a recogniser answers for `samples`: the words they hold, or a note that they are not from the recording. */
  transcribe(samples: Float32Array, sampleRate: number): string {
    const found = this.find(samples, sampleRate);
    if (found === null) return `[audio of ${Math.round((samples.length / sampleRate) * 1000)} ms not found in the recording]`;
    return this.wordsIn(found);
  }
}
