// Whether a transcription double is sent audio it has answered already, and more: the kiosk sends
// a turn again whole, from its first frame, when the visitor goes on after a pause it had
// committed (a look at the turn so far). A real service transcribes the whole audio afresh, so the
// doubles answer it as the whole turn, in place of the look's answer. The look may have gone one
// way and the whole turn another (streamed, then uploaded after a dropped socket), at 24 kHz or at
// 16 kHz, so the audio is compared by its loudness in 10 ms windows, which resampling keeps.

import { loudness } from './heard-recording.ts';

/** The earlier audio's windows may differ from the later one's by this much on average (log10 of their RMS: about 12 %). */
const TOLERANCE = 0.05;
/** Windows at the earlier audio's end left out of the comparison (a resampler's last samples differ). */
const EDGE_WINDOWS = 2;

export interface HeardAudio {
  samples: Float32Array;
  sampleRate: number;
}

/** The last audio with speech a double answered, to know the same audio sent again. */
export class LastHeard {
  private loudness: Float64Array | null = null;

  /**
   * Whether `audio` begins with all of the last audio heard and goes on past it; then remembers
   * `audio` as the last (when it holds speech).
   */
  again(audio: HeardAudio, speechMs: number): boolean {
    const heard = loudness(audio.samples, audio.sampleRate);
    const again = this.loudness !== null && beginsWith(heard, this.loudness);
    if (speechMs > 0) this.loudness = heard;
    return again;
  }

  forget(): void {
    this.loudness = null;
  }
}

function beginsWith(later: Float64Array, earlier: Float64Array): boolean {
  if (later.length <= earlier.length) return false;
  const n = earlier.length - EDGE_WINDOWS;
  let difference = 0;
  for (let w = 0; w < n; w++) difference += Math.abs(later[w]! - earlier[w]!);
  return n > 0 && difference / n <= TOLERANCE;
}
