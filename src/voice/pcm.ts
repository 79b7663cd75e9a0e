// Raw audio as the streaming services take it: 16-bit little-endian mono PCM, base64 in JSON
// messages, at a rate of the service's choosing (24 kHz for the OpenAI Realtime protocol). The
// microphone's frames are resampled on the way, continuously across frames, so the joins between
// frames are as smooth as the rest. Pure: runs in Node.

/** Samples in [-1, 1] as 16-bit little-endian PCM bytes. */
export function toPcm16(samples: Float32Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]!));
    view.setInt16(i * 2, s < 0 ? s * 0x8000 : s * 0x7fff, true);
  }
  return bytes;
}

/** Bytes as base64 (btoa takes a binary string; built in slices so long frames do not overflow the stack). */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

/**
 * A resampler for a stream of frames (linear interpolation). It keeps the last sample of each
 * frame and its position, so a stream resampled frame by frame equals the whole resampled at once.
 */
export class StreamResampler {
  private readonly step: number;
  /** where the next output sample falls, in input samples, counted from the last input sample kept */
  private at = 0;
  private last: number | null = null;

  constructor(from: number, to: number) {
    this.step = from / to;
  }

  push(frame: Float32Array): Float32Array {
    if (this.step === 1) return frame;
    // The input as one array: the last sample of the frame before, then this frame.
    const offset = this.last === null ? 0 : 1;
    const input = (i: number) => (i < offset ? this.last! : frame[i - offset]!);
    const length = frame.length + offset;
    const out: number[] = [];
    let at = this.at;
    while (at <= length - 1) {
      const k = Math.floor(at);
      const a = input(k);
      const b = k + 1 < length ? input(k + 1) : null;
      if (b === null) {
        if (at === k) out.push(a);
        else break;
      } else out.push(a + (b - a) * (at - k));
      at += this.step;
    }
    if (length > 0) {
      this.last = input(length - 1);
      this.at = at - (length - 1);
    }
    return Float32Array.from(out);
  }
}
