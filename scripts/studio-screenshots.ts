// Screenshots of the flow studio for the docs (docs/flows.md, docs/vfdl.md, the README): drives the
// production build in Chromium at 1440×900 on the kiosk's own server and writes
// docs/screenshots/studio-*.png. Run after `npx vite build`:
//   npx tsx scripts/studio-screenshots.ts

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { startServer } from '../server/app.ts';
import { readConfig } from '../server/config.ts';
import { CHROMIUM, CHROMIUM_FLAGS } from '../tests/e2e/support/chromium.ts';
import { emptyTestMemory } from '../tests/support/test-memory.ts';

const outDir = new URL('../docs/screenshots/', import.meta.url);

async function shoot(page: Page, name: string, clip?: { x: number; y: number; width: number; height: number }): Promise<void> {
  await page.screenshot({ path: fileURLToPath(new URL(`${name}.png`, outDir)), animations: 'disabled', caret: 'hide', ...(clip ? { clip } : {}) });
  console.log(`docs/screenshots/${name}.png`);
}

const folder = mkdtempSync(join(tmpdir(), 'studio-shots-'));
const server = await startServer({ root: 'dist', config: { ...readConfig({}), flowFolder: folder }, host: '127.0.0.1', port: 0, quiet: true, memory: await emptyTestMemory() });
const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const frame = page.frameLocator('iframe[title="The kiosk, running this flow"]');
  const reached = async (state: string) => {
    await page.locator(`.studio[data-preview-state="${state}"]`).waitFor();
    await frame.locator('.kiosk[data-settling="false"]').waitFor();
  };

  // The clinic example, a visit under way in the preview, its state lit on the diagram.
  await page.goto(`${server.url}/studio/?example=clinic-checkin`);
  await page.locator('.diagram[data-drawn="true"]').waitFor();
  await frame.locator('.kiosk[data-phase="idle"]').waitFor({ timeout: 30_000 });
  await frame.getByRole('button', { name: 'Start', exact: true }).click();
  await reached('identify');
  await frame.getByRole('textbox', { name: 'Full name', exact: true }).fill('Li Wei');
  await frame.getByRole('textbox', { name: 'Date of birth', exact: true }).fill('1992-11-03');
  await frame.getByRole('button', { name: 'Continue' }).click();
  await reached('reason');
  await page.locator('.node[data-state="reason"]').click();
  await shoot(page, 'studio');

  // A typo, shown at its line as vfdl check says it.
  await page.locator('.node[data-state="identify"]').click();
  await page.getByRole('textbox', { name: 'The flow file, in YAML' }).locator('.cm-line').filter({ hasText: /^\s*artifact_type: form$/ }).first().click();
  await page.keyboard.press('End');
  await page.keyboard.type('x');
  await page.locator('.problems li.error').waitFor();
  await page.getByRole('textbox', { name: 'The flow file, in YAML' }).locator('.cm-lintRange-error').hover();
  await page.locator('.cm-tooltip-lint').waitFor();
  await shoot(page, 'studio-typo', { x: 0, y: 0, width: 1100, height: 900 });
  await page.keyboard.press('Control+z');

  // The library card's diagram: its age guard in words, the tool that waits for a yes.
  await page.locator('.file-bar input[type="file"]').setInputFiles('tests/fixtures/authoring/library-card.yaml');
  await page.getByRole('heading', { name: 'Flow: library-card.yaml' }).waitFor();
  await page.locator('.node[data-state="bring_an_adult"]').waitFor();
  const pane = (await page.locator('.diagram-pane').boundingBox())!;
  await shoot(page, 'studio-diagram', pane);

  // The clinic's tests, run in the page.
  await page.getByLabel('Example', { exact: true }).selectOption('clinic-checkin.yaml');
  await page.getByRole('tab', { name: /^Tests/ }).click();
  await page.getByRole('button', { name: 'Run the tests' }).click();
  await page.getByRole('status').filter({ hasText: '9 passed, 0 failed' }).waitFor();
  const side = (await page.locator('.side-pane').boundingBox())!;
  await shoot(page, 'studio-tests', side);
} finally {
  await browser.close();
  await server.close();
  rmSync(folder, { recursive: true, force: true });
}
