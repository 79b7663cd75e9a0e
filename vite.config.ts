import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';
import { vadAssets } from './scripts/vad-assets.ts';
import { kioskApi } from './server/vite-plugin.ts';

export default defineConfig({
  plugins: [svelte(), vadAssets(), kioskApi()],
  // vad-web's offline detector asks for all of onnxruntime-web (WebGL, WebGPU...); the kiosk only
  // runs the wasm backend, and this keeps the other 300 KB out of the page.
  resolve: { alias: [{ find: /^onnxruntime-web$/, replacement: 'onnxruntime-web/wasm' }] },
  build: { target: 'es2022', sourcemap: true },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
});
