import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { precompressed } from './scripts/precompress.ts';
import { vadAssets } from './scripts/vad-assets.ts';
import { kioskApi } from './server/vite-plugin.ts';
import { KIOSK_PWA } from './src/pwa/pwa-options.ts';

export default defineConfig({
  // The VAD files must be in public/vad/ before the service worker's precache list is made.
  // Big files get a gzip copy beside them, which the kiosk's server sends where it is accepted.
  plugins: [svelte(), vadAssets(), kioskApi(), VitePWA(KIOSK_PWA), precompressed()],
  // vad-web's offline detector asks for all of onnxruntime-web (WebGL, WebGPU...); the kiosk only
  // runs the wasm backend, and this keeps the other 300 KB out of the page.
  resolve: { alias: [{ find: /^onnxruntime-web$/, replacement: 'onnxruntime-web/wasm' }] },
  build: { target: 'es2022', sourcemap: true },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
});
