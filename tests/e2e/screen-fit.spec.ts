// Nothing the visitor or staff must read is cut off or hidden (issue 31, points 9 to 11), at the
// sizes a clinic's tablets and a visitor's phone have: the kiosk's newest caption is whole in its
// box (or shows from its first words when longer than the box); "Confirm all" never confirms a
// value under the fold, and why Continue did not go on is in view; staff's notes on the idle
// screen are on it and clear of the status strip.

import { type Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { agentLines, expectStep, fieldBlock, input, say, startVisit } from './support/kiosk.ts';
import { expectApart, expectWhollyIn } from './support/in-view.ts';

const UPRIGHT = { width: 768, height: 1024 };
const PHONE = { width: 390, height: 844 };
const LANDSCAPE = { width: 1024, height: 768 };

function captionsBox(page: Page) {
  return page.locator('.talk .captions');
}

/** The newest of the kiosk's lines is readable in the captions' box: whole, or from its start when longer than the box. */
async function expectNewestReadable(page: Page, what: string): Promise<void> {
  const newest = agentLines(page).last();
  const box = captionsBox(page);
  const [line, shown] = [await newest.boundingBox(), await box.boundingBox()];
  expect(line && shown, `${what}: laid out`).toBeTruthy();
  if (line!.height <= shown!.height) await expectWhollyIn(newest, box, `${what}: the kiosk's newest line`);
  else await expectWhollyIn(newest.locator('.who'), box, `${what}: the start of the kiosk's newest line`);
}

/** The clinic's first step on a screen of `size`, with `line` typed: the value it names waits for a yes. */
async function clinicHeard(page: Page, size: { width: number; height: number }, line: string, waits: string): Promise<void> {
  await page.setViewportSize(size);
  await startVisit(page, { flow: 'clinic-checkin' });
  await say(page, line);
  await expect(fieldBlock(page, waits)).toHaveAttribute('data-status', 'pending');
}

test('an upright tablet: the kiosk\'s newest line is whole in the captions, turn after turn', async ({ page }) => {
  await clinicHeard(page, UPRIGHT, "I'm Maria Garcia, born 5 March 1984", 'date_of_birth');
  await expectNewestReadable(page, 'both values waiting');
  await say(page, 'yes');
  await expectStep(page, 'reason');
  await expectNewestReadable(page, 'the reason asked');
});

test('a phone: a visitor who types reads the kiosk\'s replies', async ({ page }) => {
  await clinicHeard(page, PHONE, 'my name is Maria Garcia', 'full_name');
  await expectNewestReadable(page, 'the name waiting');
});

test('a phone: "Confirm all" first shows a value waiting under the fold, and confirms only once it was seen', async ({ page }) => {
  await clinicHeard(page, PHONE, 'Maria Garcia, 5 March 1984', 'date_of_birth');
  const [name, born] = [fieldBlock(page, 'full_name'), fieldBlock(page, 'date_of_birth')];
  await expect(name).toHaveAttribute('data-status', 'pending');
  const body = page.locator('.step-body');
  // The name is brought into view as it arrives; the date of birth is under the fold.
  await expectWhollyIn(name, body, 'the name waiting');
  expect(await born.boundingBox().then((b) => b!.y + b!.height), 'the date of birth starts under the fold').toBeGreaterThan(await body.boundingBox().then((b) => b!.y + b!.height));

  const confirmAll = page.getByRole('button', { name: 'Confirm all 2 answers' });
  await confirmAll.click();
  await expectWhollyIn(born, body, 'the date of birth, brought into view');
  await expect(born).toHaveAttribute('data-status', 'pending');
  await expect(name).toHaveAttribute('data-status', 'pending');

  await expect(confirmAll).toBeEnabled();
  await confirmAll.click();
  await expectStep(page, 'reason');
});

test('a phone: why Continue did not go on is said in view', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await startVisit(page, { flow: 'clinic-checkin' });
  await input(page, 'Full name').fill('Maria Garcia');
  await page.getByRole('button', { name: 'Continue' }).click();
  const notice = page.locator('.step-body .notice');
  await expect(notice).toContainText('date of birth');
  await expectWhollyIn(notice, page.locator('.step-body'), 'the notice');
});

test('a landscape tablet: staff\'s notes on the idle screen are on it, clear of the status strip', async ({ page }) => {
  await page.setViewportSize(LANDSCAPE);
  await page.goto('/?flow=visitor-signin&idle_seconds=abc&mic_sensitivity=loud');
  await expect(page.locator('.kiosk')).toHaveAttribute('data-phase', 'idle');
  const notes = page.locator('.operator-note');
  await expect(notes).toHaveCount(2);
  for (const n of [0, 1]) {
    await expectWhollyIn(notes.nth(n), page, `staff's note ${n + 1}`);
    await expectApart(notes.nth(n), page.locator('.status-lights'), `staff's note ${n + 1} and the status strip`);
  }
  await expectWhollyIn(page.getByRole('button', { name: 'Start', exact: true }), page, 'Start');
});

