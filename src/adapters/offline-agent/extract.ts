// Values in what the visitor said or typed: email addresses (typed, or spoken as "alex at example
// dot com", "alex arroba example punto com"), phone numbers and numbers (in digits or in the visit's
// language's words). Names: names.ts; dates: dates.ts; times: times.ts; choices: choices.ts.
// Everything the fill planner extracts is exported from here.

import { ENGLISH } from './languages/en.ts';
import { perLanguage, type Language } from './languages/language.ts';
import { foldInPlace, phraseSource } from './languages/patterns.ts';
import { originalSpan, spokenToDigits } from './numbers.ts';
import type { Found } from './text.ts';

export { extractChoice, type Choice } from './choices.ts';
export { extractDate, type SpokenDate } from './dates.ts';
export { extractTime, type SpokenTime } from './times.ts';
export { bareName, bareText, extractName, type NamePart } from './names.ts';

// ------------------------------------------------------------------ email

const TYPED_EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;
const PART = '(?:[a-z0-9](?:\\s+[a-z0-9]){2,}|[a-z0-9][a-z0-9._%+-]*)';
const LABEL = '[a-z0-9][a-z0-9-]*';
const VALID_EMAIL = /^[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}$/;

const alternatives = (words: readonly string[]) => [...words].sort((a, b) => b.length - a.length).map(phraseSource).join('|');

/** The spoken email of a language, and how its words become the address's signs. */
const spokenEmail = perLanguage((lang: Language) => {
  const e = lang.email;
  const joiner = `\\s+(?:${alternatives([...e.dot, ...e.underscore, ...e.dash, ...e.plus])})\\s+`;
  const dot = `(?:\\s*\\.\\s*|\\s+(?:${alternatives(e.dot)})\\s+)`;
  const sign = (words: readonly string[]) => new RegExp(`\\s+(?:${alternatives(words)})\\s+`, 'g');
  return {
    pattern: new RegExp(`\\b(${PART}(?:${joiner}${PART})*)\\s+(?:${alternatives(e.at)})\\s+(${LABEL}(?:${dot}${LABEL})+)\\b`, 'i'),
    signs: [
      [sign(e.dot), '.'],
      [sign(e.underscore), '_'],
      [sign(e.dash), '-'],
      [sign(e.plus), '+'],
    ] as const,
    dot: sign(e.dot),
  };
});

/** An email address, typed ("alex@example.com") or spoken ("alex dot smith at example dot com"). */
export function extractEmail(text: string, lang: Language = ENGLISH): Found<string> | undefined {
  const typed = TYPED_EMAIL.exec(text);
  if (typed) return { value: typed[0].toLowerCase(), start: typed.index, end: typed.index + typed[0].length };
  const words = spokenEmail(lang);
  const spoken = words.pattern.exec(foldInPlace(text));
  if (!spoken) return undefined;
  let local = spoken[1]!;
  for (const [sign, put] of words.signs) local = local.replace(sign, put);
  const domain = spoken[2]!.replace(words.dot, '.').replace(/\s+/g, '');
  const value = `${local.replace(/\s+/g, '')}@${domain}`;
  if (!VALID_EMAIL.test(value)) return undefined;
  return { value, start: spoken.index, end: spoken.index + spoken[0].length };
}

// ------------------------------------------------------------------ phone

const PHONE_RUN = /(?:\+\s?)?\(?\d[\d\s().,-]*\d/g;
const ENGINE_PHONE = /^\+?[0-9][0-9 ()./-]{5,}[0-9]$/;

/** A phone number of 7 to 15 digits, typed or spoken ("five five five, one two three four…", "zéro six, douze…"). */
export function extractPhone(text: string, lang: Language = ENGLISH): Found<string> | undefined {
  const digits = spokenToDigits(text, lang);
  for (const m of digits.text.matchAll(PHONE_RUN)) {
    const raw = m[0].trim();
    const count = raw.replace(/\D/g, '').length;
    if (count < 7 || count > 15) continue;
    // Typed groups ("555 123 4567", "+44 20 7946 0958") are kept; digits said one by one are joined.
    const typed = text.slice(...originalSpan(digits, m.index, m.index + m[0].length)).replace(/\s+/g, ' ').trim() === raw.replace(/\s+/g, ' ');
    const grouped = typed && raw.replace(/^\+\s?/, '').split(/\s+/).every((g) => g.replace(/\D/g, '').length >= 2);
    const value = grouped && ENGINE_PHONE.test(raw) ? raw.replace(/\s+/g, ' ') : (raw.startsWith('+') ? '+' : '') + raw.replace(/\D/g, '');
    const [start, end] = originalSpan(digits, m.index, m.index + m[0].length);
    return { value, start, end };
  }
  return undefined;
}

// ------------------------------------------------------------------ numbers

/**
 * The first number, in digits ("22", "3.5", and "3,5" where the language writes a decimal comma)
 * or in words ("twenty two", "zweiundzwanzig"); ordinals ("3rd", "5.") are not counted.
 */
export function extractNumber(text: string, integer = false, lang: Language = ENGLISH): Found<number> | undefined {
  const digits = spokenToDigits(text, lang);
  const comma = lang.numbers.decimalComma === true;
  const number = comma ? /(?<![\w.,])(-?\d+(?:[.,]\d+)?)(?![\w]|[.,]\d)/g : /(?<![\w.])(-?\d+(?:\.\d+)?)(?![\w]|\.\d)/g;
  for (const m of digits.text.matchAll(number)) {
    const value = Number(m[1]!.replace(',', '.'));
    if (integer && !Number.isInteger(value)) continue;
    const [start, end] = originalSpan(digits, m.index, m.index + m[0].length);
    return { value, start, end };
  }
  return undefined;
}
