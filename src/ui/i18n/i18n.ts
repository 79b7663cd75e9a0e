// The kiosk's own words (not the flow's: those come translated from the engine), through
// svelte-i18n: a store that formats a message of the current catalog, and the visit's language
// setting which catalog that is. Keys are checked by the type checker (MessageKey), so a word
// missing from the English catalog is a build error, not an empty button.

import { addMessages, init, locale, _ } from 'svelte-i18n';
import { derived, type Readable } from 'svelte/store';
import { en, type Messages } from './messages-en.ts';
import { ar } from './messages-ar.ts';
import { de } from './messages-de.ts';
import { es } from './messages-es.ts';
import { fr } from './messages-fr.ts';
import type { MessageKey, MessageValues, Said, Translate } from './words.ts';
import { directionOf } from './language-names.ts';

export type { MessageKey, Said, Translate, Words } from './words.ts';

/** The catalogs, by primary language subtag. */
const CATALOGS: Readonly<Record<string, Messages>> = { en, de, fr, es, ar };
const FALLBACK = 'en';

for (const [language, messages] of Object.entries(CATALOGS)) addMessages(language, messages);
void init({ fallbackLocale: FALLBACK, initialLocale: FALLBACK });

/** `$t('bar.startOver')` in a component: the message in the visit's language. */
export const t: Readable<Translate> = derived(_, (format) => (key: MessageKey, values?: MessageValues) => format(key, values ? { values } : {}));

/** `$say(notice)` in a component: kept words in the visit's language (text is shown as it is). */
export const say: Readable<(said: Said) => string> = derived(t, (format) => (said: Said) => (typeof said === 'string' ? said : format(said.key, said.values)));

/** The catalog that serves a language tag: its primary subtag's, else English. */
export function catalogLanguage(tag: string): string {
  const primary = tag.split('-')[0]!.toLowerCase();
  return Object.hasOwn(CATALOGS, primary) ? primary : FALLBACK;
}

/**
 * Shows the kiosk's words in `tag`'s language from now on, and tells the page: `lang` for screen
 * readers, voices and fonts, `dir` so that a right-to-left language mirrors the layout.
 */
export function useLanguage(tag: string): void {
  void locale.set(catalogLanguage(tag));
  const page = (globalThis as { document?: { documentElement: { lang: string; dir: string } } }).document;
  if (page) {
    page.documentElement.lang = tag;
    page.documentElement.dir = directionOf(tag);
  }
}
