// Screenshots of the kiosk for the docs: drives the production build in Chromium at 1280×900 and
// writes docs/screenshots/*.png. Each scene runs on the kiosk's own server with a microphone
// (an espeak-ng fixture) so the voice light is live; the onboarding scene is heard by voice (its first
// line played when the kiosk listens), the others are typed, the visitor sign-in in Arabic among
// them. Run after `npx vite build` (naming scenes takes those alone):
//   npx tsx scripts/screenshots.ts [pairingScreen pairedDevices ...]

import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { brokenFlow, serveFlow } from '../tests/e2e/support/flows.ts';
import { openVoiceKiosk, transcriptsFor, type VoiceKiosk } from '../tests/support/voice-kiosk.ts';
import { Pairing } from '../server/pairing.ts';

const outDir = new URL('../docs/screenshots/', import.meta.url);

/** Waits until the kiosk's root carries `attribute="value"`. */
async function reach(page: Page, attribute: 'data-phase' | 'data-flow-state', value: string): Promise<void> {
  await page.locator(`.kiosk[${attribute}="${value}"]`).waitFor();
}

/** Types into the answer box, named `box` in the visit's language. */
async function say(page: Page, text: string, box = 'Type your answer'): Promise<void> {
  const answer = page.getByLabel(box, { exact: true });
  await answer.fill(text);
  await answer.press('Enter');
}

