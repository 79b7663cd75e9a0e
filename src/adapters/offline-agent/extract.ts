// Values in what the visitor said or typed: email addresses (typed or spoken as "alex at example
// dot com"), phone numbers and numbers. Names: names.ts; dates and times: dates.ts; choices:
// choices.ts. Everything the fill planner extracts is exported from here.

import { originalSpan, spokenToDigits } from './numbers.ts';
import type { Found } from './text.ts';

export { extractChoice, type Choice } from './choices.ts';
export { extractDate, extractTime, type SpokenDate, type SpokenTime } from './dates.ts';
export { bareName, bareText, extractName, type NamePart } from './names.ts';

// ------------------------------------------------------------------ email

const TYPED_EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;
const PART = '(?:[a-z0-9](?:\\s+[a-z0-9]){2,}|[a-z0-9][a-z0-9._%+-]*)';
const JOIN = '\\s+(?:dot|underscore|dash|hyphen|plus)\\s+';
const LABEL = '[a-z0-9][a-z0-9-]*';
const SPOKEN_EMAIL = new RegExp(`\\b(${PART}(?:${JOIN}${PART})*)\\s+(?:at|at\\s+sign)\\s+(${LABEL}(?:(?:\\s*\\.\\s*|\\s+dot\\s+)${LABEL})+)\\b`, 'i');
const VALID_EMAIL = /^[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}$/;

/** An email address, typed ("alex@example.com") or spoken ("alex dot smith at example dot com"). */
export function extractEmail(text: string): Found<string> | undefined {
  const typed = TYPED_EMAIL.exec(text);
  if (typed) return { value: typed[0].toLowerCase(), start: typed.index, end: typed.index + typed[0].length };
  const spoken = SPOKEN_EMAIL.exec(text);
  if (!spoken) return undefined;
  const local = spoken[1]!
    .toLowerCase()
    .replace(/\s+dot\s+/g, '.')
    .replace(/\s+underscore\s+/g, '_')
    .replace(/\s+(?:dash|hyphen)\s+/g, '-')
    .replace(/\s+plus\s+/g, '+')
    .replace(/\s+/g, '');
  const domain = spoken[2]!.toLowerCase().replace(/\s+dot\s+/g, '.').replace(/\s+/g, '');
  const value = `${local}@${domain}`;
  if (!VALID_EMAIL.test(value)) return undefined;
  return { value, start: spoken.index, end: spoken.index + spoken[0].length };
}

// ------------------------------------------------------------------ phone

const PHONE_RUN = /(?:\+\s?)?\(?\d[\d\s().,-]*\d/g;
const ENGINE_PHONE = /^\+?[0-9][0-9 ()./-]{5,}[0-9]$/;

/** A phone number of 7 to 15 digits, typed or spoken ("five five five, one two three four…"). */
export function extractPhone(text: string): Found<string> | undefined {
  const digits = spokenToDigits(text);
  for (const m of digits.text.matchAll(PHONE_RUN)) {
    const raw = m[0].trim();
    const count = raw.replace(/\D/g, '').length;
    if (count < 7 || count > 15) continue;
    // Typed groups ("555 123 4567", "+44 20 7946 0958") are kept; digits said one by one are joined.
    const grouped = raw.replace(/^\+\s?/, '').split(/\s+/).every((g) => g.replace(/\D/g, '').length >= 2);
    const value = grouped && ENGINE_PHONE.test(raw) ? raw.replace(/\s+/g, ' ') : (raw.startsWith('+') ? '+' : '') + raw.replace(/\D/g, '');
    const [start, end] = originalSpan(digits, m.index, m.index + m[0].length);
    return { value, start, end };
  }
  return undefined;
}

// ------------------------------------------------------------------ numbers

/** The first number, in digits ("22", "3.5") or words ("twenty two"); ordinals ("3rd") are not counted. */
export function extractNumber(text: string, integer = false): Found<number> | undefined {
  const digits = spokenToDigits(text);
  for (const m of digits.text.matchAll(/(?<![\w.])(-?\d+(?:\.\d+)?)(?![\w]|\.\d)/g)) {
    const value = Number(m[1]);
    if (integer && !Number.isInteger(value)) continue;
    const [start, end] = originalSpan(digits, m.index, m.index + m[0].length);
    return { value, start, end };
  }
  return undefined;
}
