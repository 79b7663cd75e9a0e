// Time limits under test: Playwright's clock installed before the kiosk opens, held once the visit
// has started and its first words are said, and moved on by the test a stretch at a time, each
// once the page has had every speech answer it asked for.

import { expect, type Locator, type Page } from '@playwright/test';
import type { Guided } from './guided.ts';
import { kiosk, screenWhen } from './kiosk.ts';

/** Playwright's clock, installed before the page opens (GuidedOptions.prepare); time flows until `startQuiet` holds it. */
export const fakeClock = (p: Page) => p.clock.install();

/** Taps Start on the idle screen: the visit runs. */
export async function start(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(kiosk(page)).toHaveAttribute('data-phase', 'running');
}

/**
 * Starts a visit, lets the kiosk say its first words (a speech request in flight when the clock
 * jumps ahead would time out on it), then holds the clock: from then on time passes only when the
 * test says. Returns the ms that had passed since the visit started, read on the page's clock the
 * moment its screen said so: the test itself sees that a poll later (up to a second on a busy
 * machine), and the tap comes earlier than the start by the flow's load; limits counted from
 * either would be met early or late. (Playwright's clock stands in for the page's performance
 * too: no vk:* marks to wait on.)
 */
export async function startQuiet(guided: Guided): Promise<number> {
  const { page } = guided;
  const now = () => page.evaluate('Date.now()') as Promise<number>;
  const running = screenWhen(page, 'data-phase', 'running');
  await start(page);
  const started = (await running).at;
  // Said and over: the light says the kiosk neither speaks nor is about to (it has no microphone).
  await expect.poll(guided.said).not.toEqual([]);
  await expect(page.locator('.voice-light')).toHaveAttribute('data-voice', 'no-microphone');
  // (held a little ahead of now: the clock runs on while the test asks)
  const at = (await now()) + 3_000;
  await page.clock.pauseAt(at);
  return at - started;
}

/**
 * Lets `ms` pass on the held clock, 10 s at a time, each once the page has had every speech answer
 * it asked for: a jump over a request still coming would time it out (15 s), and the kiosk would
 * fall back to captions.
 */
export async function pass(guided: Guided, ms: number): Promise<void> {
  for (let left = ms; left > 0; left -= 10_000) {
    await expect.poll(guided.speaking).toBe(0);
    await guided.page.clock.runFor(Math.min(10_000, left));
  }
}

/**
 * Moves the held clock on 100 ms at a time until `shown` is on screen (at most `within` ms): for a
 * limit whose start the test knows only roughly (one counted from the visitor's last touch), so
 * that what the screen says next is read a tenth of a second after it appeared.
 */
export async function passUntilShown(guided: Guided, shown: Locator, within: number): Promise<void> {
  for (let passed = 0; !(await shown.isVisible()); passed += 100) {
    if (passed >= within) throw new Error(`not on screen after ${within} ms more of the held clock: ${shown.toString()}`);
    await guided.page.clock.runFor(100);
  }
}
