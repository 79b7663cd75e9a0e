// Guard conditions on transitions: {variable, operator, value} and {age_of, operator, value},
// grouped by all: / any:. A date compares as a date (with today and days counted from it), an
// age in whole years, a number as a number, and text case-insensitively; a value may be another
// variable's (`"{arrival_date}"`).

import { ageOn, isTodayText, referencedVariable, resolveToday } from '../language/dates.ts';
import type { Condition, Guard, ValueType } from '../language/flow.ts';
import { pattern } from '../language/patterns.ts';
import { isRealDate } from '../language/values.ts';

/** What a guard reads: the visit's values, each variable's type, and the kiosk's date. */
export interface GuardContext {
  value(name: string): unknown;
  type(name: string): ValueType | undefined;
  /** today's date on the kiosk's clock, YYYY-MM-DD */
  today: string;
}

function isEmptyValue(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

function asNumber(v: unknown): number {
  return typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
}

/** A date a value stands for: a real YYYY-MM-DD, or today and days counted from it; else undefined. */
function asDate(v: unknown, today: string): string | undefined {
  if (typeof v !== 'string') return undefined;
  const text = v.trim();
  if (isRealDate(text)) return text;
  return isTodayText(text) ? resolveToday(text, today) : undefined;
}

function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  if (typeof a === 'number' || typeof b === 'number') return asNumber(a) === asNumber(b);
  return a === b;
}

/**
 * How `left` stands to `right`: below zero, zero or above, or NaN when they cannot be compared.
 * Dates compare as dates when the variable is a date, or when both sides are dates; else numbers.
 */
function order(left: unknown, right: unknown, asDates: boolean, today: string): number {
  const l = asDates || isRealDate(String(left)) ? asDate(left, today) : undefined;
  const r = l !== undefined ? asDate(right, today) : undefined;
  if (l !== undefined && r !== undefined) return l < r ? -1 : l > r ? 1 : 0;
  if (asDates) return NaN;
  return asNumber(left) - asNumber(right);
}

/** Whether `left` equals the condition's value `right` (a date as a date). */
function equal(left: unknown, right: unknown, asDates: boolean, today: string): boolean {
  if (asDates) {
    const l = asDate(left, today);
    return l !== undefined && l === asDate(right, today);
  }
  return same(left, right);
}

/**
 * The condition with each reference to another variable in its value (`"{arrival_date}"`) put in,
 * or undefined when one it names has no value: a comparison with nothing does not hold.
 */
function withReferences(c: Condition, ctx: GuardContext): Condition | undefined {
  const values = Array.isArray(c.value) ? c.value : [c.value];
  if (c.operator === 'matches' || !values.some((v) => referencedVariable(v) !== undefined)) return c;
  let unset = false;
  const put = (v: unknown) => {
    const name = referencedVariable(v);
    if (name === undefined) return v;
    const given = ctx.value(name);
    if (isEmptyValue(given)) unset = true;
    return given;
  };
  const value = Array.isArray(c.value) ? c.value.map(put) : put(c.value);
  return unset ? undefined : { ...c, value };
}

export function holds(c: Condition, ctx: GuardContext): boolean {
  const resolved = withReferences(c, ctx);
  if (!resolved) return false;
  c = resolved;
  const raw = ctx.value(c.variable);
  // An age is the whole years since the date, today; no date, no age.
  const v = c.age ? (typeof raw === 'string' && isRealDate(raw) ? ageOn(raw, ctx.today) : undefined) : raw;
  const asDates = !c.age && ctx.type(c.variable) === 'date';
  switch (c.operator) {
    case 'empty':
      return isEmptyValue(v);
    case 'not_empty':
      return !isEmptyValue(v);
    case 'eq':
      return equal(v, c.value, asDates, ctx.today);
    case 'neq':
      return !equal(v, c.value, asDates, ctx.today);
    case 'in':
      return Array.isArray(c.value) && c.value.some((x) => equal(v, x, asDates, ctx.today));
    case 'not_in':
      return Array.isArray(c.value) && !c.value.some((x) => equal(v, x, asDates, ctx.today));
    case 'gt':
      return order(v, c.value, asDates, ctx.today) > 0;
    case 'lt':
      return order(v, c.value, asDates, ctx.today) < 0;
    case 'gte':
      return order(v, c.value, asDates, ctx.today) >= 0;
    case 'lte':
      return order(v, c.value, asDates, ctx.today) <= 0;
    case 'matches': {
      const re = typeof c.value === 'string' ? pattern(c.value, 'i') : null;
      return re !== null && re.test(v === undefined || v === null ? '' : String(v));
    }
  }
}

export function guardHolds(g: Guard | Condition, ctx: GuardContext): boolean {
  if ('all' in g) return g.all.every((c) => guardHolds(c, ctx));
  if ('any' in g) return g.any.some((c) => guardHolds(c, ctx));
  return holds(g, ctx);
}
