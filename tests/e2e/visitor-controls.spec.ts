// What a visitor can ask of the kiosk itself, end to end against the speech double: Repeat (the
// button, and "say that again", which never reaches the model), Stop (the button and Escape),
// Louder and Quieter with the level shown, "read it to me", More time on each time limit (the
// step's timeout, the end screen's countdown, "Are you still there?"), and every choice back to
// the operator's defaults for the next visitor. Time passes on Playwright's clock.

import { type Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { guidedKiosk, type Guided } from './support/guided.ts';
import { kiosk, say, settled } from './support/kiosk.ts';
import { fakeClock, pass, passUntilShown, start, startQuiet } from './support/held-clock.ts';

let g: Guided | null = null;
test.afterEach(async ({}, testInfo) => {
  await g?.close(testInfo);
  g = null;
});

/** A step that leaves after 60 s without an answer, and an end. */
const TIMED = `
id: timed
title: Timed
states:
  ask:
    ui: { artifact_type: form, title: Your name, fields: [ { id: name, type: text, label: Name } ] }
    agent: { prompt: Ask for the name. }
    transitions:
      on_ui_event: { form_submit: bye }
      on_timeout: { seconds: 60, target: bye }
  bye:
    ui: { artifact_type: card, title: Goodbye }
    agent: { prompt: Say goodbye. }
`;

const times = (said: string[], line: string) => said.filter((s) => s === line).length;

/** Opens the visitor's list of choices in the top bar. */
async function choices(page: Page) {
  await page.getByRole('button', { name: 'Accessibility' }).click();
  const list = page.getByRole('dialog', { name: 'Accessibility' });
  await expect(list).toBeVisible();
  return list;
}

test('Repeat says the last thing again, by its button and by "say that again", which never reaches the model', async ({ browser }) => {
  g = await guidedKiosk(browser, { query: { flow: 'onboarding' }, model: true });
  g.fakes.llm.script([{ reply: { text: 'Hello there. What is your first name?' } }]);
  const { page } = g;
  await start(page);
  await expect.poll(g.said).toContain('What is your first name?');
  const asked = g.fakes.llm.requests.length;

  await page.getByRole('button', { name: 'Repeat', exact: true }).click();
  await expect.poll(() => times(g!.said(), 'What is your first name?')).toBe(2);
  expect(times(g.said(), 'Hello there.')).toBe(2);

  await say(page, 'Could you say that again, please?');
  await expect.poll(() => times(g!.said(), 'What is your first name?')).toBe(3);
  expect(g.fakes.llm.requests.length).toBe(asked);
  await expect(page.locator('.captions li.visitor')).toHaveText(['You: Could you say that again, please?']);
});

test('Stop and Escape silence the kiosk at once, in the middle of a sentence', async ({ browser }) => {
  g = await guidedKiosk(browser, { query: { flow: 'onboarding' } });
  g.fakes.tts.durationFor = () => 8_000;
  const { page } = g;
  const light = page.locator('.voice-light');
  await page.keyboard.press('Enter');
  await expect(light).toHaveAttribute('data-voice', 'speaking');
  await page.keyboard.press('Escape');
  await expect(light).not.toHaveAttribute('data-voice', 'speaking', { timeout: 2_000 });

  await page.getByRole('button', { name: 'Repeat', exact: true }).click();
  await expect(light).toHaveAttribute('data-voice', 'speaking');
  await page.getByRole('button', { name: 'Stop speaking' }).click();
  await expect(light).not.toHaveAttribute('data-voice', 'speaking', { timeout: 2_000 });
});

test('Louder and Quieter change the level a step at a time, show it and say it; the next visit starts at the operator\'s level', async ({ browser }) => {
  g = await guidedKiosk(browser, { query: { flow: 'onboarding', volume: 6 } });
  const { page } = g;
  await expect(kiosk(page)).toHaveAttribute('data-volume', '6');
  await start(page);
  const list = await choices(page);
  await list.getByRole('button', { name: 'Louder' }).click();
  await expect(kiosk(page)).toHaveAttribute('data-volume', '7');
  await expect(list.locator('output[data-level="volume"]')).toHaveText('Volume 7 of 10');
  await expect.poll(g.said).toContain('Volume 7 of 10');
  for (let i = 0; i < 5; i++) await list.getByRole('button', { name: 'Louder' }).click();
  await expect(list.locator('output[data-level="volume"]')).toHaveText('Volume 10 of 10');
  await list.getByRole('button', { name: 'Quieter' }).click();
  await expect(kiosk(page)).toHaveAttribute('data-volume', '9');

  await list.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: 'Start over' }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  await expect(kiosk(page)).toHaveAttribute('data-volume', '6');
});

