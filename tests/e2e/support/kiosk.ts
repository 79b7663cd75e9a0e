// Driving the kiosk page in tests: open it with a flow and settings, speak by typing, read the
// step it is on, and reach a control with the keyboard alone.

import { expect, type CDPSession, type Locator, type Page } from '@playwright/test';

/** Query-string settings the kiosk reads (see src/ui/kiosk.svelte.ts settingsFrom). */
export interface KioskParams {
  flow?: string;
  end_seconds?: number;
  idle_seconds?: number;
  idle_grace_seconds?: number;
  /** where the visitor's controls sit (the operator's layout) */
  layout?: 'standard' | 'lower';
}

/**
 * The browser globals the page functions of these tests read: the tests are typed for Node,
 * without the DOM library. Those functions are passed as functions, never as text: Playwright
 * evaluates a text again at every poll of `waitForFunction`, which the kiosk's
 * Content-Security-Policy (no eval) refuses, while a function is made once and then only called.
 */
export interface InPage {
  document: {
    querySelector(selector: string): { getAttribute(name: string): string | null } | null;
    fullscreenElement: unknown;
    documentElement: unknown;
  };
  MutationObserver: new (changed: () => void) => { observe(target: unknown, options: object): void; disconnect(): void };
  navigator: { serviceWorker: { controller: unknown } };
}

/** Waits until a service worker controls the page (the first visit's worker claims it on activation). */
export async function serviceWorkerControls(page: Page, timeout = 20_000): Promise<void> {
  await page.waitForFunction(() => (globalThis as unknown as InPage).navigator.serviceWorker.controller !== null, undefined, { timeout });
}

/** The kiosk's root element: `data-phase` and `data-flow-state` say where it is. */
export function kiosk(page: Page): Locator {
  return page.locator('.kiosk');
}

/** Opens the kiosk and waits for the idle screen of the flow. */
export async function openKiosk(page: Page, params: KioskParams = {}): Promise<void> {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]));
  await page.goto(`/?${query}`);
  await kioskSays(page, 'data-phase', 'idle');
}

/** Opens the kiosk and taps Start: the flow's first step is on screen. */
export async function startVisit(page: Page, params: KioskParams = {}): Promise<void> {
  await openKiosk(page, params);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await kioskSays(page, 'data-phase', 'running');
}

/** Types an answer into "Type your answer" and sends it with Enter, as a visitor would. */
export async function say(page: Page, text: string): Promise<void> {
  const box = page.getByLabel('Type your answer', { exact: true });
  await box.fill(text);
  await box.press('Enter');
  await expect(box).toHaveValue('');
}

/**
 * Waits until the kiosk's root element says `name="value"`, told by the page itself the moment it
 * changes (a MutationObserver). An expectation polls at growing intervals and sees a change up to
 * 0.5 s late; a wait on every frame keeps the browser drawing all the while, which on a two-core
 * machine running three browsers costs the other tests their CPU. A page that navigates meanwhile
 * is watched again in its new document. A timeout fails with the expectation's own message.
 */
export async function kioskSays(page: Page, name: string, value: string, timeout = 7_000): Promise<void> {
  const deadline = Date.now() + timeout;
  for (let left = timeout; left > 0; left = deadline - Date.now()) {
    try {
      if (await page.evaluate(attributeBecomes, { name, value, ms: left })) return;
      break;
    } catch (error) {
      if (page.isClosed() || !/context was destroyed|navigat/i.test(String(error))) throw error;
    }
  }
  await expect(kiosk(page)).toHaveAttribute(name, value, { timeout: 1 });
}

/** In the page: resolves true once `.kiosk` has `name="value"`, false after `ms`. */
function attributeBecomes({ name, value, ms }: { name: string; value: string; ms: number }): boolean | Promise<boolean> {
  const { document, MutationObserver } = globalThis as unknown as InPage;
  const holds = () => document.querySelector('.kiosk')?.getAttribute(name) === value;
  if (holds()) return true;
  return new Promise<boolean>((resolve) => {
    const finish = (ok: boolean) => {
      observer.disconnect();
      clearTimeout(timer);
      resolve(ok);
    };
    const observer = new MutationObserver(() => holds() && finish(true));
    const timer = setTimeout(() => finish(false), ms);
    observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: [name] });
  });
}

/** What a screen showed at the moment the kiosk reached it. */
export interface ScreenAtOnce {
  /** the page's text */
  text: string;
  /** the kiosk root's attributes (data-phase, data-update, …) */
  attributes: Record<string, string>;
  /** whether a service worker was waiting to take over */
  waitingWorker: boolean;
  /** when, on the page's clock (Date.now, faked or not) */
  at: number;
}

/**
 * Watches, in the page, for `.kiosk` to say `name="value"`, and resolves with what the screen
 * showed at that moment. For a screen that lasts less than a busy machine may take to look at it
 * (an end screen of 1 s): call it before the tap that leads there, and await it after.
 */
