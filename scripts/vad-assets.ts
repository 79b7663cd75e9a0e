// A Vite plugin that puts the voice-activity detector's files where the page loads them from:
// `public/vad/` (so `vite dev` serves them and `vite build` copies them into dist/). The model,
// its audio worklet and the onnxruntime-web wasm come out of node_modules, never from a CDN,
// so a kiosk can cache them for offline use. The copies are not committed (.gitignore).

import { copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

/** Where the page finds the files: MicVAD's baseAssetPath and onnxWASMBasePath. */
export const VAD_ASSET_PATH = '/vad/';

const require = createRequire(import.meta.url);

function sources(): Record<string, string> {
  const vad = dirname(require.resolve('@ricky0123/vad-web/dist/index.js'));
  // onnxruntime-web does not export its package.json, but it exports the wasm file.
  const ort = dirname(require.resolve('onnxruntime-web/ort-wasm-simd-threaded.wasm'));
  return {
    'silero_vad_v5.onnx': join(vad, 'silero_vad_v5.onnx'),
    'vad.worklet.bundle.min.js': join(vad, 'vad.worklet.bundle.min.js'),
    'ort-wasm-simd-threaded.wasm': join(ort, 'ort-wasm-simd-threaded.wasm'),
    'ort-wasm-simd-threaded.mjs': join(ort, 'ort-wasm-simd-threaded.mjs'),
  };
}

/** Copies the files into `<root>/public/vad/` when they are missing or older than the installed ones. */
export function copyVadAssets(root: string): string[] {
  const target = join(root, 'public', 'vad');
  mkdirSync(target, { recursive: true });
  const copied: string[] = [];
  for (const [name, from] of Object.entries(sources())) {
    const to = join(target, name);
    if (existsSync(to) && statSync(to).mtimeMs >= statSync(from).mtimeMs && statSync(to).size === statSync(from).size) continue;
    copyFileSync(from, to);
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
