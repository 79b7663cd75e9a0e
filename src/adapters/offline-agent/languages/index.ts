// The languages of the offline assistant, by primary subtag. A new language is one file beside
// this one (a Language: see language.ts and en.ts) and its line below; its yes and no words go to
// the engine's answer-words.ts, which the engine's "no means no" shares.

import { ARABIC } from './ar.ts';
import { GERMAN } from './de.ts';
import { ENGLISH } from './en.ts';
import { SPANISH } from './es.ts';
import { FRENCH } from './fr.ts';
import type { Language } from './language.ts';

/** Every language the assistant speaks. */
export const LANGUAGES: readonly Language[] = [ENGLISH, GERMAN, FRENCH, SPANISH, ARABIC];

/** The assistant's language for a visit's language tag ("de-DE" → German); English for one it does not speak. */
export function languageFor(tag: string | undefined): Language {
  const primary = (tag ?? '').toLowerCase().split(/[-_]/)[0];
  return LANGUAGES.find((l) => l.code === primary) ?? ENGLISH;
}

export type { Language } from './language.ts';
