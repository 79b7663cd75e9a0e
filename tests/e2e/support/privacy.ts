// "Is anything personal left?": after a wipe, the visitor's words must be gone from the page's
// text, its markup, every input, the browser's storage, and what the JavaScript engine keeps of
// the last regular-expression match (RegExp.input, lastMatch, $1...).

import { expect, type Page } from '@playwright/test';

/** What the page still holds that a visitor could have left behind. */
interface Traces {
  text: string;
  markup: string;
  inputValues: string[];
  /** the keys in localStorage and sessionStorage, and every key and value as one text */
  storedKeys: string[];
  storedText: string;
  /** the kiosk's data-phase */
  phase: string | null;
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
    storedKeys: await page.evaluate<string[]>('[...Object.keys(localStorage), ...Object.keys(sessionStorage)]'),
    storedText: await page.evaluate<string>(
      '[localStorage, sessionStorage].flatMap((s) => Object.keys(s).flatMap((k) => [k, s.getItem(k)])).join("\\n")',
    ),
    phase: await page.locator('.kiosk').getAttribute('data-phase'),
    regexpStatics,
  };
}

/**
 * Asserts none of `personal` (names, emails...) is anywhere on the page or in its storage, and
 * that storage holds nothing but, during a visit, the kiosk's own copy of it (for a resume).
 */
export async function expectNothingPersonalLeft(page: Page, personal: readonly string[]): Promise<void> {
  const left = await traces(page);
  for (const secret of personal) {
    const s = secret.toLowerCase();
    expect(left.text.toLowerCase(), `"${secret}" is still in the page's text`).not.toContain(s);
    expect(left.markup.toLowerCase(), `"${secret}" is still in the page's markup`).not.toContain(s);
    expect(left.inputValues.filter((v) => v.toLowerCase().includes(s)), `"${secret}" is still in an input`).toEqual([]);
    expect(left.regexpStatics.toLowerCase(), `"${secret}" is still in RegExp.input or lastMatch`).not.toContain(s);
    expect(left.storedText.toLowerCase(), `"${secret}" is still in localStorage or sessionStorage`).not.toContain(s);
  }
  // The operator's device settings are the kiosk's setup, never a visitor's (their values were
  // searched above with the rest); the kept visit exists only while a visit runs.
  const allowed = ['kiosk-device-settings', ...(left.phase === 'running' ? ['kiosk-visit'] : [])];
  expect(left.storedKeys.filter((k) => !allowed.includes(k)), 'localStorage and sessionStorage hold nothing else').toEqual([]);
}

/** Puts a visitor's value in both storages, as a careless component might, so a wipe must clear it. */
export async function leaveInStorage(page: Page, value: string): Promise<void> {
  await page.evaluate(`localStorage.setItem('draft', ${JSON.stringify(value)}); sessionStorage.setItem('draft', ${JSON.stringify(value)});`);
  expect(await page.evaluate<(string | null)[]>(`[localStorage.getItem('draft'), sessionStorage.getItem('draft')]`)).toEqual([value, value]);
}

/**
 * Leaves `value` in every store the browser gives a page, as careless code might: both storages,
 * an IndexedDB database, a cache of its own, and an /api/ answer inside the service worker's own
 * cache (which must be in control). A wipe must take all of it.
 */
export async function leaveEverywhere(page: Page, value: string): Promise<void> {
  const v = JSON.stringify(value);
  await page.evaluate(`(async () => {
    localStorage.setItem('draft', ${v});
    sessionStorage.setItem('draft', ${v});
    await new Promise((resolve, reject) => {
      const open = indexedDB.open('careless', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('drafts');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const tx = open.result.transaction('drafts', 'readwrite');
        tx.objectStore('drafts').put({ said: ${v} }, 'visitor');
        tx.oncomplete = () => { open.result.close(); resolve(); };
        tx.onerror = () => reject(tx.error);
      };
    });
    const own = await caches.open('careless');
    await own.put('/careless?about=' + encodeURIComponent(${v}), new Response(${v}));
    const precache = (await caches.keys()).find((name) => name.startsWith('workbox-precache'));
    if (!precache) throw new Error('the service worker has no precache yet');
    await (await caches.open(precache)).put('/api/tts?input=' + encodeURIComponent(${v}), new Response(${v}));
  })()`);
}

/**
 * Where any of `values` is found, case-insensitively: every localStorage and sessionStorage key
 * and value, every IndexedDB database and object store (keys and records), every cache's request
 * URLs (as written and decoded) and response bodies, the service worker's included, and the page's
 * visible text, markup (attributes included) and form values. An empty list: nowhere.
 */
export function findInStores(page: Page, values: readonly string[]): Promise<string[]> {
  return page.evaluate<string[]>(`(async () => {
    const wanted = ${JSON.stringify(values.map((x) => x.toLowerCase()))};
    const found = [];
    const look = (where, text) => {
      const t = String(text).toLowerCase();
      for (const w of wanted) if (t.includes(w)) found.push(where + ': ' + w);
    };
    for (const [name, storage] of [['localStorage', localStorage], ['sessionStorage', sessionStorage]]) {
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i);
        look(name + ' key ' + key, key);
        look(name + ' ' + key, storage.getItem(key));
      }
    }
    for (const info of await indexedDB.databases()) {
      look('IndexedDB name', info.name);
      const db = await new Promise((resolve, reject) => {
        const open = indexedDB.open(info.name);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      for (const storeName of db.objectStoreNames) {
        const store = db.transaction(storeName, 'readonly').objectStore(storeName);
        const read = (request) => new Promise((resolve, reject) => {
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        look('IndexedDB ' + info.name + '/' + storeName + ' keys', JSON.stringify(await read(store.getAllKeys())));
        look('IndexedDB ' + info.name + '/' + storeName, JSON.stringify(await read(store.getAll())));
      }
      db.close();
    }
    for (const name of await caches.keys()) {
      look('cache name', name);
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        look('cache ' + name + ' url', request.url + ' ' + decodeURIComponent(request.url));
        const response = await cache.match(request);
        look('cache ' + name + ' ' + request.url, await response.text());
      }
    }
    look('page text', document.body.innerText);
    look('page markup', document.documentElement.outerHTML);
    for (const field of document.querySelectorAll('input, select, textarea')) look('form value', field.value);
    return found;
  })()`);
}
