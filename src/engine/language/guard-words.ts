// A guard said in words, for the people who read a flow's drawing (`vfdl graph`, the studio's
// diagram): "age from date_of_birth is 18 or more", "visit_reason is appointment or walk_in".
// The words follow the operators' meaning in runtime/guards.ts; a date is compared in time words.

import type { Condition, Flow, Guard } from './flow.ts';

/** A value as a reader writes it: a bare word or number as it is, other text in quotes, a list joined by "or". */
function shown(value: unknown): string {
  if (Array.isArray(value)) return value.map(shown).join(', ');
  if (typeof value === 'string') return /^[\p{L}\p{N}_.:+-]+$/u.test(value) || /^today\b/.test(value) ? value : `“${value}”`;
  if (value === null || value === undefined) return 'nothing';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** One condition in words; `date`: the variable holds a date (so gt is "after", lt "before"). */
export function conditionWords(c: Condition, date = false): string {
  const who = c.age ? `age from ${c.variable}` : c.variable;
  const v = shown(c.value);
  const timely = date && !c.age;
  switch (c.operator) {
    case 'eq':
      return `${who} is ${v}`;
    case 'neq':
      return `${who} is not ${v}`;
    case 'in':
      return Array.isArray(c.value) && c.value.length > 1 ? `${who} is one of ${v}` : `${who} is ${v}`;
    case 'not_in':
      return Array.isArray(c.value) && c.value.length > 1 ? `${who} is none of ${v}` : `${who} is not ${v}`;
    case 'empty':
      return `${who} is not given`;
    case 'not_empty':
      return `${who} is given`;
    case 'gt':
      return timely ? `${who} is after ${v}` : `${who} is more than ${v}`;
    case 'lt':
      return timely ? `${who} is before ${v}` : `${who} is less than ${v}`;
    case 'gte':
      return timely ? `${who} is ${v} or later` : `${who} is ${v} or more`;
    case 'lte':
      return timely ? `${who} is ${v} or earlier` : `${who} is ${v} or less`;
    case 'matches':
      return `${who} matches ${shown(c.value)}`;
  }
}

/**
 * A guard in words: its conditions joined by "and" (`all`) or "or" (`any`), a nested group in
 * brackets. `flow` tells which variables are dates.
 */
export function guardWords(guard: Guard | Condition, flow?: Pick<Flow, 'variables'>): string {
  const isDate = (name: string) => flow !== undefined && Object.hasOwn(flow.variables, name) && flow.variables[name]!.type === 'date';
  const say = (g: Guard | Condition, nested: boolean): string => {
    if ('variable' in g) return conditionWords(g, isDate(g.variable));
    const [items, joint] = 'all' in g ? [g.all, ' and '] : [g.any, ' or '];
    const text = items.map((item) => say(item, true)).join(joint);
    return nested && items.length > 1 ? `(${text})` : text;
  };
  return say(guard, false);
}
