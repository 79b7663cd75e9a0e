// Audio guidance under test in the touch project: a kiosk whose server has the speech double
// (tests/servers/fake-speech.ts) and nothing else unless asked, opened in the test's own browser
// with the microphone refused; what a sighted visitor reads on the screen, gathered here
// independently of the kiosk's own reader; and the keys pressed until the kiosk says where they
// are, as a visitor who cannot see the screen would use them.

import { expect, type Browser, type Page, type TestInfo } from '@playwright/test';
import { startClinicService, type ClinicService } from '../../servers/clinic-service.ts';
import type { FakeOpenAI } from '../../servers/openai-fakes.ts';
import { openVoiceKiosk, type VoiceKiosk } from '../../support/voice-kiosk.ts';

export interface Guided {
  page: Page;
  fakes: FakeOpenAI;
  kiosk: VoiceKiosk;
  /** everything the kiosk asked the speech double to say, in order */
  said(): string[];
  /** speech requests the page has made whose answers it has not had in full */
  speaking(): number;
  /** closes it all; after a failed test, says first what the kiosk said and logged (that explains a failure) */
  close(testInfo?: TestInfo): Promise<void>;
}

export interface GuidedOptions {
  query?: Record<string, string | number>;
  /** the model double too (its answers scripted by the test) */
  model?: boolean;
  /** the local clinic service for the clinic flow's actions */
  clinic?: boolean;
  /** runs on the page before it opens the kiosk (a clock to fake) */
  prepare?: (page: Page) => Promise<void>;
  flows?: Record<string, string>;
}

/** Opens a kiosk that speaks through the speech double, on its idle screen. */
export async function guidedKiosk(browser: Browser, options: GuidedOptions = {}): Promise<Guided> {
  let clinic: ClinicService | null = null;
  const env: Record<string, string> = {};
  if (options.clinic) {
    clinic = await startClinicService();
    Object.assign(env, { ACTION_ORIGIN_CLINIC: clinic.url, ACTION_SECRET_CLINIC_TOKEN: 'guided-clinic-token', ACTION_SECRET_CLINIC_TOKEN_ORIGINS: clinic.url });
  }
  const kiosk = await openVoiceKiosk({
    browser,
    fixture: null,
    microphoneAllowed: false,
    services: { llm: options.model ?? false, stt: false, tts: true },
    query: options.query ?? {},
    env,
    ...(options.flows ? { flows: options.flows } : {}),
    ...(options.prepare ? { prepare: options.prepare } : {}),
  });
  await expect(kiosk.page.locator('.kiosk')).toHaveAttribute('data-phase', 'idle');
  let inFlight = 0;
  const speech = (r: { url(): string }) => new URL(r.url()).pathname.startsWith('/api/tts');
  kiosk.page.on('request', (r) => void (speech(r) && inFlight++));
  kiosk.page.on('requestfinished', (r) => void (speech(r) && inFlight--));
  kiosk.page.on('requestfailed', (r) => void (speech(r) && inFlight--));
  return {
    speaking: () => inFlight,
    page: kiosk.page,
    fakes: kiosk.fakes,
    kiosk,
    said: () => kiosk.fakes.tts.requests.map((r) => r.input),
    close: async (testInfo) => {
      if (testInfo && testInfo.status !== testInfo.expectedStatus) {
        const report = JSON.stringify({ said: kiosk.fakes.tts.requests.map((r) => r.input), console: kiosk.console }, null, 2);
        await testInfo.attach('guided', { body: report, contentType: 'application/json' });
        console.error(`guided test "${testInfo.title}": what the kiosk said and logged:\n${report}`);
      }
      await kiosk.close();
      await clinic?.close();
    },
  };
}

/** Words compared as heard: lower case, one kind of quote and apostrophe, spaces collapsed. */
export function plain(text: string): string {
  return text.toLowerCase().replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d«»„]/g, '"').replace(/\s+/g, ' ').trim();
}

