// The detector's model as the build writes it (scripts/detector-model.ts): only the 16 kHz
// network, with the LSTM for a given state, and every frame of a recorded visitor scored to the
// same bits as vad-web's own model, speech probability and state alike.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as ort from 'onnxruntime-web/wasm';
import { describe, expect, it } from 'vitest';
import { decodeWav } from '../../src/voice/wav.ts';
import { foldDetector, KIOSK_FEED, topLevelOps } from '../../scripts/detector-model.ts';
import { AUDIO_FIXTURES_DIR } from '../support/audio-fixtures.ts';

const require = createRequire(import.meta.url);
const original = new Uint8Array(readFileSync(require.resolve('@ricky0123/vad-web/dist/silero_vad_v5.onnx')));

/** Scores every 512-sample frame of `samples` the way vad-web does: the state carried from frame to frame. */
async function score(model: Uint8Array, samples: Float32Array): Promise<Float32Array[]> {
  ort.env.wasm.numThreads = 1;
  ort.env.logLevel = 'error';
  const session = await ort.InferenceSession.create(model, { graphOptimizationLevel: 'disabled' });
  const sr = new ort.Tensor('int64', [BigInt(KIOSK_FEED.sampleRate)]);
  let state = new ort.Tensor('float32', new Float32Array(256), [...KIOSK_FEED.stateShape]);
  const scores: Float32Array[] = [];
  for (let at = 0; at + 512 <= samples.length; at += 512) {
    const out = await session.run({ input: new ort.Tensor('float32', samples.slice(at, at + 512), [1, 512]), state, sr });
    state = out.stateN as typeof state;
    scores.push(Float32Array.from([...(out.output!.data as Float32Array), ...(state.data as Float32Array)]));
  }
  await session.release();
  return scores;
}

describe("the detector's model as the kiosk runs it", () => {
  const { model, folded } = foldDetector(original);

  it('keeps only the branches 16 kHz audio and a given state take', () => {
    expect(folded).toBe(2);
    expect(topLevelOps(original)).toEqual(['Constant', 'Equal', 'If', 'Identity', 'Identity']);
    // one network (its first op pads the frame), one LSTM: the others were behind the Ifs folded
    expect(topLevelOps(model).filter((op) => op === 'Pad' || op === 'LSTM')).toEqual(['Pad', 'LSTM']);
    expect(model.length).toBeLessThan(original.length * 0.6);
  });

  it('scores a recorded line to the same bits as vad-web’s model, frame by frame', async () => {
    const wav = decodeWav(readFileSync(`${AUDIO_FIXTURES_DIR}phone-pause.wav`));
    const [theirs, ours] = [await score(original, wav.samples), await score(model, wav.samples)];
    expect(ours).toHaveLength(theirs.length);
    expect(theirs.length).toBeGreaterThan(200);
    const differing = ours.filter((frame, i) => frame.some((v, j) => !Object.is(v, theirs[i]![j])));
    expect(differing).toHaveLength(0);
    // and the line is heard: some frames are speech, some are not
    expect(ours.some((f) => f[0]! > 0.9) && ours.some((f) => f[0]! < 0.1)).toBe(true);
  });
});