test('"read it to me" turns audio guidance on in the middle of a visit, without the model', async ({ browser }) => {
  g = await guidedKiosk(browser, { query: { flow: 'onboarding' } });
  const { page } = g;
  await start(page);
  await expect(kiosk(page)).toHaveAttribute('data-guidance', 'off');
  await say(page, 'Read it to me');
  await expect(kiosk(page)).toHaveAttribute('data-guidance', 'on');
  await expect.poll(g.said).toEqual(expect.arrayContaining(['Audio guidance is on.', "What's your first name?: empty."]));
});

test('a step about to time out is shown and said 30 s before, and More time doubles what is left', async ({ browser }) => {
  g = await guidedKiosk(browser, { query: { flow: '/test-flows/timed.yaml', end_seconds: 20 }, flows: { '/test-flows/timed.yaml': TIMED }, prepare: fakeClock });
  const { page } = g;
  const gone = await startQuiet(g);
  const warning = page.locator('[data-limit="step"]');
  await pass(g, 29_000 - gone);
  await expect(warning).toHaveCount(0);
  await pass(g, 1_000);
  await expect(warning.getByRole('timer')).toHaveText('No answer yet: this step closes in 30 seconds.');
  await expect.poll(g.said).toContain('No answer yet: this step closes in 30 seconds.');
  await pass(g, 10_000);
  await expect(warning.getByRole('timer')).toHaveText('No answer yet: this step closes in 20 seconds.');

  await warning.getByRole('button', { name: 'More time' }).click();
  await expect(warning).toHaveCount(0);
  // 20 s left became 60 (the whole timeout again: more than twice): warned of again 30 s before.
  await pass(g, 29_000);
  await expect(warning).toHaveCount(0);
  await pass(g, 2_000);
  await expect(warning).toBeVisible();
  await pass(g, 29_000);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');

  // The end screen counts down from 20 s, said at once; More time doubles what is left.
  const end = page.locator('[data-limit="end"]');
  await expect(end.getByRole('timer')).toHaveText('This screen clears itself in 20 seconds.');
  await expect.poll(g.said).toContain('This screen clears itself in 20 seconds.');
  await pass(g, 5_000);
  await expect(end.getByRole('timer')).toHaveText('This screen clears itself in 15 seconds.');
  await end.getByRole('button', { name: 'More time' }).click();
  await expect(end.getByRole('timer')).toHaveText('This screen clears itself in 30 seconds.');
  await pass(g, 29_000);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
  await pass(g, 2_000);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
});

test('"Are you still there?" counts down, is said, and "more time" answers it', async ({ browser }) => {
  g = await guidedKiosk(browser, { query: { flow: 'onboarding', idle_seconds: 40, idle_grace_seconds: 20 }, prepare: fakeClock });
  const { page } = g;
  const gone = await startQuiet(g);
  // Asked 40 s after the visitor's last touch, the Start tap, a little before the visit ran: the
  // clock is held a little before, then moved on until the question shows, its countdown at 20 s.
  await pass(g, 38_000 - gone);
  const question = page.getByRole('alertdialog', { name: 'Are you still there?' });
  await passUntilShown(g, question, 4_000);
  await expect(question.getByRole('timer')).toHaveText('For your privacy this screen will clear itself in 20 seconds.');
  await expect.poll(g.said).toEqual(expect.arrayContaining(['Are you still there?', 'For your privacy this screen will clear itself in 20 seconds.']));
  await pass(g, 5_000);
  await expect(question.getByRole('timer')).toHaveText('For your privacy this screen will clear itself in 15 seconds.');
  await say(page, 'More time');
  await expect(question).toHaveCount(0);
  await pass(g, 39_000);
  await expect(question).toHaveCount(0);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'running');
});