export function screenWhen(page: Page, name: string, value: string, timeout = 7_000): Promise<ScreenAtOnce> {
  return page.evaluate(
    ({ name, value, timeout }) => {
      type Root = { getAttribute(n: string): string | null; attributes: ArrayLike<{ name: string; value: string }> };
      const { document, MutationObserver, navigator } = globalThis as unknown as Pick<InPage, 'MutationObserver'> & {
        document: { querySelector(s: string): Root | null; body: { innerText: string }; documentElement: unknown };
        navigator: { serviceWorker: { getRegistration(): Promise<{ waiting: unknown } | undefined> } };
      };
      return new Promise<ScreenAtOnce>((resolve, reject) => {
        const look = () => {
          const root = document.querySelector('.kiosk');
          if (root?.getAttribute(name) !== value) return;
          const at = Date.now();
          observer.disconnect();
          clearTimeout(timer);
          const text = document.body.innerText;
          const attributes = Object.fromEntries(Array.from(root.attributes, (a) => [a.name, a.value]));
          void navigator.serviceWorker.getRegistration().then((r) => resolve({ text, attributes, waitingWorker: Boolean(r?.waiting), at }), reject);
        };
        const observer = new MutationObserver(look);
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error(`.kiosk did not say ${name}="${value}" within ${timeout} ms`));
        }, timeout);
        observer.observe(document.documentElement, { subtree: true, attributes: true, attributeFilter: [name] });
        look();
      });
    },
    { name, value, timeout },
  );
}

/** Waits until the flow is in `state` and its screen has settled (its buttons take taps). */
export async function expectStep(page: Page, state: string): Promise<void> {
  await kioskSays(page, 'data-flow-state', state);
  await settled(page);
}

/**
 * Waits until the screen's buttons take taps: for a moment after a screen changes they are held,
 * so that the second tap of a double tap cannot act on the new screen (a person needs longer
 * than that to read it; a test does not).
 */
export async function settled(page: Page): Promise<void> {
  await kioskSays(page, 'data-settling', 'false');
}

/** The centre of `target` on the page, where a finger would tap it. */
async function centreOf(target: Locator): Promise<{ x: number; y: number }> {
  const box = (await target.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** One tap at a spot, stamped with when the finger touched (seconds since the epoch), as a tablet reports it. */
async function tapSpot(cdp: CDPSession, spot: { x: number; y: number }, at: number): Promise<void> {
  for (const type of ['mousePressed', 'mouseReleased'] as const) {
    await cdp.send('Input.dispatchMouseEvent', { type, ...spot, button: 'left', clickCount: 1, timestamp: at });
  }
}

/** A tap on `target` that the finger made at `at` (seconds since the epoch): the page judges a tap by that time, whenever it gets to it. */
export async function tapAt(page: Page, target: Locator, at: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await tapSpot(cdp, await centreOf(target), at);
  await cdp.detach();
}

/**
 * Two taps on the same spot, `gapMs` apart, as a visitor's double tap: the gap is the input being
 * played, not a wait for something to happen. Each tap carries the time the finger touched, so a
 * busy machine that hands the second tap over late does not stretch the gap the page sees.
 */
export async function doubleTap(page: Page, target: Locator, gapMs = 200): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const spot = await centreOf(target);
  const first = Date.now() / 1000;
  await tapSpot(cdp, spot, first);
  await page.waitForTimeout(gapMs);
  await tapSpot(cdp, spot, first + gapMs / 1000);
  await cdp.detach();
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

/** What the kiosk said last, without its tag ("Kiosk:" in the visit's language). */
export function lastSaid(page: Page): Locator {
  return agentLines(page).last().locator('.said');
}

/** The caption lines of what the visitor said or typed. */
export function visitorLines(page: Page): Locator {
  return captions(page).locator('li.visitor');
}

/**
 * An init script that keeps the visitor's caption lines as last shown: the end screen shows no
 * captions (nothing personal is left for the next person), so a test that checks at the end what
 * was heard reads this record (`expectVisitorSaid`) instead of the screen.
 */
export const RECORD_VISITOR_LINES = `(() => {
  let lines = [];
  let last = [];
  window.__visitorSaid = () => lines;
  const text = (li) => (li.textContent ?? '').replace(/\\s+/g, ' ').trim();
  new MutationObserver((records) => {
    const shown = [...document.querySelectorAll('.captions li.visitor')];
    if (shown.length > 0) {
      last = shown;
      lines = shown.map(text);
      return;
    }
    // The captions are gone (the end screen): the lines last shown as they ended (a line taken
    // away keeps its last words), and one added in the same task by the answer that ended the visit.
    let kept = [...last];
    for (const r of records) {
      for (const node of r.addedNodes) {
        if (node.nodeType !== 1) continue;
        if (node.matches('li.visitor')) {
          if (!kept.includes(node)) kept.push(node);
          continue;
        }
        const held = [...node.querySelectorAll('li.visitor')];
        if (held.length > kept.length) kept = held;
      }
    }
    last = kept;
    lines = kept.map(text).filter(Boolean);
  }).observe(document, { subtree: true, childList: true, characterData: true });
})();`;

/** The visitor's caption lines as last shown (RECORD_VISITOR_LINES must be installed), or null. */
export function visitorSaid(page: Page): Promise<string[] | null> {
  return page.evaluate(() => (globalThis as unknown as { __visitorSaid?: () => string[] }).__visitorSaid?.() ?? null);
}

/**
 * Every line the visitor was captioned saying, as last shown (RECORD_VISITOR_LINES must be
 * installed). Once the visit has ended, the answer that ended it may have taken the captions away
 * before its own line was drawn: then all lines but that last one.
 */
export async function expectVisitorSaid(page: Page, lines: readonly string[]): Promise<void> {
  const ended = (await kiosk(page).getAttribute('data-phase')) === 'ended';
  const allowed = ended ? [lines, lines.slice(0, -1)] : [lines];
  await expect.poll(async () => {
    const said = await visitorSaid(page);
    return allowed.some((a) => JSON.stringify(a) === JSON.stringify(said)) ? 'as said' : said;
  }).toBe('as said');
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
