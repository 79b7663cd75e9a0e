// Accessibility checks run on every kiosk screen: axe-core (WCAG 2.1 A and AA), touch targets of
// at least 48×48 CSS px, and form fields whose accessible name is their visible label.

import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The smallest a control may be, in CSS px, each way. */
export const MIN_TARGET_PX = 48;

/** Runs axe on the page; fails listing every serious or critical violation with its elements. */
export async function expectNoSeriousAxeViolations(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.helpUrl})\n${v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary ?? ''}`).join('\n')}`);
  expect(serious, `axe violations on the ${screen} screen`).toEqual([]);
}

/** Every visible button, input and select is at least 48×48 CSS px. */
export async function expectTouchTargets(page: Page, screen: string): Promise<void> {
  const controls = await page.locator('button:visible, input:visible, select:visible').all();
  const small: string[] = [];
  for (const c of controls) {
    const box = await c.boundingBox();
    if (!box || box.width < MIN_TARGET_PX || box.height < MIN_TARGET_PX) {
      const name = (await c.getAttribute('aria-label')) ?? (await c.innerText());
      small.push(`${await c.evaluate((el) => el.outerHTML.slice(0, 80))} "${name}" is ${box ? `${box.width}×${box.height}` : 'not laid out'}`);
    }
  }
  expect(small, `controls smaller than ${MIN_TARGET_PX}×${MIN_TARGET_PX} px on the ${screen} screen`).toEqual([]);
}

/**
 * Every visible input and select has a <label for> whose visible text (decorations such as the
 * required star are aria-hidden) is the control's accessible name.
 */
export async function expectLabelledFields(page: Page, screen: string): Promise<void> {
  const fields = await page.locator('input:visible, select:visible').all();
  for (const f of fields) {
    const id = await f.getAttribute('id');
    expect(id, `a field on the ${screen} screen has an id for its label`).toBeTruthy();
    const label = page.locator(`label[for="${id}"]`);
    await expect(label, `the label of #${id}`).toHaveCount(1);
    const text = await label.evaluate((l) => {
      const visible = l.cloneNode(true) as typeof l;
      for (const hidden of visible.querySelectorAll('[aria-hidden="true"], input, select')) hidden.remove();
      return (visible.textContent ?? '').replace(/\s+/g, ' ').trim();
    });
    expect(text, `#${id} has a visible label`).not.toBe('');
    await expect(f, `#${id} is named by its label`).toHaveAccessibleName(text);
  }
}

/** All three checks for one screen. */
export async function expectAccessibleScreen(page: Page, screen: string): Promise<void> {
  await expectNoSeriousAxeViolations(page, screen);
  await expectTouchTargets(page, screen);
  await expectLabelledFields(page, screen);
}
