// Accessibility of every kiosk screen (axe WCAG 2.1 A/AA, 48 px targets, labelled fields) and a
// whole visit with the keyboard alone.

import { expect, test } from './support/test.ts';
import { expectAccessibleScreen } from './support/a11y.ts';
import { EVERY_FIELD_TYPE, TEST_FLOWS, brokenFlow, serveFlow, serveShowingAnswers } from './support/flows.ts';
import { expectStep, fieldBlock, input, kiosk, openKiosk, say, startVisit, tabTo } from './support/kiosk.ts';

// A ceiling, not a wait: every screen scanned, on a two-core machine running two other browsers.
test.describe.configure({ timeout: 150_000 });

const NAME_LABEL = "What's your first name?";

test('onboarding screens: idle, a pending value, options, the end', async ({ page }) => {
  await openKiosk(page);
  await expectAccessibleScreen(page, 'idle');

  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await say(page, 'My name is Alex');
  await expect(fieldBlock(page, 'first_name')).toHaveAttribute('data-status', 'pending');
  await expectAccessibleScreen(page, 'form with a pending value');

  await page.getByRole('button', { name: `Confirm ${NAME_LABEL}` }).click();
  await expectStep(page, 'choose_color');
  await expectAccessibleScreen(page, 'options');

  await page.getByRole('button', { name: 'yellow', exact: true }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
  await expectAccessibleScreen(page, 'end');
});

test('clinic screens: two fields with a notice, a card with an action to confirm, a long end', async ({ page }) => {
  await startVisit(page, { flow: 'clinic-checkin' });
  await say(page, 'My name is Maria Garcia');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(fieldBlock(page, 'date_of_birth').getByRole('alert')).toBeVisible();
  await expectAccessibleScreen(page, 'form with a notice');

  await input(page, 'Date of birth').fill('1990-03-15');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: "Prescription collection I'm here to collect a prescription" }).click();
  await expectStep(page, 'summary');
  await say(page, 'Please check me in');
  await expect(page.getByRole('region', { name: 'Please confirm' })).toBeVisible();
  await expectAccessibleScreen(page, 'card with an action to confirm');

  await page.getByRole('button', { name: 'Yes, go ahead' }).click();
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
  await expectAccessibleScreen(page, 'end after a long conversation');
});

test('a form with every field type: labels, sizes, a notice on a wrong email', async ({ page }) => {
  const file = `${TEST_FLOWS}/every-field-type.yaml`;
  await serveFlow(page, file, EVERY_FIELD_TYPE);
  await startVisit(page, { flow: file });
  await expect(page.locator('[data-field]')).toHaveCount(7);
  await expect(page.getByRole('checkbox', { name: 'Send me the newsletter', exact: true })).toBeVisible();
  await expect(page.getByRole('spinbutton', { name: 'Number of guests', exact: true })).toBeVisible();
  await expectAccessibleScreen(page, 'every field type');

  await input(page, 'Full name').fill('Ines');
  await input(page, 'Email address').fill('not an email');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(fieldBlock(page, 'email').getByRole('alert')).toHaveText('Please check your email address.');
  await expectAccessibleScreen(page, 'every field type, with a notice');
});

test('the "Are you still there?" dialog', async ({ page }) => {
  await startVisit(page, { idle_seconds: 0.2, idle_grace_seconds: 30 });
  await expect(page.getByRole('alertdialog', { name: 'Are you still there?' })).toBeVisible();
  await expectAccessibleScreen(page, 'still there');
});

test('the operator screen', async ({ page }) => {
  const file = `${TEST_FLOWS}/bad.yaml`;
  await serveFlow(page, file, brokenFlow('multiple-errors', file).yaml);
  await page.goto(`/?flow=${file}`);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'invalid');
  await expectAccessibleScreen(page, 'operator');
});

test('onboarding with the keyboard only (Tab, Enter, Space)', async ({ page }) => {
  // With its answers shown at the end, for the test to read them there.
  await openKiosk(page, { flow: await serveShowingAnswers(page, 'onboarding') });
  const start = page.getByRole('button', { name: 'Start', exact: true });
  await tabTo(page, start);
  await page.keyboard.press('Enter');
  await expectStep(page, 'ask_name');

  const name = input(page, NAME_LABEL);
  await tabTo(page, name);
  await page.keyboard.type('Kit');
  await page.keyboard.press('Enter');
  await expectStep(page, 'choose_color');

  await tabTo(page, page.getByRole('button', { name: 'red', exact: true }));
  await page.keyboard.press('Space');
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
  await expect(page.getByRole('region', { name: 'Please remember' }).locator('dd')).toHaveText(['Kit', 'red']);

  await tabTo(page, page.getByRole('button', { name: 'Finish' }));
  await page.keyboard.press('Space');
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
});

test('a heard value can be confirmed with the keyboard', async ({ page }) => {
  await startVisit(page);
  await say(page, 'My name is Alex');
  await tabTo(page, page.getByRole('button', { name: `Confirm ${NAME_LABEL}` }));
  await page.keyboard.press('Enter');
  await expectStep(page, 'choose_color');
});
