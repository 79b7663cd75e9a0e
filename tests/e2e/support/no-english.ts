// The kiosk's own English, looked for on a screen of a visit in another language: every message
// of the English catalog (src/ui/i18n/messages-en.ts) and every sentence the engine says of its
// own (kiosk-sentences.ts), cut at their values into the runs of words a screen shows as they are
// written ("Confirm {label}" gives "Confirm"), but for a word the visit's language writes alike
// (German "Standard", French "Volume"). A screen is read as a person and a screen reader meet it:
// its visible text, and the names, descriptions and hints of what is shown.

import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { expect, type Page } from '@playwright/test';
import { kioskSentence, type KioskSentence } from '../../../src/engine/runtime/kiosk-sentences.ts';
import { ar } from '../../../src/ui/i18n/messages-ar.ts';
import { de } from '../../../src/ui/i18n/messages-de.ts';
import { en } from '../../../src/ui/i18n/messages-en.ts';
import { es } from '../../../src/ui/i18n/messages-es.ts';
import { fr } from '../../../src/ui/i18n/messages-fr.ts';

/** The other catalogs, by language. */
const CATALOGS = { de, fr, es, ar } as const;
export type OtherLanguage = keyof typeof CATALOGS;

/** The engine's own sentences (kiosk-sentences.ts). */
const SENTENCES: readonly KioskSentence[] = ['action_failed', 'trouble', 'model_fallback', 'thanks', 'thanks_next', 'heard', 'go_ahead', 'too_long'];

/** Words that every catalog writes alike (tests/unit/kiosk-catalogs.test.ts): names of things, not English. */
const WRITTEN_ALIKE: ReadonlySet<string> = new Set(['STT', 'PIN']);

/** Every message of a catalog, however deep. */
function messagesOf(node: unknown): string[] {
  if (typeof node === 'string') return [node];
  return Object.values(node as Record<string, unknown>).flatMap(messagesOf);
}

/** The literal runs of a parsed message, those inside plural and select branches too. */
function literals(elements: readonly MessageFormatElement[]): string[] {
  return elements.flatMap((e): string[] => {
    if (e.type === TYPE.literal) return [e.value];
    if (e.type === TYPE.plural || e.type === TYPE.select) return Object.values(e.options).flatMap((o) => literals(o.value));
    return [];
  });
}

/** What a language's catalog and sentences show as written, joined: the runs between their values. */
function shownText(catalog: object, language: string): string {
  return [...messagesOf(catalog), ...SENTENCES.map((s) => kioskSentence(s, language))].flatMap((message) => literals(parse(message))).join('\n');
}

/** The runs of English words a screen would show as written: at least one word of three letters. */
export const ENGLISH: readonly string[] = [
  ...new Set(
    shownText(en, 'en')
      .split('\n')
      .map((run) => run.replace(/^[\s.,:;!?…"“”()-]+|[\s.,:;!?…"“”()-]+$/g, ''))
      .filter((run) => /\p{L}{3}/u.test(run) && !WRITTEN_ALIKE.has(run)),
  ),
];

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Each run's pattern as a whole word, made once: the screens of a visit are searched for hundreds of runs each. */
const wholeRun = new Map<string, RegExp>();

/** The runs of `runs` found in `text`, each as a whole (never inside a longer word: "Start" is not in "Starten"). */
function found(runs: readonly string[], text: string): string[] {
  return runs.filter((run) => {
    let pattern = wholeRun.get(run);
    if (!pattern) wholeRun.set(run, (pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escaped(run)}(?![\\p{L}\\p{N}])`, 'u')));
    return pattern.test(text);
  });
}

/** The English runs that `language` writes alike in its own catalog (German "Standard"), which say nothing of English on its screens. */
const ALIKE = new Map(Object.entries(CATALOGS).map(([language, catalog]) => [language, new Set(found(ENGLISH, shownText(catalog, language)))]));

/** The kiosk's English runs in `text`, a screen of a visit in `language`. */
export function englishIn(text: string, language: OtherLanguage | 'en' = 'en'): string[] {
  const alike = ALIKE.get(language);
  return found(ENGLISH, text).filter((run) => !alike?.has(run));
}

/** The page's document as this module reads it (the tests are typed without the DOM's library). */
interface ScreenDocument {
  body: { innerText: string };
  querySelectorAll(selector: string): Iterable<{ checkVisibility(): boolean; getAttribute(name: string): string | null }>;
}

/** What the screen gives a person and a screen reader: its visible text, and the names, descriptions and hints of what is shown. */
export function screenText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const { document } = globalThis as unknown as { document: ScreenDocument };
    const out = [document.body.innerText];
    for (const el of document.querySelectorAll('*')) {
      if (!el.checkVisibility()) continue;
      for (const name of ['aria-label', 'aria-description', 'aria-roledescription', 'aria-valuetext', 'title', 'placeholder', 'alt']) {
        const value = el.getAttribute(name);
        if (value) out.push(value);
      }
    }
    return out.join('\n');
  });
}

/** Expects no English of the kiosk's own on the screen as it is now, in a visit in `language`. */
export async function expectNoEnglish(page: Page, language: OtherLanguage, screen: string): Promise<void> {
  expect(englishIn(await screenText(page), language), `the kiosk's English on the ${screen} screen`).toEqual([]);
}
