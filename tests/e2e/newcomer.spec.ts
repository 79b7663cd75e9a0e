// What a newcomer tripped over (issue 21), held in Chromium on `npm start` with nothing
// configured: "Start over" asks first whenever the visitor has given something, on any step of
// the visit and after a reload; the end screens list what the visitor gave under labels a person
// would write, with values as entered or chosen and no internal id; the built-in assistant's
// question on visitor sign-in's site rules asks for agreement; and the voice light is red in a
// browser with no voice at all.

import { type Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { serveShowingAnswers } from './support/flows.ts';
import { agentLines, expectStep, input, kiosk, openKiosk, say, startVisit } from './support/kiosk.ts';

/** The "Start over?" question. */
const question = (page: Page) => page.getByRole('alertdialog', { name: 'Start over?' });

test.describe('"Start over" asks first whenever the visitor has given something', () => {
  test('onboarding by touch: a name typed and Continue, then Start over on the colour step, and after a reload', async ({ page }) => {
    await startVisit(page);
    await input(page, "What's your first name?").fill('Alex');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expectStep(page, 'choose_color');
    await page.getByRole('button', { name: 'Start over' }).click();
    await question(page).getByRole('button', { name: 'No, go on' }).click();
    await expect(question(page)).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Nice to meet you, Alex! Pick a colour.' })).toBeVisible();

    // The visit comes back after a reload, and what was given still counts.
    await page.reload();
    await expectStep(page, 'choose_color');
    await page.getByRole('button', { name: 'Start over' }).click();
    await question(page).getByRole('button', { name: 'Yes, start over' }).click();
    await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');

    // A visit in which nothing was given ends at once.
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    await expectStep(page, 'ask_name');
    await page.getByRole('button', { name: 'Start over' }).click();
    await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  });

  test('clinic by touch: details and a walk-in, then Start over on the summary card, which has no field', async ({ page }) => {
    await startVisit(page, { flow: 'clinic-checkin' });
    await input(page, 'Full name').fill('Li Wei');
    await input(page, 'Date of birth').fill('1992-11-03');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expectStep(page, 'reason');
    await page.getByRole('button', { name: /^Walk-in visit/ }).click();
    await expectStep(page, 'summary');
    await page.getByRole('button', { name: 'Start over' }).click();
    await expect(question(page)).toBeVisible();
    await expect(kiosk(page)).toHaveAttribute('data-phase', 'running');
  });
});

test.describe('a flow that shows answers on its end screen shows them in the visitor\'s words', () => {
  /** The end screen's list as [label, value] pairs. */
  async function told(page: Page): Promise<string[][]> {
    await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
    const list = page.getByRole('region', { name: 'Please remember' });
    const [labels, values] = [await list.locator('dt').allInnerTexts(), await list.locator('dd').allInnerTexts()];
    return labels.map((label, i) => [label, values[i]!]);
  }

  // The example flows with every answer `show_at_end` (the bundled ones show none of a visitor's details at the end).
  test('onboarding: "tom" typed reads "Tom", under "First name"; the colour under "Colour", as its button says', async ({ page }) => {
    await startVisit(page, { flow: await serveShowingAnswers(page, 'onboarding') });
    await input(page, "What's your first name?").fill('tom');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expectStep(page, 'choose_color');
    await page.getByRole('button', { name: 'red', exact: true }).click();
    expect(await told(page)).toEqual([
      ['First name', 'Tom'],
      ['Colour', 'red'],
    ]);
  });

  test('visitor sign-in: a host named by first name is listed as chosen, and the name heard on the way is not', async ({ page }) => {
    await startVisit(page, { flow: await serveShowingAnswers(page, 'visitor-signin') });
    await input(page, 'Your name').fill('sam lee');
    await input(page, 'Email address').fill('Sam@Example.com');
    await page.getByRole('button', { name: 'Next' }).click();
    await expectStep(page, 'host');
    await say(page, "I'm here to see tom");
    await expectStep(page, 'rules');
    await page.getByRole('button', { name: 'I agree' }).click();
    await expectStep(page, 'badge');
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await told(page)).toEqual([
      ['Name', 'Sam Lee'],
      ['Email address', 'sam@example.com'],
      ['Visiting', 'Tom Becker'],
      ['Agreed to the site rules', 'Yes'],
    ]);
  });
});

test('visitor sign-in: the assistant asks for agreement to the site rules; a no declines them, a yes signs in', async ({ page }) => {
  const toRules = async () => {
    await startVisit(page, { flow: 'visitor-signin' });
    await input(page, 'Your name').fill('Sam Lee');
    await input(page, 'Email address').fill('sam@example.com');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Tom Becker' }).click();
    await expectStep(page, 'rules');
    await expect(agentLines(page).last()).toHaveText(/car park\. Do you agree\?$/);
  };
  await toRules();
  await say(page, 'yes');
  await expectStep(page, 'badge');
  await page.getByRole('button', { name: 'Start over' }).click();
  await question(page).getByRole('button', { name: 'Yes, start over' }).click();

  await toRules();
  // The last word of the visit: the answer box goes with the step it ends.
  const box = page.getByLabel('Type your answer', { exact: true });
  await box.fill('no');
  await box.press('Enter');
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
  await expect(page.getByRole('heading', { name: 'Please see reception' })).toBeVisible();
});

test('the voice light is red where the browser has no voice at all: the kiosk speaks in captions only', async ({ page }) => {
  await openKiosk(page);
  // Chromium's headless shell has speech synthesis and no voice (the unit tests hold the amber case).
  const voices = await page.evaluate(() => (globalThis as unknown as { speechSynthesis: { getVoices(): unknown[] } }).speechSynthesis.getVoices().length);
  expect(voices, 'this browser has voices of its own').toBe(0);
  const light = page.getByRole('complementary', { name: 'Kiosk status' }).locator('[data-light="speech"]');
  await expect(light).toHaveAttribute('data-state', 'red');
  await expect(light).toContainText('Voice: none; captions only (red).');
});
