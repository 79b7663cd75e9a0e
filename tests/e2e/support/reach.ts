// Where a finger lands: whether a button is inside the screen and is what a tap at its centre
// hits, read from the page's own geometry (document.elementFromPoint) without any of
// Playwright's scrolling into view, and a tap made at those coordinates.

import { expect, type Locator, type Page } from '@playwright/test';

/** Where a control is, as a finger meets it. */
export interface Reach {
  /** wholly inside the viewport */
  inView: boolean;
  /** the element at its centre is the control itself (or inside it) */
  onTop: boolean;
  x: number;
  y: number;
  /** what a tap at its centre hits instead, when not on top */
  covering: string;
}

/** Reads where `target` is without moving anything. */
export function reachOf(target: Locator): Promise<Reach> {
  return target.evaluate((el) => {
    const doc = el.ownerDocument;
    const view = doc.defaultView!;
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2;
    const y = r.top + r.height / 2;
    const inView = r.width > 0 && r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= view.innerHeight && r.right <= view.innerWidth;
    const hit = doc.elementFromPoint(x, y);
    const onTop = hit !== null && (hit === el || el.contains(hit));
    const name = (e: typeof hit & object) => `${e.tagName.toLowerCase()}${typeof e.className === 'string' && e.className ? `.${e.className.trim().split(/\s+/).join('.')}` : ''} "${(e.textContent ?? '').trim().slice(0, 40)}"`;
    return { inView, onTop, x, y, covering: onTop ? '' : hit ? name(hit) : 'nothing (outside the screen)' };
  });
}

/** Expects `target` to be in view and on top, as the visitor sees it now. */
export async function expectUnderFinger(target: Locator, what: string): Promise<Reach> {
  const reach = await reachOf(target);
  expect(reach.inView && reach.onTop, `${what}: in view ${reach.inView}, on top ${reach.onTop}${reach.covering ? `, covered by ${reach.covering}` : ''}`).toBe(true);
  return reach;
}

/** Taps `target` where a finger would, after checking that a finger can reach it. */
export async function tapWithFinger(page: Page, target: Locator, what: string): Promise<void> {
  const { x, y } = await expectUnderFinger(target, what);
  await page.mouse.click(x, y);
}
