// Dates and times as people say or type them in the visit's language: "15 March 1995", "March
// 15th, 1995", "the third of May two thousand and one", "5. März 1984", "le 5 mars 1984", "5 de
// marzo de 1984", "15/03/1995" (day first, or month first where the visit's locale writes it so),
// "1995-03-15", with two-digit years ("3/5/84"); "2 PM", "10:30", "noon", "half past ten", "halb
// elf", "14h30", "las diez y media". Dates that name no real day ("31 February") are found as
// such. Dates are said back as the visit's locale writes them ("March 5, 1984", "5 March 1984").

import { ENGLISH } from './languages/en.ts';
import { perLanguage, type Language } from './languages/language.ts';
import { foldInPlace, phraseSource } from './languages/patterns.ts';
import { originalSpan, spokenToDigits, type DigitText } from './numbers.ts';
import type { Found } from './text.ts';
import { foldWord } from '../../engine/runtime/words.ts';

/** A date as said ("15 March 1995") and, when it names a real day with its year, as YYYY-MM-DD. */
export interface SpokenDate {
  spoken: string;
  iso?: string;
}

/** What a date is read against: today, whether it must be past (a birth), the order of typed dates. */
export interface DateContext {
  /** the kiosk's date, YYYY-MM-DD: a two-digit year is read near it */
  today?: string;
  /** a date of birth: a two-digit year is read as the latest that is not after today */
  past?: boolean;
  /** typed dates are month first ("03/05/1984" is March 5): the visit's locale writes them so */
  monthFirst?: boolean;
}

interface DateReader {
  patterns: readonly RegExp[];
  monthOf: ReadonlyMap<string, number>;
  articles: RegExp;
}

const reader = perLanguage((lang: Language): DateReader => {
  const monthOf = new Map<string, number>();
  lang.dates.months.forEach((names, i) => names.forEach((n) => monthOf.set(foldWord(n), i + 1)));
  const names = [...monthOf.keys()].sort((a, b) => b.length - a.length).map(phraseSource);
  const month = `(?<month>${names.join('|')})\\.?`;
  const source = (p: string) =>
    `(?<![\\p{L}\\p{N}])${p.replace('DAY', '(?<day>\\d{1,2})').replace('MONTH', month).replace('YEAR', "(?<year>\\d{4}|['’]\\d{2}|(?<!,\\s*)\\d{2}(?![\\d:]))")}(?![\\p{L}\\p{N}])`;
  return {
    patterns: lang.dates.patterns.map((p) => new RegExp(source(p), 'iu')),
    monthOf,
    articles: new RegExp(`^(?:${lang.dates.articles.map(phraseSource).join('|') || '(?!)'})\\s+`, 'iu'),
  };
});

const ISO = /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/;
const NUMERIC = /(?<![\d.,/-])(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})(?![\d/.-]\d)/;

