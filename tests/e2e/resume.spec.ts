// A reload in the middle of a visit comes back, without a tap, to the same step with the same
// values and captions: a value waiting for confirmation still waits, a check-in waiting for the
// visitor's yes still waits. After a wipe (end, "Start over", walk-away), or once the visitor has
// been gone longer than the kiosk waits, a reload starts on the idle screen and the kept copy is
// gone.

import { type Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { agentLines, expectStep, fieldBlock, input, kiosk, say, startVisit, visitorLines } from './support/kiosk.ts';

const NAME = 'Quillon';
const NAME_LABEL = "What's your first name?";
const VISIT_KEY = 'kiosk-visit';

/** The kept visit in localStorage, as text, or null. */
function keptVisit(page: Page): Promise<string | null> {
  return page.evaluate<string | null>(`localStorage.getItem(${JSON.stringify(VISIT_KEY)})`);
}

async function reload(page: Page): Promise<void> {
  await page.reload();
  await expect(kiosk(page)).not.toHaveAttribute('data-phase', 'loading');
}

async function expectIdleAndNothingKept(page: Page): Promise<void> {
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
  await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeVisible();
  expect(await keptVisit(page)).toBeNull();
}

/** Onboarding with the name said (so it waits for confirmation). */
async function nameWaiting(page: Page, params: Parameters<typeof startVisit>[1] = {}): Promise<void> {
  await startVisit(page, params);
  await say(page, `My name is ${NAME}`);
  await expect(fieldBlock(page, 'first_name')).toHaveAttribute('data-status', 'pending');
  await expect(input(page, NAME_LABEL)).toHaveValue(NAME);
}

test('a reload mid-visit returns to the same step: the value still waits for confirmation, the captions are back', async ({ page }) => {
  await nameWaiting(page);
  const spoken = await agentLines(page).allInnerTexts();
  expect(spoken.length).toBeGreaterThan(0);
  expect(await keptVisit(page)).toContain(NAME);

  await reload(page);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'running');
  await expectStep(page, 'ask_name');
  await expect(input(page, NAME_LABEL)).toHaveValue(NAME);
  await expect(fieldBlock(page, 'first_name')).toHaveAttribute('data-status', 'pending');
  await expect(visitorLines(page)).toHaveText([`You: My name is ${NAME}`]);
  await expect(agentLines(page)).toHaveText(spoken);

  // Still the visitor's to confirm, and it works as before the reload.
  await page.getByRole('button', { name: `Confirm ${NAME_LABEL}` }).click();
  await expectStep(page, 'choose_color');
  await expect(page.getByRole('heading', { name: `Nice to meet you, ${NAME}! Pick a colour.` })).toBeVisible();
  await page.getByRole('button', { name: 'blue', exact: true }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
});

test('a tab that crashed or a browser started again: a new page of the kiosk takes the visit up', async ({ page, context }) => {
  await nameWaiting(page);
  const address = page.url();
  await page.close();
  // A new page has a new sessionStorage: only what localStorage keeps comes back.
  const again = await context.newPage();
  await again.goto(address);
  await expectStep(again, 'ask_name');
  await expect(input(again, NAME_LABEL)).toHaveValue(NAME);
  await expect(fieldBlock(again, 'first_name')).toHaveAttribute('data-status', 'pending');
});

test('what was typed into a field and not yet sent is back after a reload', async ({ page }) => {
  await startVisit(page);
  await input(page, NAME_LABEL).fill('Quil');
  await expect.poll(() => keptVisit(page)).toContain('Quil');
  await reload(page);
  await expectStep(page, 'ask_name');
  await expect(input(page, NAME_LABEL)).toHaveValue('Quil');
});

test('clinic: confirmed values survive a reload, and a check-in waiting for a yes still waits and is not done', async ({ page }) => {
  await startVisit(page, { flow: 'clinic-checkin' });
  await say(page, 'I am Maria Garcia, born 15 March 1990');
  await expect(fieldBlock(page, 'date_of_birth')).toHaveAttribute('data-status', 'pending');
  await say(page, 'yes');
  await expectStep(page, 'reason');

  await reload(page);
  await expectStep(page, 'reason');
  await expect(page.getByRole('heading', { name: 'Thank you, Maria Garcia. What brings you in today?' })).toBeVisible();
  await page.getByRole('button', { name: 'Walk-in visit' }).click();
  await expectStep(page, 'summary');
  await say(page, 'Please check me in');
  const pending = page.getByRole('region', { name: 'Please confirm' });
  await expect(pending).toContainText('Check in Maria Garcia');

  await reload(page);
  await expectStep(page, 'summary');
  await expect(page.getByRole('main').getByText('Name: Maria Garcia')).toBeVisible();
  await expect(pending).toContainText('Check in Maria Garcia');
  await pending.getByRole('button', { name: 'Yes, go ahead' }).click();
  await expectStep(page, 'checked_in');
});

test('no resume after "Start over"', async ({ page }) => {
  await nameWaiting(page);
  await page.getByRole('button', { name: 'Start over' }).click();
  await page.getByRole('alertdialog', { name: 'Start over?' }).getByRole('button', { name: 'Yes, start over' }).click();
  await expectIdleAndNothingKept(page);
  await reload(page);
  await expectIdleAndNothingKept(page);
});

test('no resume once the visit has ended: a reload on its end screen starts on the idle screen', async ({ page }) => {
  await nameWaiting(page);
  await page.getByRole('button', { name: `Confirm ${NAME_LABEL}` }).click();
  await expectStep(page, 'choose_color');
  await page.getByRole('button', { name: 'blue', exact: true }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
  expect(await keptVisit(page)).toBeNull();
  await reload(page);
  await expectIdleAndNothingKept(page);
});

test('no resume after walking away', async ({ page }) => {
  // The page's clock is Playwright's: the idle time passes when the test says, however busy the machine.
  await page.clock.install();
  await nameWaiting(page, { idle_seconds: 60, idle_grace_seconds: 10 });
  await page.clock.runFor(60_000);
  await expect(page.getByRole('alertdialog', { name: 'Are you still there?' })).toBeVisible();
  await page.clock.runFor(10_000);
  await expectIdleAndNothingKept(page);
  await reload(page);
  await expectIdleAndNothingKept(page);
});

test.describe('time away from the page', () => {
  // The page's clock is Playwright's: the time is moved while the page is not running a visit's timers.
  const START = new Date('2026-11-23T10:00:00Z').getTime();

  test('no resume once the visitor has been gone longer than the kiosk waits: the kept copy is deleted', async ({ page }) => {
    await page.clock.install({ time: START });
    await nameWaiting(page, { idle_seconds: 60, idle_grace_seconds: 20 });
    expect(await keptVisit(page)).toContain(NAME);
    // The browser is gone for 81 s (as if it crashed); the kiosk would have wiped after 80 s.
    const left = await page.evaluate<number>('Date.now()');
    await page.goto('about:blank');
    await page.clock.setSystemTime(left + 81_000);
    await page.goBack();
    await expect(kiosk(page)).not.toHaveAttribute('data-phase', 'loading');
    await expectIdleAndNothingKept(page);
  });

  test('back within the idle time and its grace: the visit resumes and asks "Are you still there?"', async ({ page }) => {
    await page.clock.install({ time: START });
    await nameWaiting(page, { idle_seconds: 60, idle_grace_seconds: 20 });
    const left = await page.evaluate<number>('Date.now()');
    await page.goto('about:blank');
    await page.clock.setSystemTime(left + 65_000);
    await page.goBack();
    await expectStep(page, 'ask_name');
    await expect(input(page, NAME_LABEL)).toHaveValue(NAME);
    const dialog = page.getByRole('alertdialog', { name: 'Are you still there?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: "I'm still here" }).click();
    await expect(dialog).toBeHidden();
    await expect(fieldBlock(page, 'first_name')).toHaveAttribute('data-status', 'pending');
  });
});
