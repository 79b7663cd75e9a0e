// Dates and times as people say or type them: "15 March 1995", "March 15th, 1995",
// "the third of May two thousand and one", "15/03/1995", "1995-03-15"; "2 PM", "10:30", "noon",
// "half past ten", "ten thirty". Dates that name no real day ("31 February") are found as such,
// and dates are said back one way: "March 5, 1984".

import { originalSpan, spokenToDigits, type DigitText } from './numbers.ts';
import type { Found } from './text.ts';

/** A date as said ("15 March 1995") and, when it names a real day with its year, as YYYY-MM-DD. */
export interface SpokenDate {
  spoken: string;
  iso?: string;
}

/** A time of day as said ("2:30 PM") and on a 24-hour clock ("14:30"). */
export interface SpokenTime {
  spoken: string;
  hhmm: string;
}

const MONTHS: readonly string[] = [
  'january', 'february', 'march', 'april', 'may', 'june',
  'july', 'august', 'september', 'october', 'november', 'december',
];
const MONTH = '(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\\.?';
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
const YEAR = '(\\d{4})';

const ISO = /\b(\d{4})-(\d{1,2})-(\d{1,2})\b/;
const NUMERIC = /\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\b/;
const DAY_MONTH = new RegExp(`\\b(?:the\\s+)?${DAY}(?:\\s+of)?\\s+${MONTH}(?:,?\\s+${YEAR})?(?![\\w])`, 'i');
const MONTH_DAY = new RegExp(`\\b${MONTH}\\s+(?:the\\s+)?${DAY}(?:,?\\s+${YEAR})?(?![\\w])`, 'i');

function monthNumber(name: string): number {
  const lower = name.toLowerCase();
  return MONTHS.findIndex((m) => m.startsWith(lower.slice(0, 3))) + 1;
}

