// A language as its speakers name it (Deutsch, Español, العربية), for the language choices: a
// visitor looks for their own language's name, not for its name in the kiosk's current one.

import { primaryLanguage } from '../../engine/language/localize.ts';

/**
 * The name of `tag` in itself, capitalised as a label. The region is named only when another of
 * `choices` shares the language (English (United Kingdom) beside English (United States)).
 */
export function ownName(tag: string, choices: readonly string[] = []): string {
  const primary = primaryLanguage(tag);
  const regional = choices.some((other) => other !== tag && primaryLanguage(other) === primary);
  let name: string | undefined;
  try {
    name = new Intl.DisplayNames([tag], { type: 'language' }).of(regional ? tag : primary);
  } catch {
    name = undefined;
  }
  if (!name || name === primary) return tag;
  return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
}

/** The writing direction of a language: right to left for Arabic, Hebrew, Persian, Urdu and their kin. */
export function directionOf(tag: string): 'rtl' | 'ltr' {
  return RTL.has(primaryLanguage(tag)) ? 'rtl' : 'ltr';
}

const RTL: ReadonlySet<string> = new Set(['ar', 'arc', 'ckb', 'dv', 'fa', 'he', 'ks', 'ps', 'sd', 'ug', 'ur', 'yi']);
