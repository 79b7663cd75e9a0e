// German visits (issue 17). The visitor sign-in in German alone (the example as an office in Munich
// would run it) shows no English of the kiosk's own on any screen, whether it is finished by touch
// or by typing to the built-in assistant: the idle screen, every step, a blocked step's notice,
// "Start over?", the accessibility choices, "Are you still there?" and the end screen, read as a
// person and a screen reader meet them (tests/e2e/support/no-english.ts). And the clinic example,
// German chosen on its idle screen, is finished by touch, its check-in confirmed and made.

import { readFileSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { inOneLanguage } from '../support/one-language.ts';
import { serveFlow, TEST_FLOWS } from './support/flows.ts';
import { expectStep, input, kioskSays, lastSaid, openKiosk } from './support/kiosk.ts';
import { englishIn, expectNoEnglish, screenText } from './support/no-english.ts';

const FILE = `${TEST_FLOWS}/empfang.yaml`;
/** The visitor sign-in in German alone. */
const EMPFANG = inOneLanguage(readFileSync(new URL('../../flows/visitor-signin.yaml', import.meta.url), 'utf8'), 'de-DE');

/** The answer box, as German names it. */
const ANSWER = 'Geben Sie Ihre Antwort ein';

async function openEmpfang(page: Page): Promise<void> {
  await serveFlow(page, FILE, EMPFANG);
  await openKiosk(page, { flow: FILE });
  await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
}


/** The end screen's list of what the visitor takes away (the flow's show_at_end values), as label and value. */
async function told(page: Page): Promise<Record<string, string>> {
  const list = page.getByRole('region', { name: 'Bitte merken Sie sich' });
  const [labels, values] = [await list.locator('dt').allInnerTexts(), await list.locator('dd').allInnerTexts()];
  return Object.fromEntries(labels.map((label, i) => [label, values[i]!]));
}

test('visitor sign-in in German alone, by touch: no English on any screen, its notices and dialogs included', async ({ page }) => {
  // The page's clock is Playwright's, so that "Sind Sie noch da?" comes when the test says.
  await page.clock.install();
  await openEmpfang(page);
  await expect(page.getByRole('heading', { name: 'Besucheranmeldung' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Sprache' })).toHaveCount(0);
  await expectNoEnglish(page, 'de', 'idle');

  await page.getByRole('button', { name: 'Starten', exact: true }).click();
  await expectStep(page, 'details');
  await expect(page.getByRole('heading', { name: 'Willkommen bei Northwind Studios' })).toBeVisible();
  await expectNoEnglish(page, 'de', 'details');

  // Weiter with nothing typed: blocked, each field says what it needs.
  await page.getByRole('button', { name: 'Weiter', exact: true }).click();
  await expect(page.getByRole('alert').first()).toBeVisible();
  await expectNoEnglish(page, 'de', 'details, blocked');

  await input(page, 'Ihr Name').fill('Anna Weber');
  await input(page, 'E-Mail-Adresse').fill('anna.weber@example.de');
  await page.getByRole('button', { name: 'Weiter', exact: true }).click();
  await expectStep(page, 'host');
  await expect(page.getByRole('heading', { name: 'Wen besuchen Sie, Anna Weber?' })).toBeVisible();
  await expectNoEnglish(page, 'de', 'host');

  // The visitor's own choices, and "Start over?", in German.
  await page.getByRole('button', { name: 'Barrierefreiheit' }).click();
  await expect(page.getByRole('dialog', { name: 'Barrierefreiheit' })).toBeVisible();
  await expectNoEnglish(page, 'de', 'accessibility');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Neu beginnen', exact: true }).click();
  const restart = page.getByRole('alertdialog', { name: 'Neu beginnen?' });
  await expect(restart).toBeVisible();
  await expectNoEnglish(page, 'de', 'start over?');
  await restart.getByRole('button', { name: 'Nein, weiter' }).click();

  await page.getByRole('button', { name: 'Haustechnik' }).click();
  await expectStep(page, 'rules');
  await expect(page.getByRole('main').getByText('Bleiben Sie bei Haustechnik oder bei jemandem vom Personal.')).toBeVisible();
  await expectNoEnglish(page, 'de', 'rules');

  // Walked away for the idle time: the question, in German.
  await page.clock.runFor(120_000);
  const stillThere = page.getByRole('alertdialog', { name: 'Sind Sie noch da?' });
  await expect(stillThere).toBeVisible();
  await expectNoEnglish(page, 'de', 'still there?');
  await stillThere.getByRole('button', { name: 'Ich bin noch da' }).click();

  await page.getByRole('button', { name: 'Ich stimme zu', exact: true }).click();
  await expectStep(page, 'badge');
  await expect(page.getByRole('heading', { name: 'Willkommen, Anna Weber' })).toBeVisible();
  await expectNoEnglish(page, 'de', 'badge');
  await page.getByRole('button', { name: 'Fertig', exact: true }).click();
  await kioskSays(page, 'data-phase', 'ended');
  // Nothing of the visitor's is left on the end screen (issue 31).
  expect(await told(page)).toEqual({});
  await expect(page.locator('main')).not.toContainText('Anna Weber');
  await expectNoEnglish(page, 'de', 'end');
});

test('visitor sign-in in German alone, by typing to the built-in assistant: every reply in German, no English on any screen', async ({ page }) => {
  await openEmpfang(page);
  await page.getByRole('button', { name: 'Starten', exact: true }).click();
  await expectStep(page, 'details');
  const type = async (text: string, reply: string) => {
    const box = page.getByRole('textbox', { name: ANSWER, exact: true });
    await box.fill(text);
    await box.press('Enter');
    await expect(box).toHaveValue('');
    await expect(lastSaid(page)).toHaveText(reply);
  };
  await type('Ich heiße Anna Weber', 'Ich habe Anna Weber verstanden. Stimmt das?');
  await type('anna.weber@example.de', 'Ich habe Anna Weber, E-Mail anna.weber@example.de. Stimmt das?');
  await expect(page.getByRole('button', { name: 'Alle 2 Antworten bestätigen' })).toBeVisible();
  await expectNoEnglish(page, 'de', 'details, two values waiting');
  // The gate's own German yes.
  await type('Ja, das stimmt', 'Wen besuchen Sie, Anna Weber? Bitte wählen Sie: Priya Shah, Tom Becker, Ana Souza oder Haustechnik.');
  await expectStep(page, 'host');
  await expectNoEnglish(page, 'de', 'host');
  await type(
    'Tom Becker',
    'Hausordnung. Tragen Sie Ihren Ausweis bitte jederzeit sichtbar. Bleiben Sie bei Tom Becker oder bei jemandem vom Personal. Folgen Sie bei Alarm den grünen Schildern zum Parkplatz. Sind Sie einverstanden?',
  );
  await expectStep(page, 'rules');
  await expectNoEnglish(page, 'de', 'rules');
  await type('Ja, einverstanden', 'Willkommen, Anna Weber. Tom Becker weiß Bescheid, dass Sie da sind. Bitte nehmen Sie Ihren Ausweis aus der Ablage.');
  await expectStep(page, 'badge');
  await expectNoEnglish(page, 'de', 'badge');
  await page.getByRole('button', { name: 'Fertig', exact: true }).click();
  await kioskSays(page, 'data-phase', 'ended');
  expect(await told(page)).toEqual({});
  await expect(page.locator('main')).not.toContainText('Anna Weber');
  await expectNoEnglish(page, 'de', 'end');
});

test('the clinic example in German, chosen on its idle screen, is finished by touch and the check-in is made', async ({ page }) => {
  await openKiosk(page, { flow: 'clinic-checkin' });
  // The same reading of the screen finds the kiosk's English where it is: the idle screen is in the flow's default.
  expect(englishIn(await screenText(page))).toEqual(expect.arrayContaining(['Talk to me or use the screen', 'Start']));
  await page.getByRole('navigation', { name: 'Language' }).getByRole('button', { name: 'Deutsch' }).click();
  await expectStep(page, 'identify');
  await expect(page.getByRole('heading', { name: 'Willkommen in der Riverside Family Clinic' })).toBeVisible();
  await expectNoEnglish(page, 'de', 'name and date of birth');

  await input(page, 'Vor- und Nachname').fill('Maria Huber');
  await input(page, 'Geburtsdatum').fill('1984-03-05');
  await page.getByRole('button', { name: 'Weiter', exact: true }).click();
  await expectStep(page, 'reason');
  await page.getByRole('button', { name: /^Rezept abholen/ }).click();
  await expectStep(page, 'summary');
  const main = page.getByRole('main');
  await expect(main.getByText('Geburtsdatum: 5. März 1984')).toBeVisible();
  await expect(main.getByText('Anliegen: Rezept abholen')).toBeVisible();
  await expectNoEnglish(page, 'de', 'summary');

  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  const card = page.getByRole('region', { name: 'Bitte bestätigen' });
  await expect(card).toContainText('Maria Huber anmelden für: Rezept abholen');
  await expectNoEnglish(page, 'de', 'check-in waiting for a yes');
  await expectStep(page, 'summary');
  await card.getByRole('button', { name: 'Ja, fortfahren' }).click();
  await expectStep(page, 'checked_in');
  await expect(page.getByRole('heading', { name: 'Sie sind angemeldet, Maria Huber' })).toBeVisible();
  await expect(main.getByText(/^Ihre Nummer ist die \d+\./)).toBeVisible();
  await expectNoEnglish(page, 'de', 'checked in');
  await page.getByRole('button', { name: 'Fertig', exact: true }).click();
  await kioskSays(page, 'data-phase', 'ended');
  // The queue number to take away, and none of the patient's details (issue 31).
  expect(await told(page)).toEqual({ Wartenummer: expect.stringMatching(/^\d+$/) });
  await expectNoEnglish(page, 'de', 'end');
});