function daysIn(month: number, year: number | undefined): number {
  if (month === 2) return year === undefined || (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isoOf(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * A year said with two digits: for a birth, the latest such year not after today ("84" is 1984,
 * "05" is 2005 in 2025); for any other date, the one within 50 years of today.
 */
function fullYear(two: number, ctx: DateContext): number {
  const now = Number((ctx.today ?? '').slice(0, 4)) || new Date().getFullYear();
  const century = Math.floor(now / 100) * 100;
  const candidate = century + two;
  if (ctx.past) return candidate > now ? candidate - 100 : candidate;
  if (candidate > now + 50) return candidate - 100;
  return candidate < now - 49 ? candidate + 100 : candidate;
}

interface Candidate {
  index: number;
  length: number;
  day: number;
  month: number;
  year?: number;
  spoken: string;
}

function yearOf(said: string | undefined, ctx: DateContext): number | undefined {
  if (said === undefined) return undefined;
  const digits = said.replace(/\D/g, '');
  return digits.length === 2 ? fullYear(Number(digits), ctx) : Number(digits);
}

function candidates(text: string, lang: Language, ctx: DateContext): Candidate[] {
  const out: Candidate[] = [];
  const iso = ISO.exec(text);
  if (iso) out.push({ index: iso.index, length: iso[0].length, spoken: iso[0], year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) });
  const numeric = NUMERIC.exec(text);
  if (numeric) {
    const [a, b] = [Number(numeric[1]), Number(numeric[2])];
    // The locale's order unless that cannot be (15/03/1995 is day first anywhere).
    const monthFirst = ctx.monthFirst ? a <= 12 : b > 12 && a <= 12;
    const [day, month] = monthFirst ? [b, a] : [a, b];
    out.push({ index: numeric.index, length: numeric[0].length, spoken: numeric[0], day, month, year: yearOf(numeric[3], ctx)! });
  }
  const r = reader(lang);
  const folded = foldInPlace(text);
  for (const pattern of r.patterns) {
    const m = pattern.exec(folded);
    const g = m?.groups;
    if (!m || !g) continue;
    const said = text.slice(m.index, m.index + m[0].length);
    const year = yearOf(g['year'], ctx);
    out.push({ index: m.index, length: m[0].length, spoken: said.replace(r.articles, ''), day: Number(g['day']), month: r.monthOf.get(foldWord(g['month']!)) ?? 0, ...(year !== undefined ? { year } : {}) });
  }
  return out;
}

/** Parts of a date said without the rest: a day and month without a year, a day alone or a year alone. */
export interface DatePart {
  day?: number;
  month?: number;
  year?: number;
}

const dayAlone = perLanguage((lang: Language) =>
  lang.dates.dayAlone === undefined ? undefined : new RegExp(`(?<![\\p{L}\\p{N}])${lang.dates.dayAlone.replace('DAY', '(?<day>\\d{1,2})')}(?![\\p{L}\\p{N}])`, 'iu'),
);

/**
 * The part of a date a correction says, when it says no whole date: a day and month ("5 April"),
 * a day alone ("the 6th", "am 6.") or a year alone ("1985", never after today's).
 */
export function datePart(text: string, lang: Language = ENGLISH, ctx: DateContext = {}): Found<DatePart> | undefined {
  const { digits, found } = datesIn(text, lang, ctx);
  const span = (index: number, length: number) => originalSpan(digits, index, index + length);
  const month = found.find((c) => c.year === undefined && isReal(c));
  if (month) {
    const [start, end] = span(month.index, month.length);
    return { value: { day: month.day, month: month.month }, start, end };
  }
  const day = dayAlone(lang)?.exec(foldInPlace(digits.text));
  const d = Number(day?.groups?.['day']);
  if (day && d >= 1 && d <= 31) {
    const [start, end] = span(day.index, day[0].length);
    return { value: { day: d }, start, end };
  }
  const now = Number((ctx.today ?? '').slice(0, 4)) || new Date().getFullYear();
  const year = /(?<![\d.,/:-])(1[89]\d{2}|20\d{2})(?![\d.,/:-]?\d)/.exec(digits.text);
  if (year && Number(year[1]) <= now) {
    const [start, end] = span(year.index, year[0].length);
    return { value: { year: Number(year[1]) }, start, end };
  }
  return undefined;
}

/** A date that names no real day ("31 February 1990"): its month, year if said, and the days the month has. */
export interface ImpossibleDate {
  month: number;
  year?: number;
  days: number;
}

function isReal(c: { day: number; month: number; year?: number }): boolean {
  return c.day >= 1 && c.day <= daysIn(c.month, c.year);
}

/** The date candidates with a real month, first in the text first. */
function datesIn(text: string, lang: Language, ctx: DateContext): { digits: DigitText; found: Candidate[] } {
  const digits = spokenToDigits(text, lang);
  const found = candidates(digits.text, lang, ctx)
    .filter((c) => c.month >= 1 && c.month <= 12)
    .sort((a, b) => a.index - b.index || b.length - a.length);
  return { digits, found };
}

/** A date as said, tidied: spaces collapsed, month names written as the language writes them. */
function tidy(spoken: string, lang: Language): string {
  const months = reader(lang).monthOf;
  return spoken
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\p{L}+/gu, (w) => (lang.dates.capitalMonths && w.length >= 3 && months.has(foldWord(w)) ? w[0]!.toUpperCase() + w.slice(1).toLowerCase() : w));
}

/** The first date in the text, or undefined. Relative dates ("tomorrow") are not understood. */
export function extractDate(text: string, lang: Language = ENGLISH, ctx: DateContext = {}): Found<SpokenDate> | undefined {
  const { digits, found } = datesIn(text, lang, ctx);
  const c = found.find(isReal);
  if (!c) return undefined;
  const [start, end] = originalSpan(digits, c.index, c.index + c.length);
  const spoken = tidy(c.spoken, lang);
  return { value: { spoken, ...(c.year !== undefined ? { iso: isoOf(c.year, c.month, c.day) } : {}) }, start, end };
}

/** A date said with a day its month does not have ("the 30th of February"), when no real date comes before it. */
export function extractImpossibleDate(text: string, lang: Language = ENGLISH, ctx: DateContext = {}): Found<ImpossibleDate> | undefined {
  const { digits, found } = datesIn(text, lang, ctx);
  const c = found[0];
  if (!c || isReal(c) || c.day < 1) return undefined;
  const [start, end] = originalSpan(digits, c.index, c.index + c.length);
  return { value: { month: c.month, days: daysIn(c.month, c.year), ...(c.year !== undefined ? { year: c.year } : {}) }, start, end };
}

function format(tag: string, options: Intl.DateTimeFormatOptions, date: Date): string {
  try {
    return new Intl.DateTimeFormat(tag, { ...options, timeZone: 'UTC' }).format(date);
  } catch {
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' }).format(date);
  }
}

/** A month as the visit's locale names it ("March", "März"), with its year when given ("Februar 1990"). */
export function monthName(month: number, tag = 'en-US', year?: number): string {
  const date = new Date(Date.UTC(year ?? 2000, month - 1, 1));
  return format(tag, year === undefined ? { month: 'long' } : { month: 'long', year: 'numeric' }, date);
}

/** A YYYY-MM-DD date as the kiosk says it in the visit's locale: "March 5, 1984", "5. März 1984", as the screen shows it. */
export function dateInWords(iso: string, tag = 'en-US'): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  const [year, month, day] = [Number(m?.[1]), Number(m?.[2]), Number(m?.[3])];
  if (!m || month < 1 || month > 12 || !isReal({ day, month, year })) return undefined;
  return format(tag, { dateStyle: 'long' }, new Date(`${iso}T00:00:00Z`));
}

/** What writesMonthFirst found for each tag: asked at every turn, and a formatter costs a millisecond to make. */
const monthFirst = new Map<string, boolean>();

/** True when the visit's locale writes a date with its month before its day (en-US: 3/5/1984). */
export function writesMonthFirst(tag: string): boolean {
  let first = monthFirst.get(tag);
  if (first === undefined) {
    try {
      const parts = new Intl.DateTimeFormat(tag, { day: 'numeric', month: 'numeric', year: 'numeric', timeZone: 'UTC' }).formatToParts(new Date(Date.UTC(2000, 0, 2)));
      first = parts.findIndex((p) => p.type === 'month') < parts.findIndex((p) => p.type === 'day');
    } catch {
      first = false;
    }
    if (monthFirst.size < 64) monthFirst.set(tag, first);
  }
  return first;
}
