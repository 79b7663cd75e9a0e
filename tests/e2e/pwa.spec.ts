// The kiosk as an installed app, against the production build on the kiosk's own server: the
// manifest and its icons, Chromium's own verdict that it can be installed, the service worker in
// control after one visit with the app shell and the voice detector's files in its cache, and
// visits finished with the network gone, for a bundled flow and for one loaded from an address.

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { CHROMIUM, CHROMIUM_FLAGS } from './support/chromium.ts';
import { serveFlow } from './support/flows.ts';
import { expectStep, input, kiosk, openKiosk, say, serviceWorkerControls } from './support/kiosk.ts';

// These tests are about the service worker and what it keeps: it may register (the suite blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

const VAD_FILES = ['silero_vad_v5.onnx', 'vad.worklet.bundle.min.js', 'ort-wasm-simd-threaded.wasm', 'ort-wasm-simd-threaded.mjs'];

/** Waits until a service worker controls the page (the first visit's worker claims it on activation). */
async function controlled(page: Page): Promise<void> {
  await serviceWorkerControls(page);
}

/** Every Cache Storage entry the page's origin holds: cache name → [path, size in bytes]. */
function cachedEntries(page: Page): Promise<Record<string, [string, number][]>> {
  return page.evaluate(`(async () => {
    const out = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      out[name] = [];
      for (const request of await cache.keys()) {
        const body = await (await cache.match(request)).blob();
        out[name].push([new URL(request.url).pathname, body.size]);
      }
    }
    return out;
  })()`);
}

