// Screenshots of the kiosk for the docs: drives the production build in Chromium at 1280×900 and
// writes docs/screenshots/*.png. Each scene runs on the kiosk's own server with a microphone
// (an espeak-ng fixture) so the voice light is live; the onboarding scene is heard by voice (its first
// line played when the kiosk listens), the others are typed. Run after `npx vite build`:
//   npx tsx scripts/screenshots.ts

import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { brokenFlow, serveFlow } from '../tests/e2e/support/flows.ts';
import { openVoiceKiosk, transcriptsFor, type VoiceKiosk } from '../tests/support/voice-kiosk.ts';

const outDir = new URL('../docs/screenshots/', import.meta.url);

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

/** The onboarding flow: the name heard by voice (recognition, model and speech from the doubles), then by touch. */
async function onboarding(): Promise<VoiceKiosk> {
  const kiosk = await openVoiceKiosk({ fixture: 'onboarding', query: { flow: 'onboarding' } });
  const { page, fakes, fixture } = kiosk;
  fakes.stt.script(transcriptsFor(fixture, ['My name is Alex.', 'Yes.', 'Blue, please.']));
  fakes.llm.script([
    { when: { system: /colour/i }, reply: { text: 'Nice to meet you, Alex. Which colour do you like best?' } },
    { when: { last: 'system' }, reply: { text: 'Welcome! What is your first name?' } },
  ]);
  await reach(page, 'data-phase', 'idle');
  await shoot(page, 'idle');

  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await kiosk.say(0);
  await page.locator('[data-field="first_name"][data-status="pending"]').waitFor({ timeout: 20_000 });
  await page.getByRole('log').getByText('I heard Alex. Is that right?').waitFor();
  await shoot(page, 'form-pending');

  await page.getByRole('button', { name: "Confirm What's your first name?" }).click();
  await reach(page, 'data-flow-state', 'choose_color');
  await page.getByRole('log').getByText('Which colour do you like best?').waitFor();
  await shoot(page, 'options');

  await page.getByRole('button', { name: 'green', exact: true }).click();
  await reach(page, 'data-phase', 'ended');
  await shoot(page, 'end');
  return kiosk;
}

/** A kiosk that listens (its microphone hears nothing it can make out) and answers with the offline assistant. */
function typedKiosk(query: Record<string, string>): Promise<VoiceKiosk> {
  return openVoiceKiosk({ fixture: 'noise', services: { llm: false, stt: true, tts: false }, query });
}

async function clinicSummary(): Promise<VoiceKiosk> {
  const kiosk = await typedKiosk({ flow: 'clinic-checkin' });
  const { page } = kiosk;
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await say(page, 'I am Maria Garcia, born 15 March 1990');
  await page.locator('[data-field="date_of_birth"][data-status="pending"]').waitFor();
  await page.getByRole('button', { name: /^Confirm all/ }).waitFor();
  await page.getByLabel('Type your answer', { exact: true }).blur();
  await shoot(page, 'two-waiting');
  await say(page, 'yes');
  await reach(page, 'data-flow-state', 'reason');
  await page.getByRole('button', { name: 'Walk-in visit' }).click();
  await reach(page, 'data-flow-state', 'summary');
  await say(page, 'Please check me in');
  await page.getByRole('region', { name: 'Please confirm' }).waitFor();
  await page.getByLabel('Type your answer', { exact: true }).blur();
  await shoot(page, 'card');
  return kiosk;
}

/** A flow file with errors: the screen staff see instead of the idle screen. */
async function brokenFlowScreen(): Promise<VoiceKiosk> {
  const kiosk = await typedKiosk({});
  const { page } = kiosk;
  const file = '/flows/my-flow.yaml';
  await serveFlow(page, file, brokenFlow('multiple-errors', file).yaml);
  await page.goto(`/?flow=${file}`);
  await reach(page, 'data-phase', 'invalid');
  await shoot(page, 'broken-flow');
  return kiosk;
}

/** The operator panel: the corner held, the PIN typed, a service tested. */
async function operatorPanel(): Promise<VoiceKiosk> {
  const pin = '482913';
  const kiosk = await openVoiceKiosk({ fixture: 'noise', services: { llm: true, stt: false, tts: true }, env: { OPERATOR_PIN: pin }, query: { flow: 'clinic-checkin' } });
  const { page } = kiosk;
  await reach(page, 'data-phase', 'idle');
  const corner = await page.getByRole('button', { name: 'Staff: hold for 3 seconds to open the operator panel' }).boundingBox();
  if (!corner) throw new Error('the operator corner is not on screen');
  await page.mouse.move(corner.x + corner.width / 2, corner.y + corner.height / 2);
  await page.mouse.down();
  await page.getByLabel('PIN', { exact: true }).waitFor({ timeout: 20_000 });
  await page.mouse.up();
  await page.getByLabel('PIN', { exact: true }).fill(pin);
  await page.getByRole('button', { name: 'Unlock' }).click();
  await page.getByRole('button', { name: 'Test model' }).click();
  await page.locator('[data-service="llm"] .check-result[data-ok="true"]').waitFor();
  // The panel from its top: its heading and the first settings.
  await page.getByRole('dialog', { name: 'Operator panel' }).evaluate((panel) => panel.scrollTo(0, 0));
  await page.getByRole('heading', { name: 'Operator panel' }).focus();
  await shoot(page, 'operator');
  return kiosk;
}

mkdirSync(outDir, { recursive: true });
for (const scene of [onboarding, clinicSummary, brokenFlowScreen, operatorPanel]) {
  const kiosk = await scene();
  await kiosk.close();
}
