// The kiosk's cold start from its offline cache, for `npm run bench:voice`: a first visit in a
// Chromium profile of its own installs the service worker (its download counted on the wire)
// and listens for a few seconds, as a kiosk in use has; then each run starts Chromium again on
// that profile, opens the kiosk (served by the service worker), taps Start as soon as it shows
// and waits until the kiosk listens.
//
// "Ready to listen": from the navigation's start to the first microphone frame scored by the
// voice detector (vk:listening), on a visit begun by a tap the moment Start shows, with the
// fake microphone. It holds the service worker's start, the app from its cache, the server's
// configuration, the flow, the idle screen, getUserMedia, the detector's model and wasm, the
// audio worklet and the first inference, all of it, since the tap comes the moment Start shows.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { startServer } from '../server/app.ts';
import { readConfig } from '../server/config.ts';
import { CHROMIUM, CHROMIUM_FLAGS } from '../tests/e2e/support/chromium.ts';
import { serviceWorkerControls } from '../tests/e2e/support/kiosk.ts';
import { fakeMicrophoneFlag, loadFixture } from '../tests/support/audio-fixtures.ts';
import { emptyTestMemory } from '../tests/support/test-memory.ts';
import { startFakeOpenAI } from '../tests/servers/openai-fakes.ts';
import type { Findings } from './voice-findings.ts';
import { named, readMarks, readResources, untilPageTime, waitForMark } from './voice-marks.ts';

/** Bytes the kiosk's server sent, counted on a TCP relay in front of it (headers and bodies, page and service worker alike). */
interface CountingRelay {
  url: string;
  sent(): number;
  close(): Promise<void>;
}

async function countingRelay(target: URL): Promise<CountingRelay> {
  let sent = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    upstream.on('data', (chunk: Buffer) => (sent += chunk.length));
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    sent: () => sent,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * In every page of a cold start, from its first script: the moment the idle screen appears is
 * marked, and Start is pressed at once, in the same task (a visitor who was already waiting).
 * A tap from Playwright would come late: it waits for the page, which may be busy loading the
 * detector, and so would hide that wait.
 */
const TAP_AT_ONCE = `
  new MutationObserver((_, observer) => {
    const start = document.querySelector('.kiosk[data-phase="idle"] button.primary');
    if (!start) return;
    observer.disconnect();
    performance.mark('bench:idle');
    start.click();
  }).observe(document, { childList: true, subtree: true, attributes: true });
`;

function launch(profile: string, micFlag: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: [...CHROMIUM_FLAGS, '--autoplay-policy=no-user-gesture-required', '--use-fake-device-for-media-stream', micFlag, '--use-fake-ui-for-media-stream'],
    permissions: ['microphone'],
    viewport: { width: 1280, height: 900 },
  });
}

async function firstPage(context: BrowserContext, script?: string): Promise<Page> {
  if (script) await context.addInitScript(script);
  return context.pages()[0] ?? (await context.newPage());
}

/**
 * How long the first visit listens: as a kiosk in use has. V8 keeps the detector's compiled
 * WebAssembly beside its cached response once the code has run hot for a moment (its optimised
 * functions, written a couple of seconds after the last of them is made); a kiosk started again
 * after its first visitor loads that instead of compiling 14 MB again.
 */
const LISTEN_MS = 6000;

/** The install visit taps Start and listens for LISTEN_MS, then leaves nothing to resume. */
async function listenAWhile(page: Page): Promise<void> {
  await page.locator('.kiosk[data-phase="idle"] button.primary').click();
  await waitForMark(page, 'vk:listening', 1, 60_000);
  const listening = named(await readMarks(page), 'vk:listening')[0]!.at;
  await untilPageTime(page, listening + LISTEN_MS);
  await page.evaluate('localStorage.removeItem("kiosk-visit")');
}

function megabytes(bytes: number): string {
  return bytes >= 100_000 ? `${(bytes / 1e6).toFixed(2)} MB` : `${(bytes / 1e3).toFixed(1)} kB`;
}

/**
 * The first visit (counted), then `runs` cold starts from the cache. Adds `cold.ready`,
 * `cold.idle`, `cold.tap`, `cold.file.*` and `cold.bytes` samples, and notes on the download.
 */
