// The studio's own words, through svelte-i18n as the kiosk's are (src/ui/i18n/), from catalogs of
// its own: the studio is a page of its own, and the kiosk's page loads none of them. The English
// catalog's shape is a type, so a key missing from it fails the type check.

import { addMessages, init, locale, _ } from 'svelte-i18n';
import { derived, type Readable } from 'svelte/store';
import { ar } from './messages-ar.ts';
import { de } from './messages-de.ts';
import { en, type StudioMessages } from './messages-en.ts';
import { es } from './messages-es.ts';
import { fr } from './messages-fr.ts';

type Paths<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Paths<T[K], `${P}${K}.`>;
}[keyof T & string];

/** A message of the studio's catalogs, as `area.name`. */
export type StudioKey = Paths<StudioMessages>;

const CATALOGS: Readonly<Record<string, StudioMessages>> = { en, de, fr, es, ar };

for (const [language, messages] of Object.entries(CATALOGS)) addMessages(language, messages);
void init({ fallbackLocale: 'en', initialLocale: 'en' });

/** `$t('file.open')` in a component: the message in the studio's language. */
export const t: Readable<(key: StudioKey, values?: Record<string, string | number>) => string> = derived(_, (format) => (key: StudioKey, values?: Record<string, string | number>) => format(key, values ? { values } : {}));

/** The languages the studio's words are written in. */
export const STUDIO_LANGUAGES = Object.keys(CATALOGS);

/** Shows the studio in `tag`'s language (its primary subtag's catalog, else English). */
export function useStudioLanguage(tag: string): void {
  const primary = tag.split('-')[0]!.toLowerCase();
  const chosen = Object.hasOwn(CATALOGS, primary) ? primary : 'en';
  void locale.set(chosen);
  document.documentElement.lang = chosen;
  document.documentElement.dir = chosen === 'ar' ? 'rtl' : 'ltr';
}
