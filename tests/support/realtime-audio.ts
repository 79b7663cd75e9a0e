// Speech from the audio fixtures as a Realtime transcription session takes it: one line cut from
// its 16 kHz WAV with some silence around it, resampled to 24 kHz, as 16-bit PCM in base64
// pieces the size a page would stream.

import { StreamResampler, toPcm16 } from '../../src/voice/pcm.ts';
import { fixtureAudio, loadFixture, type FixtureName } from './audio-fixtures.ts';

/** The sample rate of `audio/pcm`. */
export const REALTIME_RATE = 24_000;

/** Line `index` of fixture `name` with `padMs` of what surrounds it, at 24 kHz, from -1 to 1. */
export function fixtureLine24k(name: FixtureName, index: number, padMs = 300): Float32Array {
  const line = loadFixture(name).lines[index];
  if (!line) throw new Error(`${name} has no line ${index}`);
  return fixtureSpan24k(name, line.startMs - padMs, line.endMs + padMs);
}

/** The stretch of fixture `name` from `startMs` to `endMs`, at 24 kHz, from -1 to 1. */
export function fixtureSpan24k(name: FixtureName, startMs: number, endMs: number): Float32Array {
  const wav = fixtureAudio(loadFixture(name).path);
  const at = (ms: number) => Math.max(0, Math.min(wav.samples.length, Math.round((ms / 1000) * wav.sampleRate)));
  return new StreamResampler(wav.sampleRate, REALTIME_RATE).push(wav.samples.subarray(at(startMs), at(endMs)));
}

/** `samples` as little-endian 16-bit PCM in base64 pieces of `pieceMs` each (the last one shorter). */
export function pcm16Pieces(samples: Float32Array, pieceMs = 100, rate = REALTIME_RATE): string[] {
  const bytes = Buffer.from(toPcm16(samples));
  const step = Math.round((pieceMs / 1000) * rate) * 2;
  const pieces: string[] = [];
  for (let from = 0; from < bytes.length; from += step) pieces.push(bytes.subarray(from, from + step).toString('base64'));
  return pieces;
}

/** `ms` of silence as one base64 piece. */
export function silencePiece(ms: number, rate = REALTIME_RATE): string {
  return Buffer.alloc(Math.round((ms / 1000) * rate) * 2).toString('base64');
}
