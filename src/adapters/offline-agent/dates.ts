// Dates and times as people say or type them: "15 March 1995", "March 15th, 1995",
// "the third of May two thousand and one", "15/03/1995", "1995-03-15"; "2 PM", "10:30", "noon".

import { originalSpan, spokenToDigits } from './numbers.ts';
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

/** The first date in the text, or undefined. Relative dates ("tomorrow") are not understood. */
export function extractDate(text: string): Found<SpokenDate> | undefined {
  const digits = spokenToDigits(text);
  const valid = candidates(digits.text)
    .filter((c) => c.month >= 1 && c.month <= 12 && c.day >= 1 && c.day <= daysIn(c.month, c.year))
    .sort((a, b) => a.index - b.index);
  const c = valid[0];
  if (!c) return undefined;
  const [start, end] = originalSpan(digits, c.index, c.index + c.length);
  const spoken = c.spoken
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\p{L}+/gu, (w) => (monthNumber(w) > 0 && w.length >= 3 ? w[0]!.toUpperCase() + w.slice(1).toLowerCase() : w));
  return { value: { spoken, ...(c.year !== undefined ? { iso: isoOf(c.year, c.month, c.day) } : {}) }, start, end };
}

const AM_PM = /\b(\d{1,2})(?:[:.\s](\d{2}))?\s*([ap])\.?\s?m\b\.?/i;
const CLOCK = /\b(\d{1,2}):(\d{2})\b/;
const OCLOCK = /\b(\d{1,2})\s*o'?clock\b/i;
const NOON = /\b(noon|midday|midnight)\b/i;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** The first time of day in the text, or undefined. */
export function extractTime(text: string): Found<SpokenTime> | undefined {
  const digits = spokenToDigits(text);
  const t = digits.text;
  const found: { index: number; length: number; value: SpokenTime }[] = [];
  const ap = AM_PM.exec(t);
  if (ap) {
    const h = Number(ap[1]);
    const min = ap[2] === undefined ? 0 : Number(ap[2]);
    const pm = ap[3]!.toLowerCase() === 'p';
    if (h >= 1 && h <= 12 && min <= 59) {
      const h24 = (h % 12) + (pm ? 12 : 0);
      const spoken = `${h}${ap[2] === undefined ? '' : `:${pad(min)}`} ${pm ? 'PM' : 'AM'}`;
      found.push({ index: ap.index, length: ap[0].length, value: { spoken, hhmm: `${pad(h24)}:${pad(min)}` } });
    }
  }
  const clock = CLOCK.exec(t);
  if (clock && Number(clock[1]) <= 23 && Number(clock[2]) <= 59) {
    const hhmm = `${pad(Number(clock[1]))}:${clock[2]}`;
    found.push({ index: clock.index, length: clock[0].length, value: { spoken: hhmm, hhmm } });
  }
  const oclock = OCLOCK.exec(t);
  if (oclock && Number(oclock[1]) >= 1 && Number(oclock[1]) <= 12) {
    const h = Number(oclock[1]);
    found.push({ index: oclock.index, length: oclock[0].length, value: { spoken: `${h} o'clock`, hhmm: `${pad(h)}:00` } });
  }
  const noon = NOON.exec(t);
  if (noon) {
    const midnight = noon[1]!.toLowerCase() === 'midnight';
    found.push({ index: noon.index, length: noon[0].length, value: { spoken: midnight ? 'midnight' : '12 PM', hhmm: midnight ? '00:00' : '12:00' } });
  }
  const first = found.sort((a, b) => a.index - b.index)[0];
  if (!first) return undefined;
  const [start, end] = originalSpan(digits, first.index, first.index + first.length);
  return { value: first.value, start, end };
}
