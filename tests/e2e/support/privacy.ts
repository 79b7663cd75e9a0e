// "Is anything personal left?": after a wipe, the visitor's words must be gone from the page's
// text, its markup, every input, the browser's storage, and what the JavaScript engine keeps of
// the last regular-expression match (RegExp.input, lastMatch, $1...).

import { expect, type Page } from '@playwright/test';

/** What the page still holds that a visitor could have left behind. */
interface Traces {
  text: string;
  markup: string;
  inputValues: string[];
  storedItems: number;
  /** the legacy RegExp statics: the input and parts of the last successful match in the page */
  regexpStatics: string;
}

async function traces(page: Page): Promise<Traces> {
  // First, before anything else runs a regular expression in the page.
  const regexpStatics = await page.evaluate<string>(
    `[RegExp.input, RegExp.lastMatch, RegExp.leftContext, RegExp.rightContext, RegExp.lastParen, RegExp.$1, RegExp.$2, RegExp.$3].join('\\n')`,
  );
  const fields = page.locator('input, select, textarea');
  const inputValues = await Promise.all((await fields.all()).map((f) => f.inputValue()));
  return {
    text: await page.evaluate<string>('document.body.innerText'),
    markup: await page.evaluate<string>('document.documentElement.outerHTML'),
    inputValues,
    storedItems: await page.evaluate<number>('localStorage.length + sessionStorage.length'),
    regexpStatics,
  };
}

/** Asserts none of `personal` (names, emails...) is anywhere on the page, and storage is empty. */
export async function expectNothingPersonalLeft(page: Page, personal: readonly string[]): Promise<void> {
  const left = await traces(page);
  for (const secret of personal) {
    const s = secret.toLowerCase();
    expect(left.text.toLowerCase(), `"${secret}" is still in the page's text`).not.toContain(s);
    expect(left.markup.toLowerCase(), `"${secret}" is still in the page's markup`).not.toContain(s);
    expect(left.inputValues.filter((v) => v.toLowerCase().includes(s)), `"${secret}" is still in an input`).toEqual([]);
    expect(left.regexpStatics.toLowerCase(), `"${secret}" is still in RegExp.input or lastMatch`).not.toContain(s);
  }
  expect(left.storedItems, 'localStorage and sessionStorage are empty').toBe(0);
}

/** Puts a visitor's value in both storages, as a careless component might, so a wipe must clear it. */
export async function leaveInStorage(page: Page, value: string): Promise<void> {
  await page.evaluate(`localStorage.setItem('draft', ${JSON.stringify(value)}); sessionStorage.setItem('draft', ${JSON.stringify(value)});`);
  expect(await page.evaluate<number>('localStorage.length + sessionStorage.length')).toBe(2);
}
