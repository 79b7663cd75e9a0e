// The example flows end to end, as a newcomer would try them: typing answers to the offline
// agent, confirming what it heard, and tapping through to the end screen.

import { expect, test } from './support/test.ts';
import { agentLines, expectStep, fieldBlock, input, kiosk, say, startVisit } from './support/kiosk.ts';

test('clinic check-in: name and date of birth by typing, an appointment, check-in confirmed and made', async ({ page }) => {
  await startVisit(page, { flow: 'clinic-checkin' });
  await expectStep(page, 'identify');

  await say(page, 'I am Maria Garcia, born 15 March 1990');
  await expect(fieldBlock(page, 'full_name')).toHaveAttribute('data-status', 'pending');
  await expect(fieldBlock(page, 'date_of_birth')).toHaveAttribute('data-status', 'pending');
  await expect(input(page, 'Full name')).toHaveValue('Maria Garcia');
  await expect(input(page, 'Date of birth')).toHaveValue('1990-03-15');
  await say(page, 'yes');

  await expectStep(page, 'reason');
  await expect(page.getByRole('heading', { name: 'Thank you, Maria Garcia. What brings you in today?' })).toBeVisible();
  await page.getByRole('button', { name: 'Appointment I have a booked appointment' }).click();

  await expectStep(page, 'appointment');
  await page.getByRole('combobox', { name: 'Which doctor are you seeing?', exact: true }).selectOption('Dr. Lindqvist');
  await input(page, 'Appointment time').fill('10:30');
  await page.getByRole('button', { name: 'Continue' }).click();

  await expectStep(page, 'appointment_summary');
  await expect(page.getByRole('main').getByText('Name: Maria Garcia')).toBeVisible();
  await expect(page.getByRole('main').getByText('Appointment: Dr. Lindqvist at 10:30')).toBeVisible();
  await say(page, 'Please check me in');
  const pending = page.getByRole('region', { name: 'Please confirm' });
  await expect(pending).toContainText('Check in Maria Garcia');
  await expect(agentLines(page).last()).toContainText('Shall I go ahead?');
  await pending.getByRole('button', { name: 'Yes, go ahead' }).click();

  await expectStep(page, 'checked_in');
  await expect(page.getByRole('heading', { name: "You're checked in, Maria Garcia" })).toBeVisible();
  await page.getByRole('button', { name: 'Done' }).click();

  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
  // What the patient takes away, and none of their details for whoever steps up next (issue 31):
  // the queue number is the local clinic service's answer to the check-in.
  const remember = page.getByRole('region', { name: 'Please remember' });
  await expect(remember.locator('dt')).toHaveText(['Queue number']);
  await expect(remember.locator('dd')).toHaveText([/^\d+$/]);
  for (const detail of ['Maria Garcia', 'March 15, 1990', '1990-03-15', 'Dr. Lindqvist', '10:30', 'Appointment']) await expect(page.locator('body')).not.toContainText(detail);
  // The kiosk cannot hear here (no microphone in these tests): its hint names the button alone.
  await expect(page.locator('[data-limit="end"] .time-hint')).toHaveText('Press More time for longer.');
  // Finish clears at once.
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
});

test('visitor sign-in: name and email by typing, confirmed by voice, host and rules by touch', async ({ page }) => {
  await startVisit(page, { flow: 'visitor-signin' });
  await expectStep(page, 'details');

  await say(page, 'My name is Sam Lee');
  await expect(fieldBlock(page, 'full_name')).toHaveAttribute('data-status', 'pending');
  await say(page, 'my email is sam.lee@example.com');
  await expect(fieldBlock(page, 'email')).toHaveAttribute('data-status', 'pending');
  await expect(input(page, 'Email address')).toHaveValue('sam.lee@example.com');
  await expect(agentLines(page).last()).toHaveText('Kiosk: I have Sam Lee, email sam.lee@example.com. Is that right?');
  await say(page, 'yes');

  await expectStep(page, 'host');
  await page.getByRole('button', { name: 'Tom Becker' }).click();

  await expectStep(page, 'rules');
  await expect(page.getByRole('main').getByText('Stay with Tom Becker or a member of staff.')).toBeVisible();
  await page.getByRole('button', { name: 'I agree' }).click();

  await expectStep(page, 'badge');
  await expect(page.getByRole('heading', { name: 'Welcome, Sam Lee' })).toBeVisible();
  await page.getByRole('button', { name: 'Done' }).click();

  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
  // The flow marks nothing to take away (the badge is in the tray): nothing of the visitor's is shown.
  await expect(page.getByRole('region', { name: 'Please remember' })).toHaveCount(0);
  for (const detail of ['Sam Lee', 'sam.lee@example.com', 'Tom Becker']) await expect(page.locator('body')).not.toContainText(detail);
});