/** The browser globals the page function below reads (these tests are typed without the DOM's). */
interface El {
  tagName: string;
  childNodes: ArrayLike<{ nodeType: number; textContent: string | null }>;
  children: ArrayLike<El>;
  getAttribute(name: string): string | null;
  matches(selector: string): boolean;
  checkVisibility(): boolean;
  value?: string;
  type?: string;
  checked?: boolean;
  selectedOptions?: ArrayLike<{ textContent: string | null }>;
}

/**
 * In the page: what a sighted visitor reads in the step, the end screen, the notes beside the
 * captions and an open dialog: each element's own text (headings, labels, options, card lines,
 * notices, buttons), and each field's value; a timer's text with its seconds as `#`. Passed over:
 * what is hidden or marked aria-hidden, the captions (what was said), the answer box.
 */
function textsOnScreen(): string[] {
  const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<El> } }).document;
  const out: string[] = [];
  const skip = (el: El) => el.getAttribute('aria-hidden') === 'true' || !el.checkVisibility() || el.matches('.captions, form.answer, .voice-light');
  const walk = (el: El) => {
    if (skip(el)) return;
    const own = Array.from(el.childNodes).filter((n) => n.nodeType === 3).map((n) => n.textContent ?? '').join('');
    // A timer's lines may sit in elements of their own inside it (the time notice's lines).
    const timer = el.matches('[role="timer"], [role="timer"] *');
    for (const line of own.split('\n')) if (line.trim()) out.push(timer ? line.replace(/\d+/g, '#') : line);
    const placeholder = el.getAttribute('placeholder');
    if (el.tagName === 'INPUT' && !el.value && placeholder) out.push(placeholder);
    if (el.tagName === 'INPUT' && el.type !== 'checkbox' && el.value) {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(el.value);
      out.push(m ? new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!)) : el.value);
    }
    if (el.tagName === 'SELECT' && el.value) out.push(el.selectedOptions?.[0]?.textContent ?? '');
    if (el.tagName !== 'SELECT') for (const child of Array.from(el.children)) walk(child);
  };
  for (const region of Array.from(doc.querySelectorAll('main, .talk .voice-note, .talk .assistant-note, .talk .operator-note, [role="alertdialog"]'))) walk(region);
  return out;
}

/**
 * What is on the screen and not (yet) in what the kiosk said, sentence by sentence: the voice is
 * given a sentence at a time, fetched side by side, so the double may get them in another order.
 */
async function unsaid(page: Page, said: () => string[]): Promise<string[]> {
  const sentences = (await page.evaluate(textsOnScreen)).flatMap((t) => plain(t).split(/(?<=[.!?])\s+/)).filter((t) => /\p{L}/u.test(t));
  const heard = said().map(plain).join(' ');
  return sentences.filter((text) => {
    // A line's last stop may be said otherwise ("name?: empty."); a timer's seconds (#) are any.
    const escaped = text.replace(/[.!?:]$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/#/g, '\\d+');
    return !new RegExp(escaped).test(heard);
  });
}

/** Waits until every text on the screen is in what the kiosk asked its voice to say. */
export async function expectScreenSaid(g: Guided, screen: string): Promise<void> {
  await expect.poll(() => unsaid(g.page, g.said), { message: `every text of the ${screen} screen is said`, timeout: 10_000 }).toEqual([]);
}

/**
 * Presses `key` until the kiosk says it is on a control named like `name` (what it says where
 * the keys move to), as a visitor who cannot see the screen finds a button. Fails after `max`.
 */
export async function keyUntilSaid(g: Guided, key: string, name: RegExp, max = 20): Promise<void> {
  for (let i = 0; i < max; i++) {
    const before = g.said().length;
    await g.page.keyboard.press(key);
    await expect.poll(() => g.said().length, { message: `the kiosk says where ${key} moved to` }).toBeGreaterThan(before);
    if (name.test(g.said().at(-1)!)) return;
  }
  throw new Error(`${key} pressed ${max} times and the kiosk never said ${name}; last: ${g.said().slice(-3).join(' | ')}`);
}
