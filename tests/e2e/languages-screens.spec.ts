// The visitor sign-in example in each of the kiosk's five languages (issue 17): every screen of a
// visit passes the accessibility checks (axe, 48 px targets, fields named by their labels), the
// dialogs and lists included. And Arabic mirrors: the page is right to left, the layout starts on
// the right (the step, the bar's title, a field's label, a value's Confirm), while a name or an
// email in Latin letters, the captions and the form keep their reading order.

import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import type { Messages } from '../../src/ui/i18n/messages-en.ts';
import { ar } from '../../src/ui/i18n/messages-ar.ts';
import { de } from '../../src/ui/i18n/messages-de.ts';
import { en } from '../../src/ui/i18n/messages-en.ts';
import { es } from '../../src/ui/i18n/messages-es.ts';
import { fr } from '../../src/ui/i18n/messages-fr.ts';
import { expectAccessibleScreen } from './support/a11y.ts';
import { agentLines, expectStep, fieldBlock, kioskSays, openKiosk, visitorLines } from './support/kiosk.ts';

// A ceiling, not a wait: nine screens scanned in each language, on a two-core machine running two other browsers.
test.describe.configure({ timeout: 150_000 });

/** A language of the example: its name on the idle screen, the kiosk's catalog, and the flow's own words used here. */
interface Language {
  name: string;
  words: Messages;
  email: string;
  agree: string;
  done: string;
}

const LANGUAGES: readonly Language[] = [
  { name: 'English', words: en, email: 'Email address', agree: 'I agree', done: 'Done' },
  { name: 'Deutsch', words: de, email: 'E-Mail-Adresse', agree: 'Ich stimme zu', done: 'Fertig' },
  { name: 'Français', words: fr, email: 'Adresse e-mail', agree: 'J’accepte', done: 'Terminé' },
  { name: 'Español', words: es, email: 'Correo electrónico', agree: 'Acepto', done: 'Listo' },
  { name: 'العربية', words: ar, email: 'البريد الإلكتروني', agree: 'أوافق', done: 'تم' },
];

/** A catalog message with its values put in (the messages used here have no plurals). */
function filled(message: string, values: Record<string, string>): string {
  return message.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!);
}

/** The visitor sign-in started in `language` from the idle screen, the name typed and the email heard (typed into the answer box): the email waits for a yes. */
async function signInWaiting(page: Page, language: Language): Promise<void> {
  await openKiosk(page, { flow: 'visitor-signin' });
  await page.getByRole('navigation', { name: en.idle.languages }).getByRole('button', { name: language.name, exact: true }).click();
  await expectStep(page, 'details');
  await fieldBlock(page, 'full_name').locator('input').fill('Layla Haddad');
  const box = page.getByRole('textbox', { name: language.words.answer.label, exact: true });
  await box.fill('layla.haddad@example.com');
  await box.press('Enter');
  await expect(fieldBlock(page, 'email')).toHaveAttribute('data-status', 'pending');
}

for (const language of LANGUAGES) {
  test(`every screen of a visit in ${language.name} passes the accessibility checks`, async ({ page }) => {
    const { words } = language;
    await signInWaiting(page, language);
    await expectAccessibleScreen(page, `${language.name}: details, the email waiting`);

    await page.getByRole('button', { name: filled(words.language.current, { name: language.name }) }).click();
    await expect(page.getByRole('dialog', { name: words.language.choose })).toBeVisible();
    await expectAccessibleScreen(page, `${language.name}: the language list`);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: words.access.label, exact: true }).click();
    await expect(page.getByRole('dialog', { name: words.access.label })).toBeVisible();
    await expectAccessibleScreen(page, `${language.name}: accessibility`);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: words.bar.startOver, exact: true }).click();
    const restart = page.getByRole('alertdialog', { name: words.startOver.title });
    await expect(restart).toBeVisible();
    await expectAccessibleScreen(page, `${language.name}: start over?`);
    await restart.getByRole('button', { name: words.startOver.no }).click();

    // The name was typed, so the email's Confirm completes the step's gate and moves on.
    await page.getByRole('button', { name: filled(words.field.confirmLabel, { label: language.email }) }).click();
    await expectStep(page, 'host');
    await expectAccessibleScreen(page, `${language.name}: host`);
    await page.getByRole('button', { name: 'Priya Shah' }).click();
    await expectStep(page, 'rules');
    await expectAccessibleScreen(page, `${language.name}: rules`);
    await page.getByRole('button', { name: language.agree, exact: true }).click();
    await expectStep(page, 'badge');
    await expectAccessibleScreen(page, `${language.name}: badge`);
    await page.getByRole('button', { name: language.done, exact: true }).click();
    await kioskSays(page, 'data-phase', 'ended');
    // Left for whoever comes next: none of the visitor's details (issue 31), only the thanks and Finish.
    await expect(page.getByRole('button', { name: words.end.finish, exact: true })).toBeVisible();
    await expect(page.locator('main')).not.toContainText('Layla Haddad');
    await expectAccessibleScreen(page, `${language.name}: end`);
  });
}

