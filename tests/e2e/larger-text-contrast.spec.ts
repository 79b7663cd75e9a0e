// Text at 200 % and high contrast (WCAG 1.4.4, 1.4.10, 1.4.3): on every kiosk screen (idle, a
// value waiting for a yes, options, a card with an action to confirm, the end, "Are you still
// there?", the visitor's list of choices) axe finds nothing serious, every control is 48 px or
// more and named by its label, nothing scrolls sideways, and every control stays inside the screen.

import { type Page } from '@playwright/test';
import { expect, test } from './support/test.ts';
import { expectAccessibleScreen } from './support/a11y.ts';
import { expectStep, fieldBlock, kiosk, openKiosk, say, settled } from './support/kiosk.ts';

/** Nothing wider than the screen: the page does not scroll sideways, and no control reaches past its edge. */
async function expectNoSidewaysScroll(page: Page, screen: string): Promise<void> {
  const wide = await page.evaluate(`(() => {
    const out = [];
    if (document.documentElement.scrollWidth > innerWidth) out.push('the page: ' + document.documentElement.scrollWidth + ' px');
    for (const el of document.querySelectorAll('button, input, select, h1, h2, p, dd, .step-body, .end-body, .captions')) {
      const r = el.getBoundingClientRect();
      if (!el.checkVisibility() || r.width <= 1) continue;
      if (r.left < -1 || r.right > innerWidth + 1 || el.scrollWidth > el.clientWidth + 1) out.push(el.tagName + '.' + el.className + ' "' + (el.textContent || '').trim().slice(0, 30) + '"');
    }
    return out;
  })()`);
  expect(wide, `what is wider than the ${screen} screen`).toEqual([]);
}

async function expectFine(page: Page, screen: string): Promise<void> {
  await settled(page);
  await expectAccessibleScreen(page, screen);
  await expectNoSidewaysScroll(page, screen);
}

/** Sets the visitor's choices on the idle screen: `larger` presses of Larger text, and high contrast. */
async function choose(page: Page, larger: number, contrast: boolean): Promise<void> {
  for (let i = 0; i < larger; i++) await page.getByRole('button', { name: 'Larger text' }).click();
  if (contrast) await page.getByRole('button', { name: 'High contrast' }).click();
}

const WIDE = [1280, 800] as const;
const TALL = [800, 1280] as const;

/**
 * Text at 200 % is checked in high contrast, whose borders take room of their own: the layout at
 * its tightest. Its colours against the normal theme need no run of their own (text at 200 % is
 * large text, held to a lower contrast than the normal size that the other accessibility tests
 * scan). High contrast at the normal size is checked for its colours, which the screen's shape
 * does not change.
 */
const SETTINGS = [
  { name: 'high contrast', larger: 0, contrast: true, size: '100', screens: [TALL] },
  { name: 'text at 200 % in high contrast', larger: 4, contrast: true, size: '200', screens: [WIDE, TALL] },
];

// A ceiling, not a wait: seven screens scanned each, on a two-core machine running two other browsers.
test.describe.configure({ timeout: 150_000 });

for (const s of SETTINGS) {
  test.describe(s.name, () => {
    for (const [width, height] of s.screens) {
      test(`onboarding and its dialogs on a ${width}×${height} screen`, async ({ page }) => {
        await page.setViewportSize({ width, height });
        await openKiosk(page, { idle_seconds: 6, idle_grace_seconds: 30 });
        await choose(page, s.larger, s.contrast);
        await expect(kiosk(page)).toHaveAttribute('data-text-size', s.size);
        await expectFine(page, 'idle');

        await page.getByRole('button', { name: 'Start', exact: true }).click();
        await say(page, 'My name is Alex');
        await expect(fieldBlock(page, 'first_name')).toHaveAttribute('data-status', 'pending');
        await expectFine(page, 'form with a pending value');

        await page.getByRole('button', { name: 'Accessibility' }).click();
        await expect(page.getByRole('dialog', { name: 'Accessibility' })).toBeVisible();
        await expectFine(page, "visitor's choices");
        await page.getByRole('dialog', { name: 'Accessibility' }).getByRole('button', { name: 'Close' }).click();

        await expect(page.getByRole('alertdialog', { name: 'Are you still there?' })).toBeVisible({ timeout: 15_000 });
        await expectFine(page, 'still there');
        await page.getByRole('button', { name: "I'm still here" }).click();

        await page.getByRole('button', { name: "Confirm What's your first name?" }).click();
        await expectStep(page, 'choose_color');
        await expectFine(page, 'options');

        await page.getByRole('button', { name: 'blue', exact: true }).click();
        await expect(kiosk(page)).toHaveAttribute('data-phase', 'ended');
        await expectFine(page, 'end');
      });
    }

    test('the clinic: a card with a check-in to confirm, and the end after it', async ({ page }) => {
      await openKiosk(page, { flow: 'clinic-checkin' });
      await choose(page, s.larger, s.contrast);
      await page.getByRole('button', { name: 'Start', exact: true }).click();
      await say(page, 'I am Maria Garcia, born 15 March 1990');
      await say(page, 'yes');
      await expectStep(page, 'reason');
      await page.getByRole('button', { name: /^Walk-in visit/ }).click();
      await expectStep(page, 'summary');
      await say(page, 'Please check me in');
      await expect(page.getByRole('region', { name: 'Please confirm' })).toBeVisible();
      await expectFine(page, 'card with an action to confirm');
      await page.getByRole('button', { name: 'Yes, go ahead' }).click();
      await expectStep(page, 'checked_in');
      await expect(page.locator('[data-limit="step"]')).toBeVisible();
      await expectFine(page, 'checked in, its time limit shown');
    });
  });
}

test('colour is never the only sign of a state: waiting, confirmed, an error, a choice, a light', async ({ page }) => {
  // (these tests are type-checked without the DOM's types: the page's own getComputedStyle, as text)
  const style = (selector: string, pseudo: string, property: string) =>
    page.evaluate(`getComputedStyle(document.querySelector(${JSON.stringify(selector)}), ${JSON.stringify(pseudo)}).${property}`) as Promise<string>;
  const mark = (selector: string, pseudo: '::before' | '::after') => style(selector, pseudo, 'content');
  await openKiosk(page, { flow: 'clinic-checkin' });
  await expect(page.getByRole('button', { name: 'High contrast' })).toContainText('☐');
  await page.getByRole('button', { name: 'High contrast' }).click();
  await expect(page.getByRole('button', { name: 'High contrast' })).toContainText('☑');
  expect(await mark('.status-light .dot', '::after')).toMatch(/[✓!✕]/);

  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await say(page, 'My name is Maria Garcia');
  // Waiting: a dashed border and words; confirmed: a tick; an error: a warning sign and words.
  await expect(fieldBlock(page, 'full_name').getByText('Is this right?')).toBeVisible();
  expect(await style('[data-field="full_name"] input', '', 'borderStyle')).toBe('dashed');
  await page.getByRole('button', { name: 'Confirm Full name' }).click();
  await expect(fieldBlock(page, 'full_name')).toHaveAttribute('data-status', 'confirmed');
  expect(await mark('[data-field="full_name"] label', '::after')).toContain('✓');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(fieldBlock(page, 'date_of_birth').getByRole('alert')).toBeVisible();
  expect(await mark('[data-field="date_of_birth"] .notice', '::before')).toContain('⚠');
});
