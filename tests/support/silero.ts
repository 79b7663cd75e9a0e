// Silero v5 (the model vad-web runs in the page) run in Node on onnxruntime-web's wasm build, so
// that turn-taking is tested on the recorded fixtures with the real detector's probabilities.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as ort from 'onnxruntime-web/wasm';
import { decodeWav } from '../../src/voice/wav.ts';

const require = createRequire(import.meta.url);

interface SileroModel {
  reset_state(): void;
  process(frame: Float32Array): Promise<{ isSpeech: number; notSpeech: number }>;
}

/** 512 samples at 16 kHz: the frame Silero v5 takes (32 ms). */
export const FRAME_SAMPLES = 512;
export const FRAME_MS = 32;

let model: Promise<SileroModel> | null = null;

function loadModel(): Promise<SileroModel> {
  if (!model) {
    ort.env.wasm.numThreads = 1;
    ort.env.logLevel = 'error';
    const { Silero } = require('@ricky0123/vad-web/dist/models/index.js') as {
      Silero: { new: (o: typeof ort, fetch: () => Promise<ArrayBuffer>) => Promise<SileroModel> };
    };
    const file = require.resolve('@ricky0123/vad-web/dist/silero_vad_v5.onnx');
    model = Silero.new(ort, async () => {
      const bytes = readFileSync(file);
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    });
  }
  return model;
}

export interface ScoredFrame {
  samples: Float32Array;
  probability: number;
}

const cache = new Map<string, Promise<ScoredFrame[]>>();

/** The frames of a 16 kHz WAV file with Silero's speech probability for each. */
export function scoreWav(path: string): Promise<ScoredFrame[]> {
  let scored = cache.get(path);
  if (!scored) {
    scored = (async () => {
      const wav = decodeWav(readFileSync(path));
      if (wav.sampleRate !== 16000) throw new Error(`${path}: Silero wants 16 kHz, the file is ${wav.sampleRate} Hz`);
      const silero = await loadModel();
      silero.reset_state();
      const frames: ScoredFrame[] = [];
      for (let at = 0; at + FRAME_SAMPLES <= wav.samples.length; at += FRAME_SAMPLES) {
        const samples = wav.samples.slice(at, at + FRAME_SAMPLES);
        frames.push({ samples, probability: (await silero.process(samples)).isSpeech });
      }
      return frames;
    })();
    cache.set(path, scored);
  }
  return scored;
}
