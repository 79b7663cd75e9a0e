// A new version of the kiosk, deployed while it runs, through the real service worker: found in
// the background, held while a visitor is in the middle of a visit and on the end screen, and
// let in with one reload once the kiosk is back on its idle screen (at once if it already is).
// Each test runs the kiosk's own server twice on one port (one origin): the production build as
// it is, then a copy whose page is marked as the next version, as a redeploy would.

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, type Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { startServer, type RunningServer } from '../../server/app.ts';
import { testConfig } from '../support/test-config.ts';
import { emptyTestMemory } from '../support/test-memory.ts';
import { expectStep, input, kiosk, screenWhen, serviceWorkerControls } from './support/kiosk.ts';

// These tests are about the service worker and what it keeps: it may register (the suite blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

const NEXT = '<meta name="kiosk-version" content="next" />';

/** This build, and the next version of it: the same files, a changed page, and its new revision in the service worker. */
function twoVersions(): { now: string; next: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-versions-'));
  const now = join(dir, 'now');
  const next = join(dir, 'next');
  cpSync('dist', now, { recursive: true });
  cpSync(now, next, { recursive: true });
  const page = readFileSync(join(now, 'index.html'), 'utf8');
  const nextPage = page.replace('</head>', `${NEXT}</head>`);
  writeFileSync(join(next, 'index.html'), nextPage);
  const revision = (text: string) => createHash('md5').update(text).digest('hex');
  const worker = readFileSync(join(now, 'sw.js'), 'utf8');
  const entry = `{url:"index.html",revision:"${revision(page)}"}`;
  expect(worker, 'the service worker lists the page with its md5 as revision').toContain(entry);
  writeFileSync(join(next, 'sw.js'), worker.replace(entry, `{url:"index.html",revision:"${revision(nextPage)}"}`));
  return { now, next, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

const serve = async (root: string, port: number) => startServer({ root, config: testConfig({}), host: '127.0.0.1', port, quiet: true, memory: await emptyTestMemory() });

/** The kiosk open in `context` on the current version, its service worker in control. */
async function installed(context: BrowserContext, query: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`/${query}`);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  await serviceWorkerControls(page);
  await expect(page.locator('meta[name="kiosk-version"]')).toHaveCount(0);
  return page;
}

/** Counts the loads of the page from now on. */
function countLoads(page: Page): () => number {
  let loads = 0;
  page.on('load', () => loads++);
  return () => loads;
}

/** The kiosk looks for a new version as it does when the network comes back (its half-hourly check does the same). */
async function lookForUpdate(page: Page): Promise<void> {
  await page.evaluate(`dispatchEvent(new Event('online'))`);
}

const hasWaitingWorker = (page: Page) => page.evaluate<boolean>(`navigator.serviceWorker.getRegistration().then((r) => Boolean(r && r.waiting))`);

test.describe('updates', () => {
  let versions: ReturnType<typeof twoVersions>;
  let server: RunningServer;
  let port: number;
  let context: BrowserContext;

  test.beforeEach(async ({ browser }) => {
    versions = twoVersions();
    server = await serve(versions.now, 0);
    port = Number(new URL(server.url).port);
    context = await browser.newContext({ baseURL: server.url });
  });
  test.afterEach(async () => {
    await context.close();
    await server.close();
    versions.remove();
  });

  /** The next version goes live on the same address. */
  async function deployNext(): Promise<void> {
    await server.close();
    server = await serve(versions.next, port);
  }

  test('an update found mid-visit waits through the visit and its end screen, then starts on the idle screen with one reload', async () => {
    const page = await installed(context, '?end_seconds=1');
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expectStep(page, 'ask_name');
    const loads = countLoads(page);

    await deployNext();
    await lookForUpdate(page);
    await expect(kiosk(page)).toHaveAttribute('data-update', 'waiting', { timeout: 15_000 });
    expect(await hasWaitingWorker(page), 'the new worker waits').toBe(true);

    // The visitor carries on, undisturbed, to the end screen.
    await input(page, "What's your first name?").fill('Marguerite');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expectStep(page, 'choose_color');
    // The end screen lasts a second (end_seconds=1): the page says what it was the moment it appeared.
    const endScreen = screenWhen(page, 'data-phase', 'ended');
    await page.getByRole('button', { name: 'green', exact: true }).click();
    const { attributes, waitingWorker } = await endScreen;
    expect(attributes['data-update']).toBe('waiting');
    expect(waitingWorker, 'still waiting on the end screen').toBe(true);
    expect(loads()).toBe(0);

    // The end screen clears itself (end_seconds=1): idle, so the new version comes in.
    await expect(page.locator('meta[name="kiosk-version"]')).toHaveAttribute('content', 'next', { timeout: 15_000 });
    await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
    await expect(kiosk(page)).toHaveAttribute('data-update', 'current');
    expect(await hasWaitingWorker(page)).toBe(false);
    expect(loads()).toBe(1);
  });

  test('an update found while the kiosk is idle starts at once', async () => {
    const page = await installed(context, '');
    const loads = countLoads(page);
    await deployNext();
    await lookForUpdate(page);
    await expect(page.locator('meta[name="kiosk-version"]')).toHaveAttribute('content', 'next', { timeout: 15_000 });
    await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
    expect(loads()).toBe(1);
  });
});
