import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { checkedFlows } from './scripts/checked-flows.ts';
import { precompressed } from './scripts/precompress.ts';
import { studioBuild } from './scripts/studio-page.ts';
import { vadAssets } from './scripts/vad-assets.ts';
import { kioskApi } from './server/vite-plugin.ts';
import { KIOSK_PWA } from './src/pwa/pwa-options.ts';

// vad-web's offline detector asks for all of onnxruntime-web (WebGL, WebGPU...); the kiosk only
// runs the wasm backend, and this keeps the other 300 KB out of the page.
const resolve = { alias: [{ find: /^onnxruntime-web$/, replacement: 'onnxruntime-web/wasm' }] };

export default defineConfig({
  // The VAD files must be in public/vad/ before the service worker's precache list is made.
  // Big files get a gzip copy beside them, which the kiosk's server sends where it is accepted.
  // The flow studio (studio/) is a build of its own, run inside this one before the service worker
  // is made, so the kiosk's page shares no code with it (scripts/studio-page.ts). The bundled flows
  // are read and checked here, not at every start of a kiosk (scripts/checked-flows.ts).
  plugins: [svelte(), checkedFlows(), vadAssets(), kioskApi(), studioBuild({ resolve }), VitePWA(KIOSK_PWA), precompressed()],
  resolve,
  build: {
    target: 'es2022',
    sourcemap: true,
    // Which files the kiosk's page loads (tests/unit/studio-bundle.test.ts reads it).
    manifest: true,
  },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
});
