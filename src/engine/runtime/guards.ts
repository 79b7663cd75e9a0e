// Guard conditions on transitions: {variable, operator, value}, grouped by all: / any:.

import type { Condition, Guard } from '../language/flow.ts';
import { pattern } from '../language/patterns.ts';
import { own } from '../language/records.ts';

function isEmptyValue(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

function asNumber(v: unknown): number {
  return typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
}

function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  if (typeof a === 'number' || typeof b === 'number') return asNumber(a) === asNumber(b);
  return a === b;
}

export function holds(c: Condition, values: Readonly<Record<string, unknown>>): boolean {
  const v = own(values, c.variable);
  switch (c.operator) {
    case 'empty':
      return isEmptyValue(v);
    case 'not_empty':
      return !isEmptyValue(v);
    case 'eq':
      return same(v, c.value);
    case 'neq':
      return !same(v, c.value);
    case 'in':
      return Array.isArray(c.value) && c.value.some((x) => same(v, x));
    case 'not_in':
      return Array.isArray(c.value) && !c.value.some((x) => same(v, x));
    case 'gt':
      return asNumber(v) > asNumber(c.value);
    case 'lt':
      return asNumber(v) < asNumber(c.value);
    case 'gte':
      return asNumber(v) >= asNumber(c.value);
    case 'lte':
      return asNumber(v) <= asNumber(c.value);
    case 'matches': {
      const re = typeof c.value === 'string' ? pattern(c.value, 'i') : null;
      return re !== null && re.test(v === undefined || v === null ? '' : String(v));
    }
  }
}

export function guardHolds(g: Guard | Condition, values: Readonly<Record<string, unknown>>): boolean {
  if ('all' in g) return g.all.every((c) => guardHolds(c, values));
  if ('any' in g) return g.any.some((c) => guardHolds(c, values));
  return holds(g, values);
}
