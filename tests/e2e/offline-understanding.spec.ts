// The built-in assistant's understanding of typed answers on the screen (issue 8, point 3; issue
// 21, point 7). What it understands is checked in Node on the kiosk's own conversation and engine
// (tests/unit/typed-understanding.test.ts); here, what the screen makes of it: a correction typed
// in one breath shown in the field and the captions, a clinic visit typed to its check-in at the
// clinic's service, a name typed into the form written with its capitals. Then Prepatu's wizard
// shapes (point 4): a booking finished by touch alone, on both tablet orientations, and a farewell.

import { readFileSync } from 'node:fs';
import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { serveFlow, TEST_FLOWS } from './support/flows.ts';
import { agentLines, checkIn, expectStep, fieldBlock, input, kiosk, say, startVisit } from './support/kiosk.ts';

/** What the kiosk said last, without the "Kiosk:" tag. */
function lastSaid(page: Page): Locator {
  return agentLines(page).last().locator('.said');
}

/** Types `text` and waits for the kiosk's answer to it to read `answer`. */
async function answerTo(page: Page, text: string, answer: string): Promise<void> {
  await say(page, text);
  await expect(lastSaid(page)).toHaveText(answer);
}

/** Types the answer that ends the visit: the end screen has no answer box to see emptied. */
async function sayLast(page: Page, text: string): Promise<void> {
  const box = page.getByLabel('Type your answer', { exact: true });
  await box.fill(text);
  await box.press('Enter');
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
}

test('a correction in one breath: "no, it\'s Marta" takes Marta in place of the name heard', async ({ page }) => {
  await startVisit(page);
  await answerTo(page, 'maria', 'I heard Maria. Is that right?');
  await answerTo(page, "no, it's Marta", 'I heard Marta. Is that right?');
  await expect(input(page, "What's your first name?")).toHaveValue('Marta');
  await expect(fieldBlock(page, 'first_name')).toHaveAttribute('data-status', 'pending');
});

test('a clinic visit typed to its end: "doctor lindqvist at half past ten" gives the doctor and the time, and the check-in is made', async ({ page }) => {
  await startVisit(page, { flow: 'clinic-checkin' });
  await say(page, "I'm Maria Garcia, born 5 March 1984");
  await say(page, 'yes');
  await expectStep(page, 'reason');
  await say(page, 'I have an appointment');
  await expectStep(page, 'appointment');
  await say(page, 'doctor lindqvist at half past ten');
  await expectStep(page, 'appointment_summary');
  await expect(page.getByRole('main')).toContainText('Appointment: Dr. Lindqvist at 10:30');
  await checkIn(page);
  await expectStep(page, 'checked_in');
  await page.getByRole('button', { name: 'Done' }).click();
  // The end screen: the queue number the clinic service gave (it counts the check-ins of every test), nothing else.
  await expect(page.getByRole('region', { name: 'Please remember' }).locator('dd')).toHaveText([/^\d+$/]);
});

test('a name typed into the form is written with a capital, and so the next step greets it', async ({ page }) => {
  await startVisit(page, { flow: 'visitor-signin' });
  await input(page, 'Your name').fill('anna van der berg');
  await input(page, 'Email address').fill('anna@example.com');
  await page.getByRole('button', { name: 'Next' }).click();
  await expectStep(page, 'host');
  await expect(page.getByRole('heading', { name: 'Who are you visiting, Anna van der Berg?' })).toBeVisible();
});

test.describe.configure({ timeout: 60_000 }); // many typed turns each, on a 2-core machine shared with other runs

const FIXTURES = new URL('../fixtures/prepatu-dialect/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, FIXTURES), 'utf8');

for (const [width, height] of [
  [1280, 800],
  [800, 1280],
] as const) {
  test.describe(`Prepatu's booking wizard on a ${width}×${height} tablet`, () => {
    test.use({ viewport: { width, height } });

    test('is finished by touch alone, with a date typed into the answer box put in its field', async ({ page }) => {
      await serveFlow(page, `${TEST_FLOWS}/bike_dropoff.yaml`, fixture('bike_dropoff.yaml'));
      await startVisit(page, { flow: `${TEST_FLOWS}/bike_dropoff.yaml` });
      await expectStep(page, 'rider_details');
      await input(page, 'Full name').fill('Omar Haddad');
      await input(page, 'Email address').fill('omar@example.com');
      await page.getByRole('button', { name: 'Continue' }).click();

      await expectStep(page, 'pick_slot');
      await answerTo(page, 'June 3rd', "Thanks. I have drop-off day: June 3rd. What's your drop-off time?");
      await expect(input(page, 'Drop-off day')).toHaveValue('June 3rd');
      await input(page, 'Drop-off time').fill('9 AM');
      await page.getByRole('button', { name: 'Continue' }).click();
      // A missing repair is named, and nothing moves.
      await expect(fieldBlock(page, 'repair_type').getByRole('alert')).toHaveText('We still need your repair type.');
      await input(page, 'Repair type').fill('gears');
      await page.getByRole('button', { name: 'Continue' }).click();

      await expectStep(page, 'check_booking');
      await expect(page.getByRole('main')).toContainText('June 3rd');
      const book = page.getByRole('button', { name: 'Book dropoff' });
      for (const control of [book, page.getByRole('button', { name: 'Change details' }), page.getByRole('button', { name: 'Start over' })]) {
        await expect(control).toBeInViewport({ ratio: 1 });
      }
      await book.click();
      await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
    });
  });
}

test("a closing step with nothing on screen ends the visit, and its end screen shows nothing of the conversation", async ({ page }) => {
  await serveFlow(page, `${TEST_FLOWS}/lobby_greeter.yaml`, fixture('lobby_greeter.yaml'));
  await startVisit(page, { flow: `${TEST_FLOWS}/lobby_greeter.yaml` });
  await sayLast(page, 'Leeds');
  // The farewell its prompt asks for is spoken (its words: tests/unit/offline-agent.test.ts); the end
  // screen, left for whoever comes next, shows no captions of the visit (issue 31).
  await expect(page.getByRole('heading', { name: 'All done. Thank you!' })).toBeVisible();
  await expect(page.getByRole('log')).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText('Leeds');
});
