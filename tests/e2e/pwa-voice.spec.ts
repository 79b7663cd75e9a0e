// The network goes while the kiosk runs (its services configured, its service worker in control):
// a visit says plainly that speech recognition and the online assistant are out of reach, the
// built-in assistant carries it to the end, and the next visit after the network is back uses
// the services again, without a reload.

import { transcriptsFor } from '../support/voice-kiosk.ts';
import { expectStep, kiosk, say, serviceWorkerControls } from './support/kiosk.ts';
import { FULL_BROWSER } from './support/chromium.ts';
import { expect, test } from './support/voice.ts';

// Ceilings, never waits: the first install of the service worker precaches 17 MB beside a voice
// kiosk's detector loading, which a machine running a second test run took past a minute.
test.describe.configure({ timeout: 120_000 });

test('network gone: plain notices and the visit goes on; network back: the next visit has its voice services again', async ({ voiceKiosk }) => {
  const { page, fakes, fixture, microphone } = await voiceKiosk({ fixture: 'onboarding', serviceWorkers: 'allow', query: { flow: 'onboarding', end_seconds: 1 } });
  fakes.stt.script(transcriptsFor(fixture, ['My name is Alex.', 'Yes.', 'Blue, please.']));
  fakes.llm.script([{ when: { last: 'system' }, reply: { text: 'Hello from the online assistant. What is your first name?' } }]);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  await serviceWorkerControls(page, 60_000);
  const context = page.context();

  await context.setOffline(true);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(page.locator('.assistant-note')).toHaveText('The online assistant is not answering. The kiosk carries on with its built-in assistant.');
  // The detector still hears the visitor (it runs on the device); the words cannot be made out.
  await expect(page.locator('.voice-light')).toHaveAttribute('data-voice', 'listening', { timeout: 20_000 });
  await microphone!.play(0);
  await expect(page.locator('.voice-note')).toHaveText("I can't make out speech right now. Please tap or type your answer.", { timeout: 15_000 });
  await say(page, 'My name is Alex');
  await say(page, 'yes');
  await expectStep(page, 'choose_color');
  await page.getByRole('button', { name: 'blue', exact: true }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
  expect(fakes.llm.requests, 'nothing reached the services').toHaveLength(0);
  expect(fakes.stt.requests).toHaveLength(0);

  await context.setOffline(false);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  // A mark on this document: a reload would drop it.
  await page.evaluate(`window.kioskTestMark = 'same page'`);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(page.locator('.captions li.agent').first()).toHaveText(/Hello from the online assistant/, { timeout: 15_000 });
  await expect(page.locator('.assistant-note')).toHaveCount(0);
  await expect(page.locator('.voice-note')).toHaveCount(0);
  expect(fakes.llm.requests.length).toBeGreaterThan(0);
  await expect.poll(() => fakes.tts.requests.length, { message: 'the kiosk speaks with the service again' }).toBeGreaterThan(0);
  expect(await page.evaluate<string>(`window.kioskTestMark`), 'no reload').toBe('same page');
});

// On the full browser: offline, the kiosk asks for the browser's on-device speech recognition, an
// interface the headless shell lacks and answers by closing the page.
test('opened offline from the cache: the built-in assistant at first; the network back: the next visit has its services, no reload', { tag: FULL_BROWSER }, async ({ voiceKiosk }) => {
  const { page, fakes } = await voiceKiosk({ fixture: 'noise', serviceWorkers: 'allow', query: { flow: 'onboarding' } });
  fakes.llm.script([{ when: { last: 'system' }, reply: { text: 'Hello from the online assistant. What is your first name?' } }]);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  await serviceWorkerControls(page, 60_000);
  const context = page.context();

  await context.setOffline(true);
  await page.reload();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(page.locator('.captions li.agent').first()).toHaveText(/first name/i);
  expect(fakes.llm.requests).toHaveLength(0);
  await page.getByRole('button', { name: 'Start over' }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');

  await context.setOffline(false);
  await page.evaluate(`window.kioskTestMark = 'same page'`);
  // The kiosk asks for its services again when the network returns.
  await expect.poll(() => page.evaluate<string>(`fetch('/api/config').then((r) => r.ok ? 'reachable' : 'no')`)).toBe('reachable');
  await expect
    .poll(async () => {
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      // The kiosk's line comes in as it is said: read it once it is whole.
      const line = page.locator('.captions li.agent').first();
      await line.waitFor({ timeout: 10_000 });
      await expect(line).not.toHaveClass(/streaming/, { timeout: 10_000 });
      const first = await line.textContent();
      await page.getByRole('button', { name: 'Start over' }).click();
      return first ?? '';
    }, { timeout: 20_000 })
    .toMatch(/Hello from the online assistant/);
  expect(await page.evaluate<string>(`window.kioskTestMark`), 'no reload').toBe('same page');
});