/** Waits until the form field of `variable` holds a value waiting for the visitor's yes. */
async function waiting(page: Page, variable: string): Promise<void> {
  await page.locator(`[data-field="${variable}"][data-status="pending"]`).waitFor({ timeout: 20_000 });
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
  await waiting(page, 'first_name');
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

/** The clinic on a 390×844 phone: both values heard at once, "Confirm all" tapped with the date of birth under the fold, which brings it into view. */
async function phone(): Promise<VoiceKiosk> {
  const kiosk = await typedKiosk({ flow: 'clinic-checkin' });
  const { page } = kiosk;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await say(page, 'I am Maria Garcia, born 15 March 1990');
  await waiting(page, 'date_of_birth');
  await page.getByLabel('Type your answer', { exact: true }).blur();
  await page.getByRole('button', { name: /^Confirm all/ }).click();
  await page.locator('.step-body[data-shown="date_of_birth"]').waitFor();
  await shoot(page, 'phone');
  return kiosk;
}

/**
 * The visitor sign-in, in five languages: its idle screen with each language in its own name, then
 * a visit in Arabic with the name (heard by the model, in Arabic letters) and the email (the flow's
 * own pattern) waiting for a yes, the screen right to left.
 */
async function arabic(): Promise<VoiceKiosk> {
  const kiosk = await openVoiceKiosk({ fixture: 'noise', services: { llm: true, stt: true, tts: true }, query: { flow: 'visitor-signin' } });
  const { page, fakes } = kiosk;
  fakes.llm.script([
    { when: { user: /ليلى/, last: 'user' }, reply: { tool_calls: [{ name: 'save_name', arguments: { full_name: 'ليلى حداد' } }] } },
    { when: { user: /ليلى/ }, reply: { text: 'شكرًا. وما البريد الإلكتروني؟' } },
    { when: { last: 'system' }, reply: { text: 'أهلًا بكم في Northwind Studios. ما الاسم من فضلك؟' } },
  ]);
  await reach(page, 'data-phase', 'idle');
  await shoot(page, 'languages');

  await page.getByRole('navigation', { name: 'Language' }).getByRole('button', { name: 'العربية' }).click();
  await reach(page, 'data-flow-state', 'details');
  await page.getByRole('log').getByText('ما الاسم من فضلك؟').waitFor();
  await say(page, 'اسمي ليلى حداد', 'كتابة الإجابة');
  await waiting(page, 'full_name');
  await say(page, 'layla.haddad@example.com', 'كتابة الإجابة');
  await waiting(page, 'email');
  await page.getByRole('log').getByText('هل هذا صحيح؟').waitFor();
  await page.getByLabel('كتابة الإجابة', { exact: true }).blur();
  await shoot(page, 'arabic');
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

/** On the idle screen: the staff corner held until the PIN box shows, the PIN typed, the panel unlocked. */
async function unlockOperatorPanel(page: Page, pin: string): Promise<void> {
  await reach(page, 'data-phase', 'idle');
  const corner = await page.getByRole('button', { name: 'Staff: hold for 3 seconds to open the operator panel' }).boundingBox();
  if (!corner) throw new Error('the operator corner is not on screen');
  await page.mouse.move(corner.x + corner.width / 2, corner.y + corner.height / 2);
  await page.mouse.down();
  await page.getByLabel('PIN', { exact: true }).waitFor({ timeout: 20_000 });
  await page.mouse.up();
  await page.getByLabel('PIN', { exact: true }).fill(pin);
  await page.getByRole('button', { name: 'Unlock' }).click();
}

/** The operator panel: the corner held, the PIN typed, a service tested. */
async function operatorPanel(): Promise<VoiceKiosk> {
  const pin = '482913';
  const kiosk = await openVoiceKiosk({ fixture: 'noise', services: { llm: true, stt: false, tts: true }, env: { OPERATOR_PIN: pin }, query: { flow: 'clinic-checkin' } });
  const { page } = kiosk;
  await unlockOperatorPanel(page, pin);
  await page.getByRole('button', { name: 'Test model' }).click();
  await page.locator('[data-service="llm"] .check-result[data-ok="true"]').waitFor();
  // The panel from its top: its heading and the first settings.
  await page.getByRole('dialog', { name: 'Operator panel' }).evaluate((panel) => panel.scrollTo(0, 0));
  await page.getByRole('heading', { name: 'Operator panel' }).focus();
  await shoot(page, 'operator');
  return kiosk;
}

/** The pairing screen as a tablet on the network meets it: the kiosk reached by a name, not at localhost. */
async function pairingScreen(): Promise<VoiceKiosk> {
  const kiosk = await openVoiceKiosk({ fixture: 'noise', host: 'kiosk.test', env: { ALLOWED_HOSTS: 'kiosk.test' }, query: { flow: 'clinic-checkin' } });
  await kiosk.page.locator('.kiosk[data-pairing="not_paired"]').waitFor();
  await kiosk.page.getByRole('textbox', { name: 'Pairing code' }).fill('7FXC-4NUJ');
  await shoot(kiosk.page, 'pairing');
  return kiosk;
}

/** The operator panel's paired devices: two tablets paired, a code just made for a third. */
async function pairedDevices(): Promise<VoiceKiosk> {
  const pin = '482913';
  const kiosk = await openVoiceKiosk({ fixture: 'noise', services: { llm: true, stt: false, tts: true }, env: { OPERATOR_PIN: pin }, query: { flow: 'clinic-checkin' } });
  const { page, memory } = kiosk;
  const pairing = new Pairing(memory.pairings, memory.pairingLock);
  for (const name of ['Lobby iPad', 'Entrance Android']) {
    const made = await pairing.makeCode(name);
    if (made.ok) await pairing.pair(made.code);
  }
  await unlockOperatorPanel(page, pin);
  const devices = page.getByRole('region', { name: 'Paired devices' });
  await devices.locator('li').nth(1).waitFor();
  await devices.getByLabel('Name of a device to pair').fill('Waiting room');
  await devices.getByRole('button', { name: 'Make a pairing code' }).click();
  await devices.getByText('Code for “Waiting room”').waitFor();
  await devices.getByRole('heading', { name: 'Paired devices' }).evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
  await shoot(page, 'devices');
  return kiosk;
}

const SCENES = { onboarding, clinicSummary, phone, arabic, brokenFlowScreen, operatorPanel, pairingScreen, pairedDevices };
const chosen = process.argv.slice(2);
for (const name of chosen) if (!Object.hasOwn(SCENES, name)) throw new Error(`no scene ${name}: ${Object.keys(SCENES).join(', ')}`);

mkdirSync(outDir, { recursive: true });
for (const [name, scene] of Object.entries(SCENES)) {
  if (chosen.length && !chosen.includes(name)) continue;
  const kiosk = await scene();
  await kiosk.close();
}
