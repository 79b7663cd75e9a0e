// The microphone is open only while a visitor is there: not on the idle screen, from Start until
// the visit ends, is wiped by "Start over", or is left behind. The page's getUserMedia is watched
// (not replaced) to see which tracks are live.

import { expect, test, expectVoiceOn } from './support/voice.ts';
import { expectStep, kiosk } from './support/kiosk.ts';
import type { Page } from '@playwright/test';

test.describe.configure({ timeout: 60_000 });

/** Records every microphone track the page gets, before any of the page's own scripts run. */
const WATCH_MICROPHONE = `(() => {
  const tracks = (window.__micTracks = []);
  const get = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  navigator.mediaDevices.getUserMedia = async (constraints) => {
    const stream = await get(constraints);
    tracks.push(...stream.getAudioTracks());
    return stream;
  };
})()`;

/** How many microphone tracks the page has asked for, and how many are still live. */
function microphone(page: Page): Promise<{ asked: number; live: number }> {
  return page.evaluate(`({ asked: window.__micTracks.length, live: window.__micTracks.filter((t) => t.readyState === 'live').length })`);
}

test('the microphone opens at Start and closes on Start over, at the end, and on walk-away', async ({ voiceKiosk }) => {
  // Chromium's own fake capture device (the real getUserMedia, and the track settings it gives).
  const { page, fakes } = await voiceKiosk({ fixture: 'noise', microphone: 'file', query: { flow: 'onboarding', end_seconds: 30, idle_seconds: 60, idle_grace_seconds: 10 } });
  fakes.llm.script([{ when: { last: 'system' }, reply: { text: 'Hello!' } }]);
  await page.addInitScript(WATCH_MICROPHONE);
  // The page's clock is Playwright's: the walk-away comes when the test says, however busy the machine.
  await page.clock.install();
  await page.reload();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  expect(await microphone(page)).toEqual({ asked: 0, live: 0 }); // idle: never listening

  // Start: one live track, with the voice clean-up the kiosk asks for.
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expectVoiceOn(page, /listening|speaking|thinking|hearing/);
  await expect.poll(() => microphone(page)).toEqual({ asked: 1, live: 1 });
  const settings = await page.evaluate(`(() => {
    const s = window.__micTracks[0].getSettings();
    return { echoCancellation: s.echoCancellation, noiseSuppression: s.noiseSuppression, autoGainControl: s.autoGainControl };
  })()`);
  expect(settings).toEqual({ echoCancellation: true, noiseSuppression: true, autoGainControl: true });

  // "Start over": closed at once.
  await page.getByRole('button', { name: 'Start over' }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  await expect.poll(() => microphone(page)).toEqual({ asked: 1, live: 0 });

  // The end of a visit: closed when the end screen comes.
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect.poll(() => microphone(page)).toMatchObject({ live: 1 });
  await page.getByRole('textbox', { name: "What's your first name?" }).fill('Alex');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'choose_color');
  await page.getByRole('button', { name: 'green', exact: true }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
  await expect.poll(() => microphone(page)).toMatchObject({ live: 0 });
  await page.getByRole('button', { name: 'Finish' }).click();

  // Walking away: "Are you still there?", then the wipe closes it.
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect.poll(() => microphone(page)).toMatchObject({ live: 1 });
  await page.clock.runFor(60_000);
  await expect(page.getByRole('alertdialog', { name: 'Are you still there?' })).toBeVisible();
  await page.clock.runFor(10_000);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  await expect.poll(() => microphone(page)).toMatchObject({ live: 0 });
});
