// The streaming audio helpers: pcm16 bytes, base64, and a resampler that gives the same samples
// frame by frame as over the whole stream at once.

import { describe, expect, it } from 'vitest';
import { StreamResampler, toBase64, toPcm16 } from '../../src/voice/pcm.ts';

function ramp(n: number): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => Math.sin(i / 7) * 0.8);
}

describe('pcm helpers', () => {
  it('writes 16-bit little-endian samples, clipped to [-1, 1]', () => {
    const bytes = toPcm16(Float32Array.from([0, 1, -1, 2, 0.5]));
    const view = new DataView(bytes.buffer);
    expect([0, 1, 2, 3, 4].map((i) => view.getInt16(i * 2, true))).toEqual([0, 32767, -32768, 32767, 16383]);
  });

  it('base64 of a long buffer matches Node', () => {
    const bytes = toPcm16(ramp(70_000));
    expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
  });

  it('resamples 16 kHz to 24 kHz frame by frame exactly as in one piece', () => {
    const whole = ramp(512 * 6);
    const once = new StreamResampler(16_000, 24_000).push(whole);
    const stream = new StreamResampler(16_000, 24_000);
    const parts: number[] = [];
    for (let at = 0; at < whole.length; at += 512) parts.push(...stream.push(whole.subarray(at, at + 512)));
    expect(parts.length).toBe(once.length);
    parts.forEach((v, i) => expect(v).toBeCloseTo(once[i]!, 6));
    // 1.5 output samples per input sample, less the last fraction
    expect(once.length).toBeGreaterThanOrEqual(whole.length * 1.5 - 2);
    // the input samples reappear at every third output sample
    expect(once[3]).toBeCloseTo(whole[2]!, 6);
  });

  it('leaves audio at the same rate alone', () => {
    const frame = ramp(100);
    expect(new StreamResampler(24_000, 24_000).push(frame)).toBe(frame);
  });
});
