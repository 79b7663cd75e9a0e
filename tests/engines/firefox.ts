// Firefox for the engine lanes: Debian's Firefox ESR, launched and driven by puppeteer-core over
// WebDriver BiDi (no geckodriver: Debian has none, and Firefox speaks BiDi itself). Its fake
// media streams stand in for a microphone the visitor allowed.

import puppeteer, { type Browser, type ElementHandle, type KeyInput, type Page } from 'puppeteer-core';
import { FIND_CONTROL, type EnginePage, type Key, type Target } from './engine.ts';

export const FIREFOX = '/usr/bin/firefox-esr';

/**
 * Puppeteer's names for the keys the tests press. Enter is WebDriver's Return key (U+E006):
 * puppeteer sends its "Enter" as U+E007, the keypad's Enter, which Firefox types as a character
 * (a keypress with a charCode) that activates no button.
 */
const KEYS: Record<Key, KeyInput> = {
  Enter: '\uE006' as KeyInput,
  Tab: 'Tab',
  Space: ' ',
  Escape: 'Escape',
  ArrowDown: 'ArrowDown',
  ArrowUp: 'ArrowUp',
  Backspace: 'Backspace',
};

export interface FirefoxOptions {
  viewport: { width: number; height: number };
  /** the environment Firefox runs in (where it finds, or does not find, a sound server) */
  env?: NodeJS.ProcessEnv;
}

/** Launches a headless Firefox ESR of its own (a fresh profile) and opens one page. */
export async function openFirefox(options: FirefoxOptions): Promise<EnginePage> {
  const browser: Browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: !options.env?.['DISPLAY'],
    env: options.env ?? process.env,
    extraPrefsFirefox: {
      // A microphone the visitor allowed: Firefox's fake device, with no prompt.
      'media.navigator.permission.disabled': true,
      'media.navigator.streams.fake': true,
      // A headless Firefox's window never has the system's focus: without this, keys reach no one.
      'focusmanager.testmode': true,
    },
  });
  try {
    const page: Page = (await browser.pages())[0] ?? (await browser.newPage());
    await page.setViewport(options.viewport);
    return firefoxPage(browser, page);
  } catch (error) {
    await browser.close();
    throw error;
  }
}

function firefoxPage(browser: Browser, page: Page): EnginePage {
  const element = async (target: Target): Promise<ElementHandle> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const handle = await page.evaluateHandle(`(${FIND_CONTROL})(${JSON.stringify(target)})`);
      const el = handle.asElement() as ElementHandle | null;
      if (el) return el;
      await handle.dispose();
      if (Date.now() > deadline) throw new Error(`firefox: no control ${JSON.stringify(target)} on the page`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return {
    engine: 'firefox',
    goto: async (url) => void (await page.goto(url)),
    reload: async () => void (await page.reload()),
    evaluate: (fn, arg) => page.evaluate(`(${fn})(${JSON.stringify(arg)})`) as never,
    run: (script) => page.evaluate(script),
    tap: async (target) => {
      const el = await element(target);
      await el.click();
      await el.dispose();
    },
    hold: async (target, released) => {
      const el = await element(target);
      const box = await el.boundingBox();
      await el.dispose();
      if (!box) throw new Error(`firefox: ${JSON.stringify(target)} is not on screen`);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      try {
        await released();
      } finally {
        await page.mouse.up();
      }
    },
    type: async (target, text) => {
      const el = await element(target);
      await el.click();
      await el.evaluate((e: unknown) => {
        try {
          (e as { select(): void }).select();
        } catch {
          // a date box selects nothing
        }
      });
      if (text === '') await page.keyboard.press(KEYS.Backspace);
      else await page.keyboard.type(text);
      await el.dispose();
    },
    choose: async (target, option) => {
      const el = await element(target);
      const value = await el.evaluate((e: unknown, label: string) => Array.from((e as { options: ArrayLike<{ label: string; value: string }> }).options).find((o) => o.label === label)?.value ?? null, option);
      if (value === null) throw new Error(`firefox: ${JSON.stringify(target)} has no option ${option}`);
      await el.select(value);
      await el.dispose();
    },
    press: (key) => page.keyboard.press(KEYS[key]),
    keys: (text) => page.keyboard.type(text),
    screenshot: async () => Buffer.from(await page.screenshot()),
    close: () => browser.close(),
  };
}
