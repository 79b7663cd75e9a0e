// The touch tests' `test`: Playwright's, except that a worker keeps its kiosk tab from one test to
// the next, as a kiosk does from one visitor to the next, instead of opening a fresh browser
// context for every test. A fresh context and page cost about 1.3 CPU-seconds before the kiosk
// has shown its first screen; the kept tab, with its cache and compiled scripts, about half that.
//
// Between two tests the tab is left (about:blank), everything the kiosk's origin stored is cleared
// (IndexedDB, localStorage, sessionStorage, caches, service workers, cookies), and what the test
// set on the tab or its context is undone (routes, permissions, offline, listeners); each test
// sets the viewport and emulated media it asks for. A worker keeps a tab for each kind of context
// its tests ask for (with touch or without, a locale, a time zone, permissions), the two it used
// last. A test is given a fresh context instead, and its own is closed after it, when it asks for
// context options a kept tab cannot take (a service worker allowed, a phone's), and its tab is not
// kept when it failed, opened another page, or changed what cannot be undone (Playwright's clock,
// an init script, an exposed function, extra headers).

import { test as base, type BrowserContext, type BrowserContextOptions, type CDPSession, type Page } from '@playwright/test';

export { expect } from '@playwright/test';

interface Kept {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  /** the context options it was made with that a test may set otherwise (touch, a locale, a time zone, permissions) */
  made: string;
  /** the permissions it was made with, granted again after a test's are cleared */
  permissions: string[];
}

/** What a test did to its tab that cannot be undone: the tab is closed after it. */
const MARKS_THE_TAB: readonly [object: 'page' | 'context' | 'clock', method: string][] = [
  ['clock', 'install'],
  ['page', 'addInitScript'],
  ['context', 'addInitScript'],
  ['page', 'exposeFunction'],
  ['page', 'exposeBinding'],
  ['context', 'exposeFunction'],
  ['context', 'exposeBinding'],
  ['page', 'setExtraHTTPHeaders'],
  ['context', 'setExtraHTTPHeaders'],
];

/** The page events a test may listen to; the listeners it added go with it. */
const TEST_EVENTS = ['console', 'pageerror', 'request', 'requestfinished', 'requestfailed', 'response', 'dialog', 'popup', 'framenavigated', 'load', 'domcontentloaded', 'websocket', 'worker'] as const;

/** The most tabs a worker keeps, the ones it used last. */
const KEPT_TABS = 2;

export const test = base.extend<object, { kept: { tabs: Map<string, Kept> } }>({
  kept: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const kept = { tabs: new Map<string, Kept>() };
      await use(kept);
      for (const tab of kept.tabs.values()) await tab.context.close();
    },
    { scope: 'worker' },
  ],

  context: async ({ browser, kept, baseURL, viewport, serviceWorkers, hasTouch, isMobile, locale, colorScheme, reducedMotion, permissions, timezoneId }, use) => {
    const options: BrowserContextOptions = { viewport, serviceWorkers, hasTouch, isMobile, colorScheme, reducedMotion };
    if (baseURL) options.baseURL = baseURL;
    if (locale) options.locale = locale;
    if (permissions) options.permissions = permissions;
    if (timezoneId) options.timezoneId = timezoneId;
    const keepable = serviceWorkers === 'block' && !isMobile;
    if (!keepable) {
      const own = await browser.newContext(options);
      await use(own);
      await own.close();
      return;
    }
    const made = JSON.stringify([hasTouch, locale, permissions, timezoneId]);
    let tab = kept.tabs.get(made);
    if (tab) kept.tabs.delete(made); // put back below as the last used
    else {
      const context = await browser.newContext(options);
      const page = await context.newPage();
      tab = { context, page, cdp: await context.newCDPSession(page), made, permissions: permissions ?? [] };
    }
    kept.tabs.set(made, tab);
    for (const [key, old] of kept.tabs) {
      if (kept.tabs.size <= KEPT_TABS) break;
      kept.tabs.delete(key);
      await old.context.close();
    }
    await use(tab.context);
  },

  page: async ({ context, kept, viewport, baseURL, colorScheme, reducedMotion }, use, testInfo) => {
    const tab = [...kept.tabs.values()].find((t) => t.context === context) ?? null;
    if (!tab) {
      await use(await context.newPage());
      return;
    }
    const { page } = tab;
    if (viewport) await page.setViewportSize(viewport);
    // The media this test asks for, whatever the one before it emulated.
    await page.emulateMedia({ media: null, forcedColors: null, colorScheme, reducedMotion });
    let marked = false;
    const events = page as unknown as NodeJS.EventEmitter;
    const listening = new Map(TEST_EVENTS.map((event) => [event, new Set(events.listeners(event))]));
    const undo: (() => void)[] = [];
    for (const [name, method] of MARKS_THE_TAB) {
      const target = (name === 'page' ? page : name === 'context' ? context : page.clock) as unknown as Record<string, (...args: unknown[]) => unknown>;
      const original = target[method]!;
      target[method] = (...args: unknown[]) => {
        marked = true;
        return original.apply(target, args);
      };
      undo.push(() => delete target[method]);
    }
    try {
      await use(page);
    } finally {
      for (const u of undo) u();
    }
    for (const [event, before] of listening) for (const listener of events.listeners(event)) if (!before.has(listener)) events.off(event, listener as () => void);
    const keep = !marked && testInfo.status === testInfo.expectedStatus && context.pages().length === 1 && !page.isClosed() && (await tidy(tab, baseURL));
    if (!keep) {
      kept.tabs.delete(tab.made);
      await context.close();
    }
  },
});

/** Readies the kept tab for the next test; false when it could not be. */
async function tidy({ context, page, cdp, permissions }: Kept, baseURL: string | undefined): Promise<boolean> {
  const origin = baseURL ? new URL(baseURL).origin : null;
  try {
    if (origin && new URL(page.url()).origin === origin) await page.evaluate(() => (globalThis as unknown as { sessionStorage: { clear(): void } }).sessionStorage.clear());
    await page.goto('about:blank');
    await Promise.all([page.unrouteAll({ behavior: 'ignoreErrors' }), context.unrouteAll({ behavior: 'ignoreErrors' })]);
    await context.clearPermissions();
    if (permissions.length) await context.grantPermissions(permissions);
    await context.clearCookies();
    await context.setOffline(false);
    if (origin) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
    return true;
  } catch {
    return false;
  }
}
