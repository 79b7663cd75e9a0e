// A Vite plugin that puts the voice-activity detector's files where the page loads them from:
// `public/vad/` (so `vite dev` serves them and `vite build` copies them into dist/). The model,
// its audio worklet and the onnxruntime-web wasm come out of node_modules, never from a CDN,
// so a kiosk can cache them for offline use. The model is written as the kiosk runs it, with only
// the branches of its graph that 16 kHz audio takes (detector-model.ts): the same scores, a quicker
// start. The copies are not committed (.gitignore).

import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';
import { foldDetector } from './detector-model.ts';

/** Where the page finds the files: MicVAD's baseAssetPath and onnxWASMBasePath. */
export const VAD_ASSET_PATH = '/vad/';

const require = createRequire(import.meta.url);

function sources(): Record<string, string> {
  const vad = dirname(require.resolve('@ricky0123/vad-web/dist/index.js'));
  // onnxruntime-web does not export its package.json, but it exports the wasm file.
  const ort = dirname(require.resolve('onnxruntime-web/ort-wasm-simd-threaded.wasm'));
  return {
    [DETECTOR_MODEL]: join(vad, DETECTOR_MODEL),
    'vad.worklet.bundle.min.js': join(vad, 'vad.worklet.bundle.min.js'),
    'ort-wasm-simd-threaded.wasm': join(ort, 'ort-wasm-simd-threaded.wasm'),
    'ort-wasm-simd-threaded.mjs': join(ort, 'ort-wasm-simd-threaded.mjs'),
  };
}

/** The model vad-web loads from VAD_ASSET_PATH, and the name of vad-web's own that it is written from. */
export const DETECTOR_MODEL = 'silero_vad_v5.onnx';

/**
 * Puts the files into `<root>/public/vad/`: each copied when missing or older than the installed
 * one, the model written from vad-web's when it differs from what is there.
 */
export function copyVadAssets(root: string): string[] {
  const target = join(root, 'public', 'vad');
  mkdirSync(target, { recursive: true });
  const copied: string[] = [];
  for (const [name, from] of Object.entries(sources())) {
    const to = join(target, name);
    if (name === DETECTOR_MODEL) {
      const model = foldDetector(readFileSync(from)).model;
      if (existsSync(to) && Buffer.compare(readFileSync(to), model) === 0) continue;
      writeFileSync(to, model);
    } else {
      if (existsSync(to) && statSync(to).mtimeMs >= statSync(from).mtimeMs && statSync(to).size === statSync(from).size) continue;
      copyFileSync(from, to);
    }
    copied.push(name);
  }
  return copied;
}

export function vadAssets(): Plugin {
  return {
    name: 'kiosk-vad-assets',
    configResolved(config) {
      copyVadAssets(config.root);
    },
  };
}
