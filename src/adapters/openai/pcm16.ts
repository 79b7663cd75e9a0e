// OpenAI's `pcm` speech: raw 24 kHz mono samples, 16-bit little-endian, with no header. The body
// arrives in chunks of any length, so a sample may be split between two chunks: its first byte
// is kept until the next chunk brings the second.

/** The sample rate of OpenAI's `pcm` (and `wav`) speech. */
export const PCM_SAMPLE_RATE = 24_000;

/** Turns the chunks of one pcm16 body, in order, into float samples in [-1, 1). */
export class Pcm16Decoder {
  /** the first byte of a sample whose second byte has not arrived yet */
  private carry: number | null = null;

  /** The samples completed by `bytes` (none when it only starts one). */
  decode(bytes: Uint8Array): Float32Array {
    const held = this.carry === null ? 0 : 1;
    const out = new Float32Array((bytes.length + held) >> 1);
    let i = 0;
    let k = 0;
    if (this.carry !== null && bytes.length > 0) {
      out[k++] = sample(this.carry, bytes[0]!);
      this.carry = null;
      i = 1;
    }
    for (; i + 1 < bytes.length; i += 2) out[k++] = sample(bytes[i]!, bytes[i + 1]!);
    if (i < bytes.length) this.carry = bytes[i]!;
    return out;
  }

  /** True when the body so far ends in half a sample (a whole body never should). */
  get unfinished(): boolean {
    return this.carry !== null;
  }
}

function sample(low: number, high: number): number {
  const value = low | (high << 8);
  return (value >= 0x8000 ? value - 0x10000 : value) / 0x8000;
}
