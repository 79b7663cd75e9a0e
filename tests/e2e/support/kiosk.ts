// Driving the kiosk page in tests: open it with a flow and settings, speak by typing, read the
// step it is on, and reach a control with the keyboard alone.

import { expect, type Locator, type Page } from '@playwright/test';

/** Query-string settings the kiosk reads (see src/ui/kiosk.svelte.ts settingsFrom). */
export interface KioskParams {
  flow?: string;
  end_seconds?: number;
  idle_seconds?: number;
  idle_grace_seconds?: number;
}

/** The kiosk's root element: `data-phase` and `data-flow-state` say where it is. */
export function kiosk(page: Page): Locator {
  return page.locator('.kiosk');
}

/** Opens the kiosk and waits for the idle screen of the flow. */
export async function openKiosk(page: Page, params: KioskParams = {}): Promise<void> {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
  await page.goto(`/?${query}`);
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'idle');
}

/** Opens the kiosk and taps Start: the flow's first step is on screen. */
export async function startVisit(page: Page, params: KioskParams = {}): Promise<void> {
  await openKiosk(page, params);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'running');
}

/** Types an answer into "Type your answer" and sends it with Enter, as a visitor would. */
export async function say(page: Page, text: string): Promise<void> {
  const box = page.getByLabel('Type your answer', { exact: true });
  await box.fill(text);
  await box.press('Enter');
  await expect(box).toHaveValue('');
}

/** Waits until the flow is in `state` and its screen has settled (its buttons take taps). */
export async function expectStep(page: Page, state: string): Promise<void> {
  await expect(kiosk(page)).toHaveAttribute('data-flow-state', state);
  await settled(page);
}

/**
 * Waits until the screen's buttons take taps: for a moment after a screen changes they are held,
 * so that the second tap of a double tap cannot act on the new screen (a person needs longer
 * than that to read it; a test does not).
 */
export async function settled(page: Page): Promise<void> {
  await expect(kiosk(page)).toHaveAttribute('data-settling', 'false');
}

/**
 * Two taps on the same spot, `gapMs` apart, as a visitor's double tap: the gap is the input being
 * played, not a wait for something to happen.
 */
export async function doubleTap(page: Page, target: Locator, gapMs = 200): Promise<void> {
  const box = (await target.boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.click(x, y);
  await page.waitForTimeout(gapMs);
  await page.mouse.click(x, y);
}

/** The card of the action waiting for the visitor's yes. */
export function pendingCard(page: Page): Locator {
  return page.getByRole('region', { name: 'Please confirm' });
}

/** The clinic's summary step: "Check me in", then yes on the check-in card once it may be tapped. */
export async function checkIn(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Check me in' }).click();
  await settled(page);
  await pendingCard(page).getByRole('button', { name: 'Yes, go ahead' }).click();
}

/** The captions log (what the visitor and the kiosk said). */
export function captions(page: Page): Locator {
  return page.getByRole('log');
}

/** The caption lines the kiosk spoke. */
export function agentLines(page: Page): Locator {
  return captions(page).locator('li.agent');
}

/** The caption lines of what the visitor said or typed. */
export function visitorLines(page: Page): Locator {
  return captions(page).locator('li.visitor');
}

/** A form field's block (label, input, pending controls, notice) by its variable. */
export function fieldBlock(page: Page, variable: string): Locator {
  return page.locator(`[data-field="${variable}"]`);
}

/** The text, email or date box whose accessible name is exactly `label` (its visible label). */
export function input(page: Page, label: string): Locator {
  return page.getByRole('textbox', { name: label, exact: true });
}

/** Presses Tab until `target` has the focus; fails after `maxTabs` presses. */
export async function tabTo(page: Page, target: Locator, maxTabs = 12): Promise<void> {
  await settled(page);
  for (let i = 0; i < maxTabs; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === el.ownerDocument.activeElement)) return;
  }
  throw new Error(`${String(target)} was not reached with ${maxTabs} presses of Tab`);
}