/** Width and height from a PNG's header. */
function pngSize(bytes: Buffer): string {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

test('the manifest, its icons and the service worker are served so that browsers check them on every load', async ({ request }) => {
  const page = await (await request.get('/')).text();
  expect(page).toContain('<link rel="manifest" href="/manifest.webmanifest"');
  expect(page).toContain('<meta name="theme-color" content="#12355b"');
  expect(page).toContain('<link rel="apple-touch-icon" href="/icons/apple-touch-icon-180.png"');

  const response = await request.get('/manifest.webmanifest');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  expect(response.headers()['cache-control']).toBe('no-cache');
  const manifest = (await response.json()) as Record<string, unknown> & { icons: { src: string; sizes: string; type: string; purpose: string }[] };
  expect(manifest).toMatchObject({
    name: 'Voice kiosk',
    short_name: 'Kiosk',
    start_url: '/',
    scope: '/',
    display: 'fullscreen',
    display_override: ['fullscreen', 'standalone'],
    theme_color: '#12355b',
    background_color: '#f6f8fb',
  });
  expect(manifest['description']).toBeTruthy();
  expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`).sort()).toEqual(['192x192 any', '192x192 maskable', '512x512 any', '512x512 maskable']);
  for (const icon of manifest.icons) {
    const png = await request.get(icon.src);
    expect(png.status(), icon.src).toBe(200);
    expect(png.headers()['content-type']).toBe(icon.type);
    expect(pngSize(await png.body()), icon.src).toBe(icon.sizes);
  }
  expect(pngSize(await (await request.get('/icons/apple-touch-icon-180.png')).body())).toBe('180x180');

  const worker = await request.get('/sw.js');
  expect(worker.status()).toBe(200);
  expect(worker.headers()['content-type']).toMatch(/javascript/);
  expect(worker.headers()['cache-control']).toBe('no-cache');
});

test('Chromium finds the kiosk installable', async ({ baseURL }) => {
  // Playwright's usual contexts are off the record, where Chromium installs nothing: a real profile.
  const profile = mkdtempSync(join(tmpdir(), 'kiosk-profile-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: CHROMIUM_FLAGS, ...(baseURL ? { baseURL } : {}) });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await openKiosk(page);
    await controlled(page);
    const cdp = await context.newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
    expect(manifest.url).toMatch(/\/manifest\.webmanifest$/);
    expect(manifest.errors).toEqual([]);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
    expect(installabilityErrors).toEqual([]);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

test('after one visit the service worker controls the page and holds the app shell and the voice detector', async ({ page }) => {
  await openKiosk(page);
  await controlled(page);
  const entries = await cachedEntries(page);
  const precache = Object.entries(entries).find(([name]) => name.startsWith('workbox-precache'));
  expect(precache, `a Workbox precache among ${Object.keys(entries).join(', ')}`).toBeDefined();
  const held = new Map(precache![1]);
  for (const file of VAD_FILES) {
    expect(held.get(`/vad/${file}`), `/vad/${file}`).toBe(statSync(`dist/vad/${file}`).size);
  }
  for (const path of ['/index.html', '/manifest.webmanifest', '/favicon.svg', '/icons/icon-192.png', '/icons/maskable-512.png']) {
    expect(held.has(path), path).toBe(true);
  }
  // Every script and style the page loaded (the bundled flows are inside the main script).
  const loaded = await page.evaluate<string[]>(`performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.startsWith('/assets/'))`);
  expect(loaded.length).toBeGreaterThan(0);
  for (const path of loaded) expect(held.has(path), path).toBe(true);
  // Nothing from /api/ in any cache.
  expect(Object.values(entries).flat().filter(([path]) => path.startsWith('/api/'))).toEqual([]);
  const total = [...held.values()].reduce((a, b) => a + b, 0);
  test.info().annotations.push({ type: 'precache', description: `${held.size} files, ${(total / 1024 / 1024).toFixed(1)} MiB` });
});

test('/api/ always reaches the server: never the cached page, never a cached answer', async ({ page, context }) => {
  await openKiosk(page);
  await controlled(page);
  // A page address the kiosk does not know is the kiosk (the single-page fallback)...
  await page.goto('/somewhere/else');
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  // ...but /api/ is the server's, also when the service worker answers the navigations.
  const config = await page.goto('/api/config');
  expect(config?.fromServiceWorker()).toBe(false);
  expect(await config?.json()).toEqual({ llm: null, stt: null, tts: null });
  await openKiosk(page);
  await context.setOffline(true);
  const offline = await page.evaluate<string>(`fetch('/api/config').then((r) => 'answered ' + r.status, (e) => 'failed: ' + e.message)`);
  expect(offline).toMatch(/^failed/);
});

test("the page's calls to /api/ go straight to the server: the service worker's route sends them by, unseen", async ({ page, context }) => {
  await openKiosk(page);
  await controlled(page);
  // Chromium's DevTools protocol tells, for each response, which of the worker's static routes
  // matched and where the answer came from (resource timing does not say it in this Chromium).
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const routes = new Map<string, { fromServiceWorker: boolean; router: unknown }>();
  cdp.on('Network.responseReceived', (e) => {
    routes.set(new URL(e.response.url).pathname, { fromServiceWorker: e.response.fromServiceWorker === true, router: e.response.serviceWorkerRouterInfo ?? null });
  });
  await page.evaluate(async () => {
    await (await fetch('/api/config')).text();
    await (await fetch('/favicon.svg')).text();
  });
  await expect.poll(() => routes.size).toBe(2);
  // The server's answers never pass through the worker...
  expect(routes.get('/api/config')).toEqual({ fromServiceWorker: false, router: expect.objectContaining({ matchedSourceType: 'network', actualSourceType: 'network' }) });
  // ...while the app's own files are its to answer, from its cache.
  expect(routes.get('/favicon.svg')?.fromServiceWorker).toBe(true);
  expect(routes.get('/favicon.svg')?.router).not.toMatchObject({ matchedSourceType: 'network' });
});

test('offline: the page loads from the service worker and a visitor finishes the onboarding flow by typing and touch', async ({ page, context }) => {
  await openKiosk(page);
  await controlled(page);
  await context.setOffline(true);
  const started = Date.now();
  await page.reload();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  test.info().annotations.push({ type: 'offline reload to idle screen', description: `${Date.now() - started} ms` });

  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expectStep(page, 'ask_name');
  // Typed, and understood by the built-in assistant: the name waits for a yes.
  await say(page, 'My name is Alex');
  await say(page, 'yes');
  await expectStep(page, 'choose_color');
  await expect(page.getByRole('heading', { name: 'Nice to meet you, Alex! Pick a colour.' })).toBeVisible();
  await page.getByRole('button', { name: 'green', exact: true }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
});

test('without the service worker the same offline reload fails (so the test above proves something)', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ serviceWorkers: 'block', ...(baseURL ? { baseURL } : {}) });
  try {
    const page = await context.newPage();
    await openKiosk(page);
    await context.setOffline(true);
    await expect(page.reload()).rejects.toThrow(/ERR_INTERNET_DISCONNECTED/);
  } finally {
    await context.close();
  }
});

const ROOMS = `
vfdl: 1
id: room_sign_in
title: Room sign-in
language: en-US
mode: kiosk
variables:
  full_name: { type: string, required: true }
  room: { type: enum, enum: [Oak, Elm], required: true, show_at_end: true }
states:
  name:
    ui:
      artifact_type: form
      title: Your name, please
      fields:
        - { id: full_name, type: text, label: Full name, required: true }
      submit_label: Continue
    transitions:
      on_ui_event: { form_submit: room }
  room:
    ui: { artifact_type: options, title: Which room?, variable: room, options: [Oak, Elm] }
    transitions:
      on_ui_event: { option_select: __end__ }
`;

test('offline: a flow loaded from an address runs from its last good copy, and the operator is told', async ({ page, context }) => {
  const path = '/test-flows/rooms.yaml';
  await serveFlow(page, path, ROOMS);
  await openKiosk(page, { flow: path });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Room sign-in');
  await controlled(page);
  const kept = await cachedEntries(page);
  expect(kept['kiosk-flows']?.map(([p]) => p)).toEqual([path]);

  // The address stops answering: the test no longer serves it, and the network is gone.
  await page.unrouteAll();
  await context.setOffline(true);
  const warnings: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning') warnings.push(m.text());
  });
  await page.reload();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Room sign-in');
  expect(warnings.find((w) => w.includes(path))).toMatch(/could not load the flow: the kiosk's server did not answer .*; running the last good copy, saved \d{4}-\d\d-\d\d \d\d:\d\d$/);

  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expectStep(page, 'name');
  await input(page, 'Full name').fill('Robin Ahmed');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'room');
  await page.getByRole('button', { name: 'Elm', exact: true }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
  await expect(page.getByRole('region', { name: 'Please remember' }).locator('dd')).toHaveText(['Elm']);
});
