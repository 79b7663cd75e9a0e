// The kiosk's daily life in an engine lane: a visit by keys with audio guidance (everything said
// through the speech double), a reload with the network gone (the service worker serves the page
// and the visit is taken up where it was), and the operator panel behind the held corner and PIN.

import { describe, expect, test } from 'vitest';
import { waitFor, type Key } from './engine.ts';
import { button, endSummary, expectStep, field, fieldIs, kioskSays, openKiosk, settled, startVisit, texts, typeAnswer, valueOf } from './kiosk.ts';
import { OPERATOR_PIN, type Lane } from './lane.ts';

/** A line saying which control the keys moved to ("yellow, button", "Full name, edit text, empty"), not a line of the step read out. */
const FOCUS_LINE = /, (button|edit text|checkbox|list|region)(, |$)/;

/** Presses `key` until the kiosk says (through the speech double) that it moved to a control named like `name`. */
async function keyUntilSaid(lane: Lane, key: Key, name: RegExp, max = 20): Promise<void> {
  const said = () => lane.fakes.tts.requests.map((r) => r.input);
  for (let i = 0; i < max; i++) {
    const before = said().length;
    await lane.page.press(key);
    // The key's own line: on a busy machine the step's lines, read one by one, are still arriving.
    const moved = () => said().slice(before).filter((line) => FOCUS_LINE.test(line)).at(-1);
    await expect.poll(moved, { message: `the kiosk says where ${key} moved to`, timeout: 10_000 }).toBeDefined();
    if (name.test(moved()!)) return;
  }
  throw new Error(`${key} pressed ${max} times and the kiosk never said ${name}; last: ${said().slice(-3).join(' | ')}`);
}

/** Audio guidance by keys, offline reload and resume, the operator panel. */
export function dailyTests(engine: string, current: () => Lane): void {
  describe(`${engine}: by keys, offline, and for staff`, () => {
    // Firefox under WebDriver BiDi: Enter arrives at a focused button as a typed character and
    // activates nothing (its window never has the focus), so a visit by keys is driven in
    // Safari's engine only (README, "Browsers").
    if (engine === 'webkit') test('onboarding by keys alone with audio guidance: Enter starts it, Tab finds the name box, the arrows a colour', async () => {
      const lane = current();
      const { page, url, fakes } = lane;
      await openKiosk(page, url, { flow: 'onboarding' });
      const from = fakes.tts.requests.length;
      await page.press('Enter');
      await kioskSays(page, 'data-guidance', 'on');
      await expectStep(page, 'ask_name');
      await keyUntilSaid(lane, 'Tab', /^What's your first name\?, edit text, empty$/);
      await page.keys('Kit');
      await page.press('Enter');
      await expectStep(page, 'choose_color');
      await keyUntilSaid(lane, 'ArrowDown', /^yellow, button$/);
      await page.press('Enter');
      await kioskSays(page, 'data-phase', 'ended');
      await settled(page);
      // The end screen is read out sentence by sentence, as the speech double answers.
      const said = () => fakes.tts.requests.slice(from).map((r) => r.input);
      await expect.poll(said, { timeout: 15_000 }).toEqual(expect.arrayContaining(['Audio guidance is on.', "What's your first name?: empty.", 'Say or press 1 for red.', 'All done.']));
      await keyUntilSaid(lane, 'Tab', /^Finish, button/);
      await page.press('Enter');
      await kioskSays(page, 'data-phase', 'idle');
      await kioskSays(page, 'data-guidance', 'off');
    });

    test('offline: a reload with the network gone comes from the service worker and takes the visit up where it was', async () => {
      const lane = current();
      const { page, url } = lane;
      await openKiosk(page, url, { flow: 'onboarding' });
      // The first visit's worker precaches the app, then claims the page.
      await waitFor(page, 'the service worker to control the page', `() => navigator.serviceWorker.controller !== null`, null, 60_000);
      await page.tap(button('Start'));
      await expectStep(page, 'ask_name');
      await typeAnswer(page, 'My name is Quillon');
      await fieldIs(page, 'first_name', 'pending');
      lane.network(false);
      try {
        await page.reload();
        await kioskSays(page, 'data-phase', 'running', 30_000);
        await expectStep(page, 'ask_name');
        await fieldIs(page, 'first_name', 'pending');
        expect(await valueOf(page, "What's your first name?")).toBe('Quillon');
        expect(await texts(page, '.captions .visitor')).toEqual(['You: My name is Quillon']);
        await page.tap(button("Confirm What's your first name?"));
        await expectStep(page, 'choose_color');
        await page.tap(button('blue'));
        // Finished offline; the end screen shows none of the answers (issue 31).
        expect(await endSummary(page)).toEqual([]);
      } finally {
        lane.network(true);
      }
    });

    test('the operator panel: the corner held, the PIN, a flow chosen and kept across a reload', async () => {
      const { page, url } = current();
      await openKiosk(page, url);
      await page.hold(button('Staff: hold for 3 seconds to open the operator panel'), () =>
        waitFor(page, 'the PIN box', `() => !!document.querySelector('input[type="password"], input[inputmode="numeric"]')`, null, 20_000),
      );
      await page.type(field('PIN'), OPERATOR_PIN);
      await page.tap(button('Unlock'));
      await waitFor(page, 'the settings', `() => [...document.querySelectorAll('label')].some((l) => l.textContent.trim() === 'Flow')`);
      await page.type(field('Flow'), 'visitor-signin');
      await page.tap(button('Save and restart'));
      await waitFor(page, 'the visitor sign-in idle screen', `() => document.querySelector('h1')?.textContent.trim() === 'Visitor sign-in'`, null, 20_000);
      await page.reload();
      await waitFor(page, 'the kept flow after a reload', `() => document.querySelector('h1')?.textContent.trim() === 'Visitor sign-in'`, null, 20_000);
      expect(await page.evaluate(`() => JSON.parse(localStorage.getItem('kiosk-device-settings'))`, null)).toEqual({ flow: 'visitor-signin' });
      // A visit runs the kept flow.
      await startVisit(page, url);
      await expectStep(page, 'details');
    });
  });
}