function daysIn(month: number, year: number | undefined): number {
  if (month === 2) return year === undefined || (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isoOf(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

interface Candidate {
  index: number;
  length: number;
  day: number;
  month: number;
  year?: number;
  spoken: string;
}

function candidates(text: string): Candidate[] {
  const out: Candidate[] = [];
  const add = (m: RegExpExecArray | null, read: (m: RegExpExecArray) => Omit<Candidate, 'index' | 'length' | 'spoken'>, spoken = m?.[0]) => {
    if (m && spoken !== undefined) out.push({ index: m.index, length: m[0].length, spoken, ...read(m) });
  };
  add(ISO.exec(text), (m) => ({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) }));
  const numeric = NUMERIC.exec(text);
  add(numeric, (m) => {
    const [a, b] = [Number(m[1]), Number(m[2])];
    // Day first unless that cannot be (15/03/1995 and 03/15/1995 both work; 03/04 reads as 3 April).
    return b > 12 && a <= 12 ? { day: b, month: a, year: Number(m[3]) } : { day: a, month: b, year: Number(m[3]) };
  });
  const dm = DAY_MONTH.exec(text);
  add(dm, (m) => ({ day: Number(m[1]), month: monthNumber(m[2]!), ...(m[3] ? { year: Number(m[3]) } : {}) }), dm?.[0].replace(/^the\s+/i, ''));
  add(MONTH_DAY.exec(text), (m) => ({ day: Number(m[2]), month: monthNumber(m[1]!), ...(m[3] ? { year: Number(m[3]) } : {}) }));
  return out;
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
function datesIn(text: string): { digits: DigitText; found: Candidate[] } {
  const digits = spokenToDigits(text);
  const found = candidates(digits.text)
    .filter((c) => c.month >= 1 && c.month <= 12)
    .sort((a, b) => a.index - b.index);
  return { digits, found };
}

/** The first date in the text, or undefined. Relative dates ("tomorrow") are not understood. */
export function extractDate(text: string): Found<SpokenDate> | undefined {
  const { digits, found } = datesIn(text);
  const c = found.find(isReal);
  if (!c) return undefined;
  const [start, end] = originalSpan(digits, c.index, c.index + c.length);
  const spoken = c.spoken
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\p{L}+/gu, (w) => (monthNumber(w) > 0 && w.length >= 3 ? w[0]!.toUpperCase() + w.slice(1).toLowerCase() : w));
  return { value: { spoken, ...(c.year !== undefined ? { iso: isoOf(c.year, c.month, c.day) } : {}) }, start, end };
}

/** A date said with a day its month does not have ("the 30th of February"), when no real date comes before it. */
export function extractImpossibleDate(text: string): Found<ImpossibleDate> | undefined {
  const { digits, found } = datesIn(text);
  const c = found[0];
  if (!c || isReal(c) || c.day < 1) return undefined;
  const [start, end] = originalSpan(digits, c.index, c.index + c.length);
  return { value: { month: c.month, days: daysIn(c.month, c.year), ...(c.year !== undefined ? { year: c.year } : {}) }, start, end };
}

/** The calendar day (in the kiosk's time zone) of a moment in milliseconds, as YYYY-MM-DD. */
export function dayOf(time: number): string {
  const d = new Date(time);
  return isoOf(d.getFullYear(), d.getMonth() + 1, d.getDate());
}

/** "March" for 3. */
export function monthName(month: number): string {
  const name = MONTHS[month - 1] ?? '';
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** A YYYY-MM-DD date as the kiosk says it: "March 5, 1984" (the way the engine shows dates in en-US). */
export function dateInWords(iso: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  const [year, month, day] = [Number(m?.[1]), Number(m?.[2]), Number(m?.[3])];
  if (!m || month < 1 || month > 12 || !isReal({ day, month, year })) return undefined;
  return `${monthName(month)} ${day}, ${year}`;
}

const AM_PM = /\b(\d{1,2})(?:[:.\s](\d{2}))?\s*([ap])\.?\s?m\b\.?/i;
const CLOCK = /\b(\d{1,2}):(\d{2})\b/;
const OCLOCK = /\b(\d{1,2})\s*o'?clock\b/i;
const NOON = /\b(noon|midday|midnight)\b/i;
const PAST_TO = /\b(half|(?:a\s+)?quarter)\s+(past|to)\s+(\d{1,2})\b/i;
const SAID_PAIR = /\b(\d{1,2}) (\d{2})\b/;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** A time on a clock without AM or PM: "10:30" both ways. */
function clockTime(h: number, min: number): SpokenTime {
  return { spoken: `${h}:${pad(min)}`, hhmm: `${pad(h)}:${pad(min)}` };
}

/** Reads one way of saying a time from the digit text; `said` gives the original words of a match. */
type TimeReader = (t: string, said: (m: RegExpExecArray) => string) => { m: RegExpExecArray; value: SpokenTime } | undefined;

/** Each way of saying a time: the match in the digit text and the time it means. */
const TIME_READERS: readonly TimeReader[] = [
  (t) => {
    const m = AM_PM.exec(t);
    const [h, min, pm] = [Number(m?.[1]), m?.[2] === undefined ? 0 : Number(m[2]), m?.[3]?.toLowerCase() === 'p'];
    if (!m || h < 1 || h > 12 || min > 59) return undefined;
    const spoken = `${h}${m[2] === undefined ? '' : `:${pad(min)}`} ${pm ? 'PM' : 'AM'}`;
    return { m, value: { spoken, hhmm: `${pad((h % 12) + (pm ? 12 : 0))}:${pad(min)}` } };
  },
  (t) => {
    const m = CLOCK.exec(t);
    if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return undefined;
    const hhmm = `${pad(Number(m[1]))}:${m[2]}`;
    return { m, value: { spoken: hhmm, hhmm } };
  },
  (t) => {
    const m = OCLOCK.exec(t);
    const h = Number(m?.[1]);
    return m && h >= 1 && h <= 12 ? { m, value: { spoken: `${h} o'clock`, hhmm: `${pad(h)}:00` } } : undefined;
  },
  (t) => {
    const m = NOON.exec(t);
    const midnight = m?.[1]?.toLowerCase() === 'midnight';
    return m ? { m, value: { spoken: midnight ? 'midnight' : '12 PM', hhmm: midnight ? '00:00' : '12:00' } } : undefined;
  },
  // "half past ten", "a quarter to eleven"
  (t) => {
    const m = PAST_TO.exec(t);
    const [h, half, past] = [Number(m?.[3]), m?.[1]?.toLowerCase() === 'half', m?.[2]?.toLowerCase() === 'past'];
    if (!m || h < 1 || h > 12 || (half && !past)) return undefined;
    if (past) return { m, value: clockTime(h, half ? 30 : 15) };
    return { m, value: clockTime(h === 1 ? 12 : h - 1, 45) };
  },
  // "ten thirty": both numbers said in words (typed "10 30" could be anything)
  (t, said) => {
    const m = SAID_PAIR.exec(t);
    const [h, min] = [Number(m?.[1]), Number(m?.[2])];
    if (!m || h < 1 || h > 12 || min < 10 || min > 59 || /\d/.test(said(m))) return undefined;
    return { m, value: clockTime(h, min) };
  },
];

/** The first time of day in the text, or undefined. */
export function extractTime(text: string): Found<SpokenTime> | undefined {
  const digits = spokenToDigits(text);
  const said = (m: RegExpExecArray) => text.slice(...originalSpan(digits, m.index, m.index + m[0].length));
  const found = TIME_READERS.flatMap((read) => read(digits.text, said) ?? []).sort((a, b) => a.m.index - b.m.index);
  const first = found[0];
  if (!first) return undefined;
  const [start, end] = originalSpan(digits, first.m.index, first.m.index + first.m[0].length);
  return { value: first.value, start, end };
}
