// Screenshots of the kiosk for the docs: drives the production build in Chromium at 1280×900 and
// writes docs/screenshots/*.png. Uses the preview server at $KIOSK_URL (default
// http://127.0.0.1:4173) or starts `vite preview` there itself. Run after `npx vite build`:
//   npx tsx scripts/screenshots.ts

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { brokenFlow, serveFlow } from '../tests/e2e/support/flows.ts';

const root = new URL('..', import.meta.url);
const outDir = new URL('docs/screenshots/', root);
const base = new URL(process.env['KIOSK_URL'] ?? 'http://127.0.0.1:4173');

async function answering(): Promise<boolean> {
  try {
    return (await fetch(base)).ok;
  } catch {
    return false;
  }
}

/** Starts `vite preview` on the kiosk URL's port unless a server answers there already. */
async function ensureServer(): Promise<ChildProcess | null> {
  if (await answering()) return null;
  const vite = fileURLToPath(new URL('node_modules/vite/bin/vite.js', root));
  const server = spawn(process.execPath, [vite, 'preview', '--host', base.hostname, '--port', base.port || '80', '--strictPort'], {
    cwd: root,
    stdio: 'ignore',
  });
  for (let i = 0; i < 100; i++) {
    if (await answering()) return server;
    if (server.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  server.kill();
  throw new Error(`vite preview did not start at ${base.href} (run \`npx vite build\` first?)`);
}

/** Waits until the kiosk's root carries `attribute="value"`. */
async function reach(page: Page, attribute: 'data-phase' | 'data-flow-state', value: string): Promise<void> {
  await page.locator(`.kiosk[${attribute}="${value}"]`).waitFor();
}

async function say(page: Page, text: string): Promise<void> {
  const box = page.getByLabel('Type your answer', { exact: true });
  await box.fill(text);
  await box.press('Enter');
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: fileURLToPath(new URL(`${name}.png`, outDir)), animations: 'disabled', caret: 'hide' });
  console.log(`docs/screenshots/${name}.png`);
}

async function onboarding(page: Page): Promise<void> {
  await page.goto(new URL('/', base).href);
  await reach(page, 'data-phase', 'idle');
  await shoot(page, 'idle');

  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await say(page, 'My name is Alex');
  await page.locator('[data-field="first_name"][data-status="pending"]').waitFor();
  await page.getByRole('log').getByText('I heard Alex. Is that right?').waitFor();
  await page.getByLabel('Type your answer', { exact: true }).blur();
  await shoot(page, 'form-pending');

  await page.getByRole('button', { name: "Confirm What's your first name?" }).click();
  await reach(page, 'data-flow-state', 'choose_color');
  await page.getByRole('log').getByText('Please choose').waitFor();
  await shoot(page, 'options');

  await page.getByRole('button', { name: 'green', exact: true }).click();
  await reach(page, 'data-phase', 'ended');
  await shoot(page, 'end');
}

async function clinicSummary(page: Page): Promise<void> {
  await page.goto(new URL('/?flow=clinic-checkin', base).href);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await say(page, 'I am Maria Garcia, born 15 March 1990');
  await page.locator('[data-field="date_of_birth"][data-status="pending"]').waitFor();
  await say(page, 'yes');
  await reach(page, 'data-flow-state', 'reason');
  await page.getByRole('button', { name: 'Walk-in visit' }).click();
  await reach(page, 'data-flow-state', 'summary');
  await say(page, 'Please check me in');
  await page.getByRole('region', { name: 'Please confirm' }).waitFor();
  await page.getByLabel('Type your answer', { exact: true }).blur();
  await shoot(page, 'card');
}

async function operator(page: Page): Promise<void> {
  const file = '/flows/my-flow.yaml';
  await serveFlow(page, file, brokenFlow('multiple-errors', file).yaml);
  await page.goto(new URL(`/?flow=${file}`, base).href);
  await reach(page, 'data-phase', 'invalid');
  await shoot(page, 'operator');
}

mkdirSync(outDir, { recursive: true });
const server = await ensureServer();
const browser = await chromium.launch({
  executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  for (const scene of [onboarding, clinicSummary, operator]) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await scene(page);
    await page.close();
  }
} finally {
  await browser.close();
  server?.kill();
}
