// WAV files as the speech services want them: mono 16-bit PCM (RIFF/WAVE, format 1). Encoding
// for the segments the kiosk sends to transcription; decoding for the speech services' answers
// and the tests. Pure: no DOM, runs in Node.

import { toPcm16 } from './pcm.ts';

/** Encodes mono samples in [-1, 1] as a 16-bit PCM WAV file. */
export function encodeWav(samples: Float32Array, sampleRate: number): ArrayBuffer {
  const bytes = 44 + samples.length * 2;
  const buffer = new ArrayBuffer(bytes);
  const view = new DataView(buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < text.length; i++) view.setUint8(at + i, text.charCodeAt(i));
  };
  ascii(0, 'RIFF');
  view.setUint32(4, bytes - 8, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true); // size of the fmt chunk
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // bytes per second
  view.setUint16(32, 2, true); // bytes per frame
  view.setUint16(34, 16, true); // bits per sample
  ascii(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  new Uint8Array(buffer, 44).set(toPcm16(samples));
  return buffer;
}

export interface DecodedWav {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** the first channel, in [-1, 1] */
  samples: Float32Array;
}

/** Decodes a PCM WAV file (8, 16, 24 or 32-bit integer, or 32-bit float). Throws on anything else. */
export function decodeWav(data: ArrayBuffer | Uint8Array): DecodedWav {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = (at: number, n: number) => String.fromCharCode(...bytes.subarray(at, at + n));
  if (bytes.byteLength < 12 || ascii(0, 4) !== 'RIFF' || ascii(8, 4) !== 'WAVE') throw new Error('not a RIFF/WAVE file');
  let format = 0;
  let channels = 0;
  let sampleRate = 0;
  let bits = 0;
  let at = 12;
  while (at + 8 <= bytes.byteLength) {
    const id = ascii(at, 4);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      format = view.getUint16(body, true);
      channels = view.getUint16(body + 2, true);
      sampleRate = view.getUint32(body + 4, true);
      bits = view.getUint16(body + 14, true);
      if (format === 0xfffe && size >= 26) format = view.getUint16(body + 24, true); // WAVE_FORMAT_EXTENSIBLE
    } else if (id === 'data') {
      if (!channels) throw new Error('WAV data before its fmt chunk');
      const frameBytes = (bits / 8) * channels;
      // Streamed WAVs may give a size of 0 or 0xFFFFFFFF: read to the end of the file.
      const end = size === 0 || body + size > bytes.byteLength ? bytes.byteLength : body + size;
      const count = Math.floor((end - body) / frameBytes);
      const samples = new Float32Array(count);
      for (let i = 0; i < count; i++) samples[i] = readSample(view, body + i * frameBytes, format, bits);
      return { sampleRate, channels, bitsPerSample: bits, samples };
    }
    at = body + size + (size % 2);
  }
  throw new Error('WAV file has no data chunk');
}

function readSample(view: DataView, at: number, format: number, bits: number): number {
  if (format === 3 && bits === 32) return view.getFloat32(at, true);
  if (format !== 1) throw new Error(`unsupported WAV format ${format}`);
  switch (bits) {
    case 8:
      return (view.getUint8(at) - 128) / 128;
    case 16:
      return view.getInt16(at, true) / 0x8000;
    case 24: {
      const v = view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getInt8(at + 2) << 16);
      return v / 0x800000;
    }
    case 32:
      return view.getInt32(at, true) / 0x80000000;
    default:
      throw new Error(`unsupported WAV sample size ${bits}`);
  }
}
