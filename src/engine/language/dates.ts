// Dates in guards: `today` and `today - 18 years` as a value to compare a date with, a person's age
// in whole years, and the kiosk's own date from its clock; and another variable's value as a
// guard's value (`{arrival_date}`). A date is always YYYY-MM-DD (values.ts), so two real dates
// compare as texts do; these give the dates to compare.

/** A date relative to today, as a guard writes it: `today`, `today + 7 days`, `today - 18 years`. */
export const TODAY_TEXT = String.raw`today(?:\s*[+-]\s*\d+\s*(?:days?|weeks?|months?|years?))?`;

/** Another variable's value as a guard's value: `"{arrival_date}"`. */
export const REFERENCE_TEXT = String.raw`\{[A-Za-z_][A-Za-z0-9_]*\}`;

/**
 * A value `lt`, `lte`, `gt` and `gte` can compare with: a number, a date, a date relative to
 * today, or another variable's value (`{arrival_date}`).
 */
export const COMPARABLE_TEXT = String.raw`^\s*(?:-?\d+(?:\.\d+)?|\d{4}-\d{2}-\d{2}|${TODAY_TEXT}|${REFERENCE_TEXT})\s*$`;

const REFERENCE = new RegExp(String.raw`^\s*\{([A-Za-z_][A-Za-z0-9_]*)\}\s*$`);

/** The variable a guard's value names (`"{arrival_date}"` names arrival_date), or undefined for a plain value. */
export function referencedVariable(value: unknown): string | undefined {
  return typeof value === 'string' ? REFERENCE.exec(value)?.[1] : undefined;
}

const RELATIVE = new RegExp(`^\\s*${TODAY_TEXT}\\s*$`);
const PARTS = /^\s*today(?:\s*([+-])\s*(\d+)\s*(day|week|month|year)s?)?\s*$/;

/**
 * The name a template reads the kiosk's date by (`"{today}"`, YYYY-MM-DD in a body, the date in
 * words where a visitor reads it), unless the flow has a variable of that name.
 */
export const TODAY = 'today';

/** Whether a text is `today` or a date relative to it. */
export function isTodayText(text: unknown): text is string {
  return typeof text === 'string' && RELATIVE.test(text);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The calendar date of a moment (ms since 1970) on the kiosk's own clock, in its own time zone. */
export function dayOf(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The moment (ms) of noon on a date in the kiosk's time zone: a day that `dayOf` reads back. */
export function noonOf(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const at = new Date(2000, 0, 1, 12);
  at.setFullYear(y, m - 1, d);
  return at.getTime();
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * A date moved by whole days, weeks, months or years. Moving by months or years keeps the day of
 * the month where the month has it, else takes its last day (March 31 less a month is February 28
 * or 29; February 29 plus a year is February 28).
 */
export function shiftDate(date: string, amount: number, unit: 'day' | 'week' | 'month' | 'year'): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  if (unit === 'day' || unit === 'week') {
    const t = new Date(Date.UTC(2000, 0, 1));
    t.setUTCFullYear(y, m - 1, d + amount * (unit === 'week' ? 7 : 1));
    return `${pad(t.getUTCFullYear(), 4)}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
  }
  const months = y * 12 + (m - 1) + amount * (unit === 'year' ? 12 : 1);
  const year = Math.floor(months / 12);
  const month = (months % 12) + 1;
  return `${pad(year, 4)}-${pad(month)}-${pad(Math.min(d, daysIn(year, month)))}`;
}

/** The date a `today…` text stands for on `today` (YYYY-MM-DD), or undefined when it is not one. */
export function resolveToday(text: string, today: string): string | undefined {
  const m = PARTS.exec(text);
  if (!m) return undefined;
  if (m[1] === undefined) return today;
  return shiftDate(today, (m[1] === '-' ? -1 : 1) * Number(m[2]), m[3] as 'day' | 'week' | 'month' | 'year');
}

/**
 * A person's age in whole years on `today`, born on `birth` (both YYYY-MM-DD): the years since,
 * less one before this year's birthday. Someone born on February 29 is a year older on March 1 in
 * a year without that day.
 */
export function ageOn(birth: string, today: string): number {
  const [by, bm, bd] = birth.split('-').map(Number) as [number, number, number];
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  const before = tm < bm || (tm === bm && td < bd);
  return ty - by - (before ? 1 : 0);
}
