// The onboarding flow by touch: typing in the form, tapping Confirm on a value the kiosk heard,
// and correcting a heard value by hand before submitting.

import { expect, test } from './support/test.ts';
import { serveShowingAnswers } from './support/flows.ts';
import { agentLines, expectStep, fieldBlock, input, kiosk, say, startVisit, visitorLines } from './support/kiosk.ts';

const NAME_LABEL = "What's your first name?";

test('onboarding by touch only: type the name, Continue, tap a colour, see the answers', async ({ page }) => {
  // The onboarding flow with its answers shown at the end, for the test to read them there.
  await startVisit(page, { flow: await serveShowingAnswers(page, 'onboarding') });
  await expectStep(page, 'ask_name');
  await expect(page.getByRole('heading', { name: 'Welcome!' })).toBeVisible();

  await input(page, NAME_LABEL).fill('Marguerite');
  await page.getByRole('button', { name: 'Continue' }).click();

  await expectStep(page, 'choose_color');
  await expect(page.getByRole('heading', { name: 'Nice to meet you, Marguerite! Pick a colour.' })).toBeVisible();
  await page.getByRole('button', { name: 'green', exact: true }).click();

  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
  const summary = page.getByRole('region', { name: 'Please remember' });
  await expect(summary.locator('dd')).toHaveText(['Marguerite', 'green']);
  await expect(summary.locator('dt')).toHaveText(['First name', 'Colour']);
  // Nothing was said: the whole visit was done with the hands.
  await expect(visitorLines(page)).toHaveCount(0);
});

test('tap-to-confirm: a heard name becomes confirmed with one tap and the flow moves on', async ({ page }) => {
  await startVisit(page);
  await say(page, 'My name is Alex');
  await expect(fieldBlock(page, 'first_name')).toHaveAttribute('data-status', 'pending');

  await page.getByRole('button', { name: `Confirm ${NAME_LABEL}` }).click();

  await expectStep(page, 'choose_color');
  await expect(page.getByRole('heading', { name: 'Nice to meet you, Alex! Pick a colour.' })).toBeVisible();
  // Confirmed by the tap alone: the visitor never said yes.
  await expect(visitorLines(page)).toHaveText(['You: My name is Alex']);
});

test('hand submit while a value is pending: Change, type, Continue moves on with the typed value', async ({ page }) => {
  await startVisit(page);
  await say(page, 'My name is Alex');
  const block = fieldBlock(page, 'first_name');
  await expect(block).toHaveAttribute('data-status', 'pending');
  const name = input(page, NAME_LABEL);
  await expect(name).toHaveValue('Alex');
  await expect(name).not.toBeEditable();

  await page.getByRole('button', { name: `Change ${NAME_LABEL}` }).click();
  await expect(name).toBeFocused();
  await expect(name).toBeEditable();
  await name.fill('Alexandra');
  await page.getByRole('button', { name: 'Continue' }).click();

  await expectStep(page, 'choose_color');
  await expect(page.getByRole('heading', { name: 'Nice to meet you, Alexandra! Pick a colour.' })).toBeVisible();
  // No voice confirmation happened: no "yes" from the visitor, no read-back of the typed value.
  await expect(visitorLines(page)).toHaveText(['You: My name is Alex']);
  await expect(agentLines(page).filter({ hasText: 'I heard Alexandra' })).toHaveCount(0);
});
