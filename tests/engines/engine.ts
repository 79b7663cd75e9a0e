// One browser page of the engine lanes (Safari's engine, WebKitGTK's MiniBrowser, over W3C
// WebDriver; Firefox ESR over WebDriver BiDi): the few things a test does with a kiosk page,
// whichever engine runs it. A control is found in the page by its accessible name (webkit.ts and
// firefox.ts tap it with the engine's own pointer input, trusted as a finger's); what a test
// waits for is asked of the page itself (a MutationObserver), never slept on.

/** Which engine a lane drives. */
export type EngineName = 'webkit' | 'firefox';

/** A control on the page: by CSS selector, by its accessible name (exact, or containing), or both. */
export interface Target {
  css?: string;
  /** the control's name as a screen reader says it: aria-label, else its label, else its text */
  name?: string;
  /** `name` is part of the control's name rather than all of it */
  partly?: boolean;
}

/** The keys the tests press. */
export type Key = 'Enter' | 'Tab' | 'Space' | 'Escape' | 'ArrowDown' | 'ArrowUp' | 'Backspace';

/** A page of the engine under test. */
export interface EnginePage {
  readonly engine: EngineName;
  goto(url: string): Promise<void>;
  reload(): Promise<void>;
  /**
   * Runs `fn(arg)` in the page and returns its (JSON) result; a promise is awaited. `fn` is a
   * function's source (JavaScript); it must use nothing outside itself.
   */
  evaluate<R = unknown>(fn: string, arg: unknown): Promise<R>;
  /** Runs a script given as text (a test double installed in the page); its promise is awaited. */
  run(script: string): Promise<unknown>;
  /** A tap on the control's centre, with the engine's pointer, as a finger would. */
  tap(target: Target): Promise<void>;
  /** Holds a finger on the control's centre until `released` resolves, then lifts it. */
  hold(target: Target, released: () => Promise<void>): Promise<void>;
  /** Empties the control, if it holds anything, and types `text` into it, key by key. */
  type(target: Target, text: string): Promise<void>;
  /** Chooses the option labelled `option` in the select box `target`, as the engine's picker does. */
  choose(target: Target, option: string): Promise<void>;
  /** Presses one key where the focus is. */
  press(key: Key): Promise<void>;
  /** Types text where the focus is. */
  keys(text: string): Promise<void>;
  screenshot(): Promise<Buffer>;
  close(): Promise<void>;
}

// The page's own code below is JavaScript in strings: it runs in the page, and the tests are
// typed for Node (without the DOM's types), as the Playwright tests are.

/** In the page, `(target) => Element | null`: the visible control `target` names. */
export const FIND_CONTROL = `(target) => {
  const squash = (s) => (s ?? '').replace(/\\s+/g, ' ').trim();
  const textOf = (el) => {
    const copy = el.cloneNode(true);
    for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
    return squash(copy.textContent);
  };
  const labelOf = (el) => {
    const aria = el.getAttribute('aria-label');
    if (aria) return squash(aria);
    const labelledBy = el.getAttribute('aria-labelledby');
    if (labelledBy) return squash(labelledBy.split(/\\s+/).map((id) => textOf(document.getElementById(id) ?? document.createElement('i'))).join(' '));
    const id = el.getAttribute('id');
    const label = id ? document.querySelector('label[for="' + CSS.escape(id) + '"]') : el.closest('label');
    if (label) return textOf(label);
    if (el instanceof HTMLInputElement && el.type !== 'button' && el.type !== 'submit') return squash(el.placeholder);
    return textOf(el);
  };
  const css = target.css ?? 'button, a[href], input, select, textarea, [role="button"], [role="radio"], [role="checkbox"]';
  const seen = [...document.querySelectorAll(css)].filter((el) => el.getClientRects().length > 0);
  if (target.name === undefined) return seen[0] ?? null;
  const want = squash(target.name);
  return seen.find((el) => (target.partly ? labelOf(el).includes(want) : labelOf(el) === want)) ?? null;
}`;

/** In the page, `() => Record<string, string>`: what the kiosk's root element says (its data-* attributes). */
export const KIOSK_STATE = `() => {
  const root = document.querySelector('.kiosk');
  const out = {};
  for (const a of root?.getAttributeNames() ?? []) if (a.startsWith('data-')) out[a.slice(5)] = root.getAttribute(a) ?? '';
  return out;
}`;

/**
 * The source of an in-page function that resolves with `check(arg)` once it is truthy, looked at
 * whenever the document changes (and every 250 ms, for what changes without the DOM: performance
 * marks, storage), or with null after `ms`. Built as text around `check`'s own source: the kiosk's
 * Content-Security-Policy forbids eval in the page, not a script the automation runs.
 */
function becomes(check: string): string {
  return `({ arg, ms }) => new Promise((resolve) => {
    const test = (${check});
    let done = false;
    const look = () => {
      if (done) return;
      let value = null;
      try { value = test(arg); } catch { value = null; }
      if (value) finish(value);
    };
    const finish = (value) => {
      done = true;
      observer.disconnect();
      clearInterval(poll);
      clearTimeout(timer);
      resolve(value);
    };
    const observer = new MutationObserver(look);
    const poll = setInterval(look, 250);
    const timer = setTimeout(() => finish(null), ms);
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    look();
  })`;
}

/**
 * Waits until `check(arg)` (a function's source) is truthy in the page and returns it; fails after `timeout` ms with
 * `what` and the kiosk's state. A page that navigates meanwhile is asked again.
 */
export async function waitFor<R = unknown>(page: EnginePage, what: string, check: string, arg: unknown = null, timeout = 10_000): Promise<R> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0) break;
    try {
      const value = await page.evaluate(becomes(check), { arg, ms: Math.min(left, 20_000) });
      if (value) return value as R;
    } catch (error) {
      if (!/navigat|context|discarded|unload|detached|destroyed|no such frame/i.test(String(error))) throw error;
    }
  }
  const state = await page.evaluate(KIOSK_STATE, null).catch(() => ({}));
  const voice = await page.evaluate(`() => [document.querySelector('.voice-light')?.getAttribute('data-voice'), performance.getEntriesByType('mark').filter((m) => m.name.startsWith('vk:')).map((m) => m.name).join(' ')]`, null).catch(() => null);
  throw new Error(`${page.engine}: waited ${timeout} ms for ${what}; the kiosk says ${JSON.stringify(state)}; its voice ${JSON.stringify(voice)}`);
}
