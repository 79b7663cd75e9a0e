// A flow's global ways out (issue 20): the clinic's "Talk to a person" is beside the answer box on
// every step, by touch and by voice, and leads to the front desk.

import { expect, test } from './support/test.ts';
import { expectStep, kiosk, say, startVisit } from './support/kiosk.ts';

test('"Talk to a person" is on every step, and a tap or the words lead to the front desk', async ({ page }) => {
  await startVisit(page, { flow: 'clinic-checkin' });
  const person = page.getByRole('button', { name: 'Talk to a person', exact: true });
  await expect(person).toBeVisible();
  await say(page, 'My name is Maria Garcia');
  await page.getByRole('textbox', { name: 'Date of birth', exact: true }).fill('1984-03-05');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expectStep(page, 'reason');
  await expect(person).toBeVisible();
  await person.click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
  await expect(page.getByRole('heading', { name: 'Please see the front desk' })).toBeVisible();
});

test('saying it at the first step does the same', async ({ page }) => {
  await startVisit(page, { flow: 'clinic-checkin' });
  const box = page.getByLabel('Type your answer', { exact: true });
  await box.fill('Can I talk to someone at the front desk please');
  await box.press('Enter');
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
  await expect(page.getByRole('heading', { name: 'Please see the front desk' })).toBeVisible();
});
