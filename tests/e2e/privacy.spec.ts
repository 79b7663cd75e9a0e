// Privacy on a shared kiosk: the end screen, "Start over" and walking away all wipe the visit,
// and the idle screen that follows holds nothing the visitor said or typed.

import { expect, test, type Page } from '@playwright/test';
import { expectNothingPersonalLeft, leaveInStorage } from './support/privacy.ts';
import { expectStep, input, kiosk, say, startVisit } from './support/kiosk.ts';

const NAME = 'Quillon';
const NAME_LABEL = "What's your first name?";

/** Onboarding up to the end screen, the name typed by hand and a colour tapped. */
async function completeOnboarding(page: Page): Promise<void> {
  await input(page, NAME_LABEL).fill(NAME);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'blue', exact: true }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
}

async function expectIdle(page: Page, timeout?: number): Promise<void> {
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle', timeout === undefined ? {} : { timeout });
  await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeVisible();
}

/** The next visitor's first step shows nothing of the last one (no old captions, no old value). */
async function expectFreshVisit(page: Page, personal: readonly string[]): Promise<void> {
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expectStep(page, 'ask_name');
  await expect(input(page, NAME_LABEL)).toHaveValue('');
  await expectNothingPersonalLeft(page, personal);
}

test('the end screen shows the answers, then wipes itself and returns to idle', async ({ page }) => {
  await startVisit(page, { end_seconds: 1 });
  await say(page, `My name is ${NAME}`);
  await leaveInStorage(page, NAME);
  await page.getByRole('button', { name: `Confirm ${NAME_LABEL}` }).click();
  await page.getByRole('button', { name: 'blue', exact: true }).click();

  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
  await expect(page.getByRole('region', { name: 'What you told us' })).toContainText(NAME);
  await expect(page.getByText('This screen clears itself in 1 second.')).toBeVisible();

  await expectIdle(page, 5_000);
  await expectNothingPersonalLeft(page, [NAME, 'blue', `My name is ${NAME}`]);
  await expectFreshVisit(page, [NAME]);
});

test('"Finish" on the end screen wipes at once', async ({ page }) => {
  await startVisit(page);
  await completeOnboarding(page);
  await page.getByRole('button', { name: 'Finish' }).click();
  await expectIdle(page);
  await expectNothingPersonalLeft(page, [NAME]);
  await expectFreshVisit(page, [NAME]);
});

test('"Start over" mid-flow wipes at once, and the next visit starts empty', async ({ page }) => {
  await startVisit(page);
  await say(page, `My name is ${NAME}`);
  await expect(input(page, NAME_LABEL)).toHaveValue(NAME);
  await leaveInStorage(page, NAME);

  await page.getByRole('button', { name: 'Start over' }).click();
  // A name was entered: the kiosk asks once before it clears it.
  await page.getByRole('alertdialog', { name: 'Start over?' }).getByRole('button', { name: 'Yes, start over' }).click();

  await expectIdle(page);
  await expectNothingPersonalLeft(page, [NAME]);
  await expectFreshVisit(page, [NAME]);
});

test('walking away: "Are you still there?" appears, then the kiosk wipes back to idle', async ({ page }) => {
  await startVisit(page, { idle_seconds: 3, idle_grace_seconds: 1 });
  await say(page, `My name is ${NAME}`);
  await expect(input(page, NAME_LABEL)).toHaveValue(NAME);

  const dialog = page.getByRole('alertdialog', { name: 'Are you still there?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: "I'm still here" })).toBeFocused();

  await expectIdle(page);
  await expectNothingPersonalLeft(page, [NAME]);
  await expectFreshVisit(page, [NAME]);
});

test('"I\'m still here" keeps the visit past the time it would have been wiped', async ({ page }) => {
  await startVisit(page, { idle_seconds: 3, idle_grace_seconds: 1 });
  await say(page, `My name is ${NAME}`);
  const dialog = page.getByRole('alertdialog', { name: 'Are you still there?' });
  await expect(dialog).toBeVisible();

  await dialog.getByRole('button', { name: "I'm still here" }).click();
  await expect(dialog).toBeHidden();
  // The question comes back only after another idle period, later than the first question's
  // wipe would have fired: the visit is still there when it does.
  await expect(dialog).toBeVisible();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'running');
  await expectStep(page, 'ask_name');
  await expect(input(page, NAME_LABEL)).toHaveValue(NAME);
});
