// The part of the syntax table (syntax.ts) that says where a transition leads: a target, a branch
// with its guard and values to set, and the conditions a guard is made of.

import { COMPARABLE_TEXT } from './dates.ts';
import { any, arr, map, matching, num, obj, regex, req, str, union, type Shape } from './shapes.ts';

export const OPERATORS = [
  'eq',
  'neq',
  'in',
  'not_in',
  'empty',
  'not_empty',
  'gt',
  'lt',
  'gte',
  'lte',
  'matches',
] as const;

export const variableName = str('a variable name');
export const stateName = str('a state id, or __end__');

/** Operators that compare a value as a number or a date. */
const ORDERING = ['gt', 'lt', 'gte', 'lte'] as const;

/** What an age (`age_of`) can be compared with: a number of whole years. */
const AGE_OPERATORS = ['eq', 'neq', 'gt', 'lt', 'gte', 'lte'] as const;

export const condition = obj(
  {
    variable: variableName,
    age_of: str('a date variable: the condition is on the age in whole years, today, of that date (age_of: date_of_birth, operator: gte, value: 18)'),
    operator: req(str('how to compare', OPERATORS)),
    value: any('the value to compare with (not used by empty / not_empty); a date may be today, today + 7 days or today - 18 years; "{name}" alone is the value of the variable name'),
  },
  'one condition on a variable, or on the age of a date',
  [
    { kind: 'one-of', keys: ['variable', 'age_of'], why: 'a condition is on a variable (variable: name) or on the age of a date (age_of: date_of_birth), one of the two' },
    { kind: 'when', key: 'operator', values: ['in', 'not_in'], require: ['value'], shapes: { value: arr(any(), 'the values', { count: 1, why: 'in and not_in need at least one value in the list' }) }, why: 'in and not_in take a list of values: value: [a, b]' },
    { kind: 'when', key: 'operator', values: ['empty', 'not_empty'], forbid: ['value'], why: 'empty and not_empty look at the variable alone: remove value' },
    { kind: 'when', key: 'operator', values: ['eq', 'neq', 'matches', ...ORDERING], require: ['value'], why: 'this operator compares the variable with a value: give value' },
    {
      kind: 'when',
      key: 'operator',
      values: ORDERING,
      shapes: { value: union([num(), matching('a number or a date', COMPARABLE_TEXT, (v) => `"${v}" cannot be compared as a number or a date: gt, lt, gte and lte take a number, a date (2008-11-24), today, or a day counted from it (today - 18 years, today + 7 days), or another variable's value written alone in braces ("{arrival_date}"); for text use eq, in or matches`)]) },
      why: 'gt, lt, gte and lte take a number, a date (2008-11-24), today (today - 18 years) or another variable\'s value ("{arrival_date}")',
    },
    { kind: 'when', key: 'operator', values: ['matches'], shapes: { value: regex('a regular expression, matched case-insensitively') }, why: 'matches takes a regular expression, as text' },
    {
      kind: 'when',
      key: 'age_of',
      shapes: { operator: str('how to compare an age', AGE_OPERATORS), value: num('an age in whole years', { integer: true, min: 0 }) },
      why: 'an age (age_of) is compared with a number of whole years: operator eq, neq, gt, lt, gte or lte, and value: 18',
    },
  ],
);

// Guards nest: a group's items are conditions or groups, to any depth. The item shape refers to
// the group shape, which is added to it once made (the JSON Schema names it, so $ref closes the loop).
const guardItems: Shape[] = [condition];
const guardItem = union(guardItems, 'a condition, or a nested all: / any: group');
export const guard: Shape = {
  ...union(
    [
      obj({ all: req(arr(guardItem, undefined, { count: 1, why: 'an empty all: always holds: give it a condition, or remove the guard' })) }, 'every item holds'),
      obj({ any: req(arr(guardItem, undefined, { count: 1, why: 'an empty any: never holds: give it a condition' })) }, 'at least one item holds'),
    ],
    'a condition group: all: [...] or any: [...]',
  ),
  mistake: (v) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) && !('all' in v) && !('any' in v) && ('variable' in v || 'age_of' in v || 'operator' in v)
      ? 'a guard is a group of conditions: wrap this condition in all: (guard: { all: [ { variable: …, operator: …, value: … } ] }), or any: when one of several may hold'
      : undefined,
};
guardItems.push(guard);

const httpStatus = num('an HTTP status of the answer, 300 to 599', { integer: true, min: 300, max: 599 });

export const branch = obj(
  {
    target: req(stateName),
    set: map(any(), 'variables to set when this branch is taken'),
    guard,
    status: union([httpStatus, arr(httpStatus)], 'on_action_failed only: the branch is for an answer with this status (or one of these), e.g. 404'),
  },
  'a target with optional values to set and a guard',
);

/** A transition target: a state id, one branch, or a list of branches (first whose guard holds). */
export const targetSpec: Shape = union(
  [stateName, branch, arr(union([branch, stateName]), 'branches, tried in order')],
  'a state id, {target, set, guard}, or a list of those',
);

