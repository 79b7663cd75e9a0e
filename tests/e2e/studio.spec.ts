// The flow studio (issue 34) in Chromium, on a kiosk server of its own with a flow folder for the
// kiosks: it opens the clinic example offline; a typo gets the checker's diagnostic at its line,
// the very one `vfdl check` gives (how soon is measured by `npm run bench:studio`); the diagram says the
// adult guard of an age check in words; a flow with errors cannot be saved for the kiosks (the
// button, and the server itself); the preview finishes a clinic visit by touch and one by typing,
// each state lit on the diagram as the kiosk reaches it; and "keep this as a test" writes a test
// that `vfdl test` passes on the command line.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FrameLocator, type Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { startServer, type RunningServer } from '../../server/app.ts';
import { testConfig } from '../support/test-config.ts';
import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import { emptyTestMemory } from '../support/test-memory.ts';
import { expectNoSeriousAxeViolations } from './support/a11y.ts';
import { serviceWorkerControls } from './support/kiosk.ts';

let server: RunningServer;
let folder: string;
test.beforeEach(async () => {
  folder = mkdtempSync(join(tmpdir(), 'studio-flows-'));
  server = await startServer({ root: 'dist', config: { ...testConfig({}), flowFolder: folder }, host: '127.0.0.1', port: 0, quiet: true, memory: await emptyTestMemory() });
});
test.afterEach(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

/** Opens the studio on an example and waits until its diagnostics and its diagram are shown. */
async function openStudio(page: Page, example: string): Promise<void> {
  await page.goto(`${server.url}/studio/?example=${example}`);
  await expect(page.locator('.studio')).toHaveAttribute('data-checked', 'true', { timeout: 20_000 });
  await expect(page.locator('.diagram')).toHaveAttribute('data-drawn', 'true');
}

/** The editor's text area (CodeMirror's content, inside the editor's shadow root). */
const editor = (page: Page) => page.getByRole('textbox', { name: 'The flow file, in YAML' });

/** The kiosk in the preview's frame. */
const preview = (page: Page): FrameLocator => page.frameLocator('iframe[title="The kiosk, running this flow"]');

/** Waits until the preview's kiosk is in `state` with its screen settled, and the diagram lights that state. */
async function reached(page: Page, state: string): Promise<void> {
  await expect(page.locator('.studio')).toHaveAttribute('data-preview-state', state, { timeout: 10_000 });
  await expect(preview(page).locator('.kiosk')).toHaveAttribute('data-settling', 'false');
  await expect(page.locator('.node.lit')).toHaveAttribute('data-state', state);
}

// A ceiling, never a wait: each test walks through much of the studio, and runs vfdl test once.
test.describe.configure({ timeout: 120_000 });

test.describe('offline', () => {
  test.use({ serviceWorkers: 'allow' });

  test('the studio opens the clinic example offline, shows a typo at its line as vfdl check does, says the adult guard in words, and saves for the kiosks only a flow without errors', async ({ page, context }) => {
    await openStudio(page, 'onboarding');
    await serviceWorkerControls(page);
    await context.setOffline(true);
    await page.reload();
    await expect(page.locator('.studio')).toHaveAttribute('data-checked', 'true', { timeout: 20_000 });
    await page.getByLabel('Example', { exact: true }).selectOption('clinic-checkin.yaml');
    await expect(page.getByRole('heading', { name: 'Flow: clinic-checkin.yaml' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'No problems: the flow can run.' })).toBeVisible();
    await expect(page.locator('.node[data-state="appointment_summary"]')).toBeVisible();
    await expect(page.getByRole('img', { name: 'reason to appointment: tap option_select or tool save_reason, if visit_reason is appointment' })).toBeAttached();
    await context.setOffline(false);

    // A click on a state in the diagram shows its text in the editor; there, "form" made "formx".
    await page.locator('.node[data-state="identify"]').click();
    await expect(editor(page).locator('.cm-line').filter({ hasText: /^\s*identify:$/ })).toBeInViewport();
    await editor(page).locator('.cm-line').filter({ hasText: /^\s*artifact_type: form$/ }).first().click();
    await page.keyboard.press('End');
    await page.keyboard.type('x');
    const problem = page.locator('.problems li.error');
    await expect(problem).toHaveCount(1);
    // Exactly what `vfdl check` says of the same text: its line, its column, its words.
    const typo = readFileSync('flows/clinic-checkin.yaml', 'utf8').replace(/^(\s*artifact_type: form)$/m, '$1x');
    const expected = loadFlow(typo, 'clinic-checkin.yaml').diagnostics.map(formatDiagnostic);
    expect(expected[0]).toMatch(/^clinic-checkin\.yaml:\d+:\d+: error: "formx" is not one of form, .*\[bad-value\]$/);
    await expect(page.locator('.problems li')).toHaveText(expected);
    await expect(editor(page).locator('.cm-lintRange-error')).toHaveText('formx');

    // A flow with errors cannot be saved for the kiosks: the dialog will not, nor will the server.
    await page.getByRole('button', { name: 'Save for the kiosks…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save for the kiosks' });
    await expect(dialog.getByText('The flow has 1 error: it cannot be saved for the kiosks until it has none.')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Save clinic-checkin.yaml for the kiosks' })).toBeDisabled();
    const refused = await page.request.put(`${server.url}/api/studio/flows/clinic-checkin.yaml`, { data: { text: readFileSync('flows/clinic-checkin.yaml', 'utf8').replace('artifact_type: form', 'artifact_type: formx') } });
    expect(refused.status()).toBe(422);
    expect(await refused.json()).toMatchObject({ error: 'flow_invalid', diagnostics: [{ code: 'bad-value' }] });
    expect(existsSync(join(folder, 'clinic-checkin.yaml'))).toBe(false);
    await dialog.getByRole('button', { name: 'Close' }).click();

    // Undone, it saves; a kiosk loads it from the folder.
    await editor(page).press('Control+z');
    await expect(page.locator('.problems li.error')).toHaveCount(0);
    await page.getByRole('button', { name: 'Save for the kiosks…' }).click();
    await dialog.getByRole('button', { name: 'Save clinic-checkin.yaml for the kiosks' }).click();
    await expect(dialog.getByText('Saved. Kiosks load it as ?flow=/flows/clinic-checkin.yaml.')).toBeVisible();
    expect(readFileSync(join(folder, 'clinic-checkin.yaml'), 'utf8')).toBe(readFileSync('flows/clinic-checkin.yaml', 'utf8'));
    await dialog.getByRole('button', { name: 'Close' }).click();

    // The library card (an adults-only flow) opened from the computer: its age guard in words.
    await page.locator('.file-bar input[type="file"]').setInputFiles('tests/fixtures/authoring/library-card.yaml');
    await expect(page.getByRole('heading', { name: 'Flow: library-card.yaml' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'about_you to card: tap form_submit, if age from date_of_birth is 18 or more' })).toBeAttached();
    await expect(page.getByRole('img', { name: 'about_you to bring_an_adult: tap form_submit, otherwise' })).toBeAttached();
    await expect(page.locator('.node[data-state="card"] .mark.yes')).toHaveText('waits for a yes: lend');
    await expectNoSeriousAxeViolations(page, 'flow studio');
  });
});

test('the preview finishes a clinic visit by touch and one by typing, lighting each state, and keeps the first as a test vfdl test passes', async ({ page }) => {
  await openStudio(page, 'clinic-checkin');
  await expect(preview(page).locator('.kiosk')).toHaveAttribute('data-phase', 'idle', { timeout: 20_000 });

  // By touch.
  await preview(page).getByRole('button', { name: 'Start', exact: true }).click();
  await reached(page, 'identify');
  await preview(page).getByRole('textbox', { name: 'Full name', exact: true }).fill('Li Wei');
  await preview(page).getByRole('textbox', { name: 'Date of birth', exact: true }).fill('1992-11-03');
  await preview(page).getByRole('button', { name: 'Continue' }).click();
  await reached(page, 'reason');
  await preview(page).getByRole('button', { name: /Walk-in visit/ }).click();
  await reached(page, 'summary');
  await expect(page.locator('.node.visited')).toHaveCount(2);
  await preview(page).getByRole('button', { name: 'Check me in' }).click();
  await expect(preview(page).locator('.kiosk')).toHaveAttribute('data-settling', 'false');
  await preview(page).getByRole('region', { name: 'Please confirm' }).getByRole('button', { name: 'Yes, go ahead' }).click();
  await reached(page, 'checked_in');

  // Kept as a test: downloaded, put beside the flow, and run by vfdl test on the command line.
  await page.getByLabel('Test name', { exact: true }).fill('walk-in-by-touch');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Keep this as a test' }).click();
  const kept = await download;
  expect(kept.suggestedFilename()).toBe('walk-in-by-touch.test.yaml');
  await expect(page.getByRole('status').filter({ hasText: 'Kept as walk-in-by-touch.test.yaml' })).toBeVisible();
  const work = mkdtempSync(join(tmpdir(), 'studio-kept-'));
  try {
    writeFileSync(join(work, 'clinic-checkin.yaml'), readFileSync('flows/clinic-checkin.yaml'));
    await kept.saveAs(join(work, 'walk-in-by-touch.test.yaml'));
    const out = execFileSync('node', ['bin/vfdl.js', 'test', join(work, 'walk-in-by-touch.test.yaml')], { encoding: 'utf8' });
    expect(out).toContain('1 passed, 0 failed');
    expect(readFileSync(join(work, 'walk-in-by-touch.test.yaml'), 'utf8')).toContain('selected_id: walk_in');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  await page.getByRole('tab', { name: /^Tests/ }).click();
  await page.getByRole('button', { name: 'Run the tests' }).click();
  // The clinic example's conversation tests, and the one just kept.
  const clinicTests = readdirSync('tests/conversations').filter((f) => readFileSync(`tests/conversations/${f}`, 'utf8').includes('flows/clinic-checkin.yaml')).length;
  await expect(page.getByRole('status').filter({ hasText: `${clinicTests + 1} passed, 0 failed` })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('tab', { name: 'Preview' }).click();

  // By typing, to the built-in assistant, after starting over.
  await page.getByRole('button', { name: 'Start over' }).click();
  await expect(preview(page).locator('.kiosk')).toHaveAttribute('data-phase', 'idle', { timeout: 20_000 });
  await preview(page).getByRole('button', { name: 'Start', exact: true }).click();
  await reached(page, 'identify');
  const typed = async (text: string) => {
    const box = preview(page).getByLabel('Type your answer', { exact: true });
    await box.fill(text);
    await box.press('Enter');
    await expect(box).toHaveValue('');
  };
  await typed('I am Maria Garcia, born 15 March 1990');
  await expect(preview(page).locator('[data-field="date_of_birth"]')).toHaveAttribute('data-status', 'pending');
  await typed('yes');
  await reached(page, 'reason');
  await typed('I am here to collect a prescription');
  await reached(page, 'summary');
  await typed('Please check me in');
  await expect(preview(page).getByRole('region', { name: 'Please confirm' })).toBeVisible();
  await typed('yes');
  await reached(page, 'checked_in');
  await expect(page.locator('.node.visited')).toHaveCount(3);
});
