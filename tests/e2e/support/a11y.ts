// Accessibility checks run on every kiosk screen: axe-core (WCAG 2.1 A and AA), touch targets of
// at least 48×48 CSS px, and form fields whose accessible name is their visible label.
//
// axe runs in the page itself, put there once per document. @axe-core/playwright's analyze()
// injects axe's 550 KB again into every frame and finishes each scan in a page of its own: 1.2 s
// a screen on a quiet machine, against 0.1 to 0.3 s for axe.run in place, and the browser tests
// scan over a hundred screens.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Frame, type Page } from '@playwright/test';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The smallest a control may be, in CSS px, each way. */
export const MIN_TARGET_PX = 48;

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What the page's axe reports of one violation. */
interface Violation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** The parts of the page the in-page checks below use (the tests are typed without the DOM's library). */
interface ControlBox {
  width: number;
  height: number;
}
interface Control {
  outerHTML: string;
  innerText: string;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): ControlBox;
}
interface InPage {
  document: { querySelectorAll(selector: string): Iterable<Control> };
  getComputedStyle(element: Control): { visibility: string };
  axe: { run(context: unknown, options: object): Promise<{ violations: Violation[] }> };
}

/** Puts axe into a frame that has none yet (each frame runs its own, and answers the top one's questions). */
async function withAxe(frame: Frame): Promise<void> {
  const has = await frame.evaluate(() => 'axe' in globalThis).catch(() => true);
  if (!has) await frame.evaluate(AXE_SOURCE);
}

/** Runs axe on the page and its frames; fails listing every serious or critical violation with its elements. */
export async function expectNoSeriousAxeViolations(page: Page, screen: string): Promise<void> {
  for (const frame of page.frames()) await withAxe(frame);
  const violations = await page.evaluate(async (tags) => {
    const { axe, document } = globalThis as unknown as InPage;
    const results = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return results.violations.map(({ id, impact, help, helpUrl, nodes }) => ({ id, impact, help, helpUrl, nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary })) }));
  }, WCAG_TAGS);
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.helpUrl})\n${v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary ?? ''}`).join('\n')}`);
  expect(serious, `axe violations on the ${screen} screen`).toEqual([]);
}

/** Every visible button, input and select is at least 48×48 CSS px (measured in one look at the page). */
export async function expectTouchTargets(page: Page, screen: string): Promise<void> {
  const small = await page.evaluate((min) => {
    const { document, getComputedStyle } = globalThis as unknown as InPage;
    const found: string[] = [];
    for (const c of document.querySelectorAll('button, input, select')) {
      const box = c.getBoundingClientRect();
      // visible as Playwright's :visible means it: a box of some size, and not visibility:hidden
      if (box.width === 0 || box.height === 0 || getComputedStyle(c).visibility === 'hidden') continue;
      if (box.width < min || box.height < min) {
        const name = c.getAttribute('aria-label') ?? c.innerText;
        found.push(`${c.outerHTML.slice(0, 80)} "${name}" is ${box.width}×${box.height}`);
      }
    }
    return found;
  }, MIN_TARGET_PX);
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