test('every choice goes back for the next visitor; those made on the idle screen stay for that visit', async ({ browser }) => {
  g = await guidedKiosk(browser, { query: { flow: 'onboarding' } });
  const { page } = g;
  const root = kiosk(page);
  await page.getByRole('button', { name: 'Larger text' }).click();
  await page.getByRole('button', { name: 'High contrast' }).click();
  await expect(root).toHaveAttribute('data-text-size', '125');
  await page.keyboard.press('Tab'); // the keys are on the page, not on a button it just pressed
  await start(page);
  await expect(root).toHaveAttribute('data-text-size', '125');
  await expect(root).toHaveAttribute('data-contrast', 'high');

  const list = await choices(page);
  await list.getByRole('button', { name: 'Audio guidance' }).click();
  for (let i = 0; i < 3; i++) await list.getByRole('button', { name: 'Larger text' }).click();
  await list.getByRole('button', { name: 'Controls lower' }).click();
  await list.getByRole('button', { name: 'Louder' }).click();
  await expect(root).toHaveAttribute('data-text-size', '200');
  await expect(root).toHaveAttribute('data-controls', 'lower');
  await expect(root).toHaveAttribute('data-guidance', 'on');
  await expect(list.getByRole('button', { name: 'High contrast' })).toHaveAttribute('aria-pressed', 'true');
  expect(await page.evaluate('getComputedStyle(document.documentElement).fontSize')).toBe('44px');

  await list.getByRole('button', { name: 'Close' }).click();
  await settled(page);
  await page.getByRole('button', { name: 'Start over' }).click();
  await expect(root).toHaveAttribute('data-phase', 'idle');
  for (const [name, value] of [['data-guidance', 'off'], ['data-text-size', '100'], ['data-contrast', 'standard'], ['data-controls', 'standard'], ['data-volume', '8']]) {
    await expect(root).toHaveAttribute(name!, value!);
  }
  expect(await page.evaluate('getComputedStyle(document.documentElement).fontSize')).toBe('22px');
  expect(await page.evaluate('document.documentElement.dataset.contrast')).toBe('standard');
});

test('the visitor’s choices come back with the visit after a reload, and still go at the wipe', async ({ browser }) => {
  g = await guidedKiosk(browser, { query: { flow: 'onboarding' } });
  const { page } = g;
  const root = kiosk(page);
  await start(page);
  const list = await choices(page);
  await list.getByRole('button', { name: 'Audio guidance' }).click();
  await list.getByRole('button', { name: 'Larger text' }).click();
  await list.getByRole('button', { name: 'High contrast' }).click();
  await list.getByRole('button', { name: 'Controls lower' }).click();
  for (let i = 0; i < 3; i++) await list.getByRole('button', { name: 'Quieter' }).click();
  await list.getByRole('button', { name: 'Close' }).click();
  const chosen = [['data-guidance', 'on'], ['data-text-size', '125'], ['data-contrast', 'high'], ['data-controls', 'lower'], ['data-volume', '5']] as const;
  for (const [name, value] of chosen) await expect(root).toHaveAttribute(name, value);
  await say(page, 'My name is Alex');
  await expect(page.locator('[data-field="first_name"]')).toHaveAttribute('data-status', 'pending');

  const heard = g.said().length;
  await page.reload();
  await expect(root).toHaveAttribute('data-phase', 'running');
  await expect(page.locator('[data-field="first_name"]')).toHaveAttribute('data-status', 'pending');
  for (const [name, value] of chosen) await expect(root).toHaveAttribute(name, value);
  expect(await page.evaluate('getComputedStyle(document.documentElement).fontSize')).toBe('27.5px');
  // Guidance reads the step taken up, the value waiting for a yes with it.
  await expect.poll(() => g!.said().slice(heard)).toEqual(expect.arrayContaining(["What's your first name?: Alex.", 'Is this right?']));

  await settled(page);
  await page.getByRole('button', { name: 'Start over' }).click();
  await page.getByRole('alertdialog', { name: 'Start over?' }).getByRole('button', { name: 'Yes, start over' }).click();
  await expect(root).toHaveAttribute('data-phase', 'idle');
  for (const [name, value] of [['data-guidance', 'off'], ['data-text-size', '100'], ['data-contrast', 'standard'], ['data-controls', 'standard'], ['data-volume', '8']]) {
    await expect(root).toHaveAttribute(name!, value!);
  }
  expect(await page.evaluate('localStorage.getItem("kiosk-visit")')).toBeNull();
  await page.reload();
  await expect(root).toHaveAttribute('data-phase', 'idle');
  await expect(root).toHaveAttribute('data-text-size', '100');
});
