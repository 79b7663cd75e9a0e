// The kiosk's daily operation in Chromium, against the production build on the kiosk's own server:
// the operator panel behind a held corner and the server's PIN (a wrong PIN refused, a lock after
// repeated tries, no PIN no panel), a setting kept across a reload and the address winning over
// it, the test of each service against the OpenAI doubles, the status lights when the network
// goes, and the screen kept on during a visit.

import { serveFlow } from './support/flows.ts';
import { type Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { startServer, type RunningServer } from '../../server/app.ts';
import { testConfig } from '../support/test-config.ts';
import { openVoiceKiosk, type VoiceKiosk } from '../support/voice-kiosk.ts';
import { emptyTestMemory } from '../support/test-memory.ts';
import { kiosk, openKiosk, type InPage } from './support/kiosk.ts';
import { FULL_BROWSER } from './support/chromium.ts';
import { expectLabelledFields, expectNoSeriousAxeViolations, expectTouchTargets } from './support/a11y.ts';
import { expectWhollyIn } from './support/in-view.ts';

const PIN = '482913';

let server: RunningServer | null = null;
let voice: VoiceKiosk | null = null;
test.afterEach(async () => {
  await voice?.close();
  await server?.close();
  voice = null;
  server = null;
});

/** A kiosk server of its own with OPERATOR_PIN set (and no outside services). */
async function kioskWithPin(): Promise<string> {
  server = await startServer({ root: 'dist', config: testConfig({ OPERATOR_PIN: PIN }), host: '127.0.0.1', port: 0, quiet: true, memory: await emptyTestMemory() });
  return server.url;
}

function corner(page: Page) {
  return page.getByRole('button', { name: 'Staff: hold for 3 seconds to open the operator panel' });
}

function panel(page: Page) {
  return page.getByRole('dialog', { name: 'Operator panel' });
}

/** Holds the corner with the mouse until `shown` appears (about 3 s), then lets go. */
async function holdCorner(page: Page, shown = panel(page)): Promise<void> {
  const box = await corner(page).boundingBox();
  if (!box) throw new Error('the operator corner is not on screen');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  // A first visit loads the voice detector at the same time, which can hold the page up for seconds.
  await expect(shown).toBeVisible({ timeout: 20_000 });
  await page.mouse.up();
}

async function enterPin(page: Page, pin: string): Promise<void> {
  await page.getByLabel('PIN', { exact: true }).fill(pin);
  await page.getByRole('button', { name: 'Unlock' }).click();
}

/** Opens the panel with the right PIN: the settings are on screen. */
async function unlock(page: Page): Promise<void> {
  await holdCorner(page);
  await enterPin(page, PIN);
  await expect(page.getByLabel('Flow', { exact: true })).toBeVisible();
}

test('without OPERATOR_PIN, holding the corner says there is no panel and opens none', async ({ page }) => {
  await openKiosk(page);
  await holdCorner(page, page.getByRole('status').filter({ hasText: 'No operator PIN is set on this kiosk' }));
  await expect(panel(page)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeEnabled();
});

test('the right PIN opens the panel; a setting is kept across a reload; the address wins over it', async ({ page }) => {
  test.slow(); // three holds of the corner, three loads
  const base = await kioskWithPin();
  await page.goto(`${base}/`);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome');
  await unlock(page);
  await expectNoSeriousAxeViolations(page, 'operator panel');
  await expectTouchTargets(page, 'operator panel');
  await expectLabelledFields(page, 'operator panel');

  // A mistake is named and nothing is kept.
  await page.getByLabel('Flow', { exact: true }).fill('clinic-checkin');
  await page.getByLabel('Idle time', { exact: true }).fill('5');
  await page.getByRole('button', { name: 'Save and restart' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The wait before "Are you still there?" is a whole number of seconds from 10 to 3600.' })).toBeVisible();
  await expect(page.getByLabel('Flow', { exact: true })).toHaveValue('clinic-checkin');

  await page.getByLabel('Idle time', { exact: true }).fill('45');
  await page.getByLabel('Microphone sensitivity', { exact: true }).selectOption('low');
  await page.getByRole('button', { name: 'Save and restart' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Clinic check-in');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Clinic check-in');
  expect(await page.evaluate('JSON.parse(localStorage.getItem("kiosk-device-settings"))')).toEqual({
    flow: 'clinic-checkin',
    mic_sensitivity: 'low',
    idle_seconds: '45',
  });

  // The kept settings survive a visit's wipe (they are the kiosk's, not the visitor's).
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'running');
  await page.getByRole('button', { name: 'Start over' }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  await unlock(page);
  await expect(page.getByLabel('Flow', { exact: true })).toHaveValue('clinic-checkin');
  await expect(page.getByLabel('Idle time', { exact: true })).toHaveValue('45');

  // A flow named in the address wins, and the panel says so.
  await page.goto(`${base}/?flow=visitor-signin`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Visitor sign-in');
  await unlock(page);
  await expect(page.getByText('The page address sets this (flow=visitor-signin), and the address wins over what is kept here.')).toBeVisible();
});

test('a flow that does not load is refused by the panel, said where staff look, and the kiosk keeps its flow', async ({ page }) => {
  // A landscape tablet: the panel scrolls, and Save is far below the flow's field.
  await page.setViewportSize({ width: 1024, height: 768 });
  const base = await kioskWithPin();
  await serveFlow(page, '/test-flows/broken.yaml', 'flow: [');
  await page.goto(`${base}/`);
  await unlock(page);
  await page.getByLabel('Flow', { exact: true }).fill('/test-flows/broken.yaml');
  await page.getByRole('button', { name: 'Save and restart' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'This flow does not load:' })).toBeVisible();
  // The refused setting has the focus, and so is in view with what is wrong under it.
  await expect(page.getByLabel('Flow', { exact: true })).toBeFocused();
  await expectWhollyIn(page.getByLabel('Flow', { exact: true }), panel(page), 'the refused flow');
  await expectWhollyIn(page.getByRole('alert').filter({ hasText: 'This flow does not load:' }), panel(page), 'why it was refused');
  expect(await page.evaluate('localStorage.getItem("kiosk-device-settings")')).toBeNull();
});

test('a wrong PIN is refused, and five lock the panel, even against the right PIN', async ({ page }) => {
  const base = await kioskWithPin();
  await page.goto(`${base}/`);
  await holdCorner(page);
  await enterPin(page, '111111');
  await expect(page.getByRole('alert')).toHaveText('That PIN is not right. 4 tries left before the panel locks.');
  await expect(page.getByLabel('Flow', { exact: true })).toHaveCount(0);
  for (const [pin, left] of [['222222', 3], ['333333', 2], ['444444', 1]] as const) {
    await enterPin(page, pin);
    await expect(page.getByRole('alert')).toHaveText(`That PIN is not right. ${left} ${left === 1 ? 'try' : 'tries'} left before the panel locks.`);
  }
  await enterPin(page, '555555');
  await expect(page.getByRole('alert')).toHaveText('Locked after too many wrong PINs. Try again in 5 minutes.');
  await expect(page.getByLabel('PIN', { exact: true })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Unlock' })).toBeDisabled();

  // Closing and holding again does not get round the lock: the server keeps it.
  await page.getByRole('button', { name: 'Cancel' }).click();
  await holdCorner(page);
  await expect(page.getByRole('alert')).toHaveText('Locked after too many wrong PINs. Try again in 5 minutes.');
  const answer = await page.evaluate<number>(`fetch('/api/operator/unlock', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pin: '${PIN}' }) }).then((r) => r.status)`);
  expect(answer).toBe(429);
});

test('the corner and the panel work from the keyboard', async ({ page }) => {
  const base = await kioskWithPin();
  await page.goto(`${base}/`);
  await corner(page).focus();
  await page.keyboard.down('Enter');
  await expect(panel(page)).toBeVisible({ timeout: 20_000 });
  await page.keyboard.up('Enter');
  await expect(page.getByLabel('PIN', { exact: true })).toBeFocused();
  await page.keyboard.type(PIN);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Operator panel' })).toBeFocused();
  await page.getByRole('button', { name: 'Close' }).press('Enter');
  await expect(panel(page)).toHaveCount(0);
});

test('with nothing configured: settings in the address it cannot use are said to staff, and no service gets a Test button', async ({ page }) => {
  const base = await kioskWithPin();
  const warnings: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning') warnings.push(m.text());
  });
  await page.goto(`${base}/?idle_seconds=abc&mic_sensitivity=loud`);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  const idleNotes = page.locator('.operator-note');
  await expect(idleNotes).toHaveText([
    'For staff: idle_seconds=abc in the page address is not a number of seconds, so the kiosk uses 120 seconds.',
    'For staff: mic_sensitivity=loud in the page address is not low, normal or high, so the microphone stays at normal.',
  ]);
  expect(warnings.filter((w) => w.includes('which cannot be used'))).toEqual([
    'kiosk: the page address sets idle_seconds=abc, which cannot be used; the default stays',
    'kiosk: the page address sets mic_sensitivity=loud, which cannot be used; the default stays',
  ]);

  await unlock(page);
  // Beside each setting: the address's value is not used (instead of "the address wins").
  await expect(page.locator('#address-idle_seconds')).toHaveText('For staff: idle_seconds=abc in the page address is not a number of seconds, so the kiosk uses 120 seconds.');
  await expect(page.getByLabel('Idle time', { exact: true })).toHaveAccessibleDescription(/is not a number of seconds, so the kiosk uses 120 seconds/);
  await expect(page.locator('#address-mic_sensitivity')).toContainText('mic_sensitivity=loud in the page address is not low, normal or high');
  // The flow's help says what the panel accepts.
  await expect(page.locator('#hint-flow')).toHaveText(
    'A bundled flow (clinic-checkin, onboarding, visitor-signin), the address of a flow file (http:// or https://, on a site the server allows), or a path on this server starting with /. Blank: onboarding.',
  );
  await expect(panel(page).getByRole('button', { name: /^Test / })).toHaveCount(0);
  await expect(page.locator('[data-service] .check-result')).toHaveText([
    'Speech recognition is not set up on the kiosk’s server (STT_BASE_URL): the browser’s own is used where it has one, else visitors tap or type.',
    'No model is set up on the kiosk’s server (LLM_BASE_URL): the built-in assistant answers.',
    'No voice service is set up on the kiosk’s server (TTS_BASE_URL): the browser’s own voice speaks, or there are captions only.',
  ]);
});

test('the service tests report a working and a failing service, and one that is not configured', async ({ browser }) => {
  voice = await openVoiceKiosk({ browser, fixture: null, microphoneAllowed: false, services: { llm: true, stt: false, tts: true }, env: { OPERATOR_PIN: PIN } });
  const { page, fakes } = voice;
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  await unlock(page);
  fakes.tts.fail('http_500');
  const result = (service: string) => page.locator(`[data-service="${service}"] .check-result`);

  await page.getByRole('button', { name: 'Test model' }).click();
  await expect(result('llm')).toHaveText(/^Working: answered "Okay\." in \d+\.\d s\.$/);
  await expect(result('llm')).toHaveAttribute('data-ok', 'true');
  expect(fakes.llm.requests.at(-1)?.model).toBe('test-chat');

  await page.getByRole('button', { name: 'Test voice' }).click();
  await expect(result('tts')).toHaveText(/^Not working: the service answered 500 /);
  await expect(result('tts')).toHaveAttribute('data-ok', 'false');

  // A service the server does not have gets no Test button: what stands in, and the setting.
  await expect(page.getByRole('button', { name: 'Test speech recognition' })).toHaveCount(0);
  await expect(result('stt')).toHaveText('Speech recognition is not set up on the kiosk’s server (STT_BASE_URL): the browser’s own is used where it has one, else visitors tap or type.');

  fakes.tts.fail('ok');
  await page.getByRole('button', { name: 'Test voice' }).click();
  await expect(result('tts')).toHaveText(/^Working: spoke "Test\." \(\d+ KB of audio, voice test-voice\) in \d+\.\d s\.$/);
});

test('the status lights show the services, and change when the network goes and comes back', async ({ browser }) => {
  voice = await openVoiceKiosk({ browser, fixture: null, microphoneAllowed: false });
  const { page } = voice;
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  const lights = page.getByRole('complementary', { name: 'Kiosk status' });
  const light = (name: string) => lights.locator(`[data-light="${name}"]`);
  await expect(light('network')).toHaveAttribute('data-state', 'green');
  await expect(light('stt')).toHaveAttribute('data-state', 'green');
  await expect(light('stt')).toContainText('Speech recognition: test-whisper (green).');
  await expect(light('model')).toContainText('Model: test-chat (green).');
  await expect(light('speech')).toContainText('Voice: test-tts, test-voice (green).');

  await page.context().setOffline(true);
  await expect(light('network')).toHaveAttribute('data-state', 'red');
  await expect(light('network')).toContainText('Network: offline (red).');
  await expect(light('stt')).toHaveAttribute('data-state', 'red');
  await expect(light('model')).toHaveAttribute('data-state', 'amber');
  await expect(light('model')).toContainText('the built-in assistant stands in');

  await page.context().setOffline(false);
  await expect(light('network')).toHaveAttribute('data-state', 'green');
  await expect(light('stt')).toHaveAttribute('data-state', 'green');
  await expect(light('model')).toHaveAttribute('data-state', 'green');
});

// The headless shell refuses every wake lock.
test('the screen is kept on during a visit and let go on the idle screen; full screen on the operator’s tap', { tag: FULL_BROWSER }, async ({ page }) => {
  const base = await kioskWithPin();
  await page.goto(`${base}/`);
  await expect(kiosk(page)).toHaveAttribute('data-wake-lock', 'off');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(kiosk(page)).toHaveAttribute('data-wake-lock', 'held');
  await page.getByRole('button', { name: 'Start over' }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  await expect(kiosk(page)).toHaveAttribute('data-wake-lock', 'off');

  await unlock(page);
  await page.getByRole('button', { name: 'Full screen' }).click();
  await page.waitForFunction(() => {
    const { document } = globalThis as unknown as InPage;
    return document.fullscreenElement === document.documentElement;
  });
});