/** Where a part of the screen is, in CSS px. */
async function box(target: Locator): Promise<{ left: number; right: number; top: number; bottom: number }> {
  const b = (await target.boundingBox())!;
  return { left: b.x, right: b.x + b.width, top: b.y, bottom: b.y + b.height };
}

test('Arabic mirrors the kiosk: right to left from the bar to the answer box, with Latin names, the captions and the form in reading order', async ({ page }) => {
  const arabic = LANGUAGES.find((l) => l.words === ar)!;
  await signInWaiting(page, arabic);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');

  // The layout starts on the right: the step beside the conversation, the bar's title at its right end.
  const step = await box(page.locator('.step'));
  const talk = await box(page.locator('.talk'));
  expect(step.left).toBeGreaterThan(talk.right);
  const bar = await box(page.locator('.bar'));
  const title = await box(page.locator('.flow-title'));
  const startOver = await box(page.getByRole('button', { name: ar.bar.startOver, exact: true }));
  expect(bar.right - title.right).toBeLessThan(2);
  expect(startOver.right).toBeLessThan(title.left);

  // A field: its label over the box, both from the right; the value waiting has Confirm at the
  // right of Change, as the list reads.
  const email = fieldBlock(page, 'email');
  const label = await box(email.locator('label'));
  const field = await box(email.locator('input'));
  expect(Math.abs(label.right - field.right)).toBeLessThan(2);
  expect(label.bottom).toBeLessThanOrEqual(field.top + 1);
  const confirm = await box(email.getByRole('button', { name: filled(ar.field.confirmLabel, { label: arabic.email }) }));
  const change = await box(email.getByRole('button', { name: filled(ar.field.changeLabel, { label: arabic.email }) }));
  expect(confirm.left).toBeGreaterThan(change.right);
  await expect(page.getByRole('heading', { level: 1 })).toHaveCSS('direction', 'rtl');
  // Latin letters in the form read left to right (dir=auto): the name and the email as written.
  await expect(fieldBlock(page, 'full_name').locator('input')).toHaveCSS('direction', 'ltr');
  await expect(email.locator('input')).toHaveCSS('direction', 'ltr');

  // The captions in the order said, top to bottom: the visitor's email, then the kiosk's Arabic
  // question; each line's speaker where the line starts, at its right; the email left to right.
  const heard = visitorLines(page).last();
  const answered = agentLines(page).last();
  await expect(answered.locator('.said')).toContainText('هل هذا صحيح؟');
  expect((await box(heard)).bottom).toBeLessThanOrEqual((await box(answered)).top + 1);
  for (const line of [heard, answered]) {
    const whole = await box(line);
    const who = await box(line.locator('.who'));
    expect(who.left).toBeGreaterThan((whole.left + whole.right) / 2);
  }
  await expect(heard.locator('.said')).toHaveCSS('direction', 'ltr');
  await expect(answered.locator('.said')).toHaveCSS('direction', 'rtl');

  // The answer box: the typing field first from the right, its Send to the left of it.
  const answer = await box(page.getByRole('textbox', { name: ar.answer.label, exact: true }));
  const send = await box(page.getByRole('button', { name: ar.answer.send, exact: true }));
  expect(send.right).toBeLessThanOrEqual(answer.left + 1);
});
