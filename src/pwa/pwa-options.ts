// How the kiosk is built as an installable app (vite-plugin-pwa, Workbox's generateSW): the web
// manifest, and what the service worker keeps for offline use. Registration and updates are the
// page's own (src/pwa/register.ts), so nothing is injected into index.html but the manifest link.

import type { VitePWAOptions } from 'vite-plugin-pwa';

/** Colours of src/ui/kiosk.css: the brand (top bar, buttons) and the page. */
export const THEME_COLOR = '#12355b';
export const BACKGROUND_COLOR = '#f6f8fb';

/** Workbox refuses to precache bigger files by default (2 MiB); onnxruntime's wasm is 14 MB. */
export const MAX_PRECACHED_BYTES = 32 * 1024 * 1024;

/** The page's requests that must always reach the kiosk's server, never a cache. */
export const NEVER_CACHED = /^\/api\//;

/** Where the flow studio's own web manifest is (scripts/studio-page.ts writes it). */
export const STUDIO_MANIFEST_PATH = '/studio/manifest.webmanifest';

/** The flow studio as an app of its own: for authors and operators, in a window beside the kiosk's. */
export const STUDIO_MANIFEST = {
  name: 'Voice kiosk flow studio',
  short_name: 'Flow studio',
  description: 'Write a kiosk flow, see it, run it and test it.',
  lang: 'en',
  start_url: '/studio/',
  scope: '/studio/',
  id: '/studio/',
  display: 'standalone',
  theme_color: THEME_COLOR,
  background_color: BACKGROUND_COLOR,
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
  ],
} as const;

export const KIOSK_PWA: Partial<VitePWAOptions> = {
  strategies: 'generateSW',
  // A new version waits until the page lets it in (src/pwa/updates.ts): never mid-visit.
  registerType: 'prompt',
  injectRegister: false,
  // The icons are precached by globPatterns below (listing them twice would do it twice).
  includeManifestIcons: false,
  manifest: {
    name: 'Voice kiosk',
    short_name: 'Kiosk',
    description: 'A check-in kiosk you can talk to or tap.',
    lang: 'en',
    start_url: '/',
    scope: '/',
    id: '/',
    display: 'fullscreen',
    // Where fullscreen is not offered, standalone (no browser bar) is the next best.
    display_override: ['fullscreen', 'standalone'],
    orientation: 'any',
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    // The app shell, the bundled flows (inside the JS), the icons, and the voice detector's files
    // under /vad/ (model, worklet, onnxruntime's wasm and its loader); the flow studio's pages and
    // its manifest (the kiosk's own manifest is added by the plugin). Source maps stay out.
    globPatterns: ['**/*.{js,mjs,css,html,svg,png,wasm,onnx}', 'studio/*.webmanifest'],
    maximumFileSizeToCacheInBytes: MAX_PRECACHED_BYTES,
    // A page's settings are in its query (?flow=…, the studio's ?example=…, its preview's ?run=…):
    // the cached page serves whatever the query says.
    ignoreURLParametersMatching: [/.*/],
    // Every other page address is the kiosk; /api/ never is, and is never answered from a cache.
    navigateFallback: 'index.html',
    navigateFallbackDenylist: [NEVER_CACHED],
    runtimeCaching: [],
    // /api/ bypasses the worker altogether where the browser can be told so (public/sw-routes.js).
    importScripts: ['sw-routes.js'],
    cleanupOutdatedCaches: true,
    // The first install takes the open page at once (it is then ready offline without a
    // reload); an update waits for the page's word (skipWaiting stays off).
    clientsClaim: true,
    skipWaiting: false,
  },
};
