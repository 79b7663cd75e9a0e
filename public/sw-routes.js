// The service worker's static routes, imported into the generated sw.js (Workbox's importScripts,
// src/pwa/pwa-options.ts). The kiosk's calls to its own server (/api/: the model, speech,
// recognition, actions, configuration) go straight to the network: the worker's fetch handler
// never answers them, yet every such request waited for it, and for its start-up when the browser
// had stopped it for being idle (as it does between visitors): 6 ms more a request on this
// project's two-core machine, more on a slow tablet, on the path of every spoken reply. A browser
// without static routing (InstallEvent.addRoutes: Chromium 123 and later) takes the fetch
// handler's way as before, which lets /api/ through untouched.
self.addEventListener('install', (event) => {
  if (typeof event.addRoutes !== 'function') return;
  event.waitUntil(
    event.addRoutes({ condition: { urlPattern: '/api/*' }, source: 'network' }).catch((error) => {
      console.warn("The kiosk's service worker could not set its route for /api/ (its requests pass through it instead):", error);
    }),
  );
});