export async function coldStart(runs: number, findings: Findings): Promise<void> {
  const fixture = loadFixture('bench');
  const micFlag = fakeMicrophoneFlag(fixture);
  const profile = mkdtempSync(join(tmpdir(), 'kiosk-bench-profile-'));
  const fakes = await startFakeOpenAI();
  const server = await startServer({
    root: 'dist',
    config: readConfig({ LLM_BASE_URL: fakes.baseURL, LLM_MODEL: 'bench-chat', STT_BASE_URL: fakes.baseURL, TTS_BASE_URL: fakes.baseURL }),
    host: '127.0.0.1',
    port: 0,
    quiet: true,
    memory: await emptyTestMemory(),
  });
  const relay = await countingRelay(new URL(server.url));
  try {
    // The first visit: the page, then the service worker's install (the whole offline copy).
    let context = await launch(profile, micFlag);
    let page = await firstPage(context);
    await page.goto(`${relay.url}/`);
    await page.locator('.kiosk[data-phase="idle"]').waitFor({ timeout: 30_000 });
    await serviceWorkerControls(page, 60_000);
    await page.waitForFunction(
      // A function, not a text: under the kiosk's Content-Security-Policy a text is not evaluated again (tests/e2e/support/kiosk.ts).
      async () => {
        const { caches } = globalThis as unknown as { caches: { keys(): Promise<string[]>; open(name: string): Promise<{ keys(): Promise<Array<{ url: string }>> }> } };
        for (const name of await caches.keys()) for (const r of await (await caches.open(name)).keys()) if (r.url.endsWith('.wasm')) return true;
        return false;
      },
      undefined,
      { timeout: 60_000, polling: 200 },
    );
    await page.waitForLoadState('networkidle');
    const firstVisit = relay.sent();
    const fetched = await readResources(page);
    findings.note(
      'cold',
      `first visit, until the service worker holds the offline copy: ${megabytes(firstVisit)} sent by the server (counted on the wire: headers and bodies, the page's and the service worker's, gzip where the build has a copy).`,
    );
    const vad = fetched.filter((r) => r.url.includes('/vad/'));
    findings.note('cold', `  of which the page itself fetched ${megabytes(fetched.reduce((n, r) => n + r.transferSize, 0))} (${vad.length} detector files among them); the rest is the worker's precache.`);
    await listenAWhile(page);
    await context.close();

    for (let i = 1; i <= runs; i++) {
      const before = relay.sent();
      context = await launch(profile, micFlag);
      try {
        page = await firstPage(context, TAP_AT_ONCE);
        await page.goto(`${relay.url}/`, { waitUntil: 'commit' });
        await waitForMark(page, 'vk:listening', 1, 30_000);
        const controlled = await page.evaluate<boolean>('navigator.serviceWorker.controller !== null && performance.getEntriesByType("navigation")[0].workerStart > 0');
        if (!controlled) throw new Error('the page was not served by the service worker');
        const marks = await readMarks(page);
        const at = (name: string) => {
          const m = named(marks, name)[0];
          if (!m) throw new Error(`no ${name} mark`);
          return m.at;
        };
        const idle = at('bench:idle');
        const listening = at('vk:listening');
        findings.add('cold.idle', idle);
        findings.add('cold.tap', listening - idle);
        findings.add('cold.ready', listening);
        for (const step of ['vk:detector-load', 'vk:detector-ready', 'vk:microphone-open']) {
          const m = named(marks, step)[0];
          if (m) findings.add(`cold.step.${step}`, m.at);
        }
        const ready = named(marks, 'vk:detector-ready')[0];
        if (ready) findings.add('cold.after-ready', listening - ready.at);
        for (const r of await readResources(page)) {
          const name = /\/vad\/(.*\.(?:wasm|onnx))$/.exec(new URL(r.url).pathname)?.[1];
          if (name) findings.add(`cold.file.${name}`, r.responseEnd - r.startTime);
        }
        findings.add('cold.bytes', relay.sent() - before);
        // The visit this run started is kept for a reload; the next cold start must begin on the
        // idle screen, not take it up.
        await page.evaluate('localStorage.removeItem("kiosk-visit")');
      } catch (error) {
        findings.fail(`cold start, run ${i}: ${(error as Error).message.split('\n')[0]}`);
      } finally {
        await context.close();
      }
    }
  } finally {
    await relay.close();
    await server.close();
    await fakes.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
