// Field validation: what a form field may say a value must be (`pattern`, `min_length`,
// `max_length` for text; `min`, `max` for a number or a date, a date bound counted from today if
// need be), with the `message` the visitor reads when it is not. The rules belong to the field's
// variable: the form, the engine (a value from any source) and `vfdl check` all read them here.

import { resolveToday, TODAY_TEXT } from './dates.ts';
import type { Field, FieldProblem } from './flow.ts';
import { pattern } from './patterns.ts';
import { matching, num, str, type KeyRule } from './shapes.ts';
import { isRealDate } from './values.ts';

/** A date bound of a date field: a date, or today counted from. */
const DATE_BOUND_TEXT = String.raw`^\s*(?:\d{4}-\d{2}-\d{2}|${TODAY_TEXT})\s*$`;

/** What is wrong with a date field's bound that is no date, with the fix. */
function dateBoundProblem(v: string): string {
  return `"${v}" is not a date: a date field's min and max are a date (2000-01-01) or today, or a day counted from it (today - 18 years, today + 1 year)`;
}

const TEXT_KINDS = ['text', 'email', 'tel'];
const TEXT_ONLY = 'pattern, min_length and max_length are rules of a text field (type text, email or tel)';
const BOUNDED = 'min and max bound a number or a date field (type: number or type: date); the length of a text is min_length and max_length';

/** Which rules go with which kind of field, and the kind of each bound: for the syntax table. */
export const FIELD_RULES: readonly KeyRule[] = [
  { kind: 'when', key: 'min', require: ['type'], shapes: { type: str('a field with bounds', ['number', 'date']) }, why: BOUNDED },
  { kind: 'when', key: 'max', require: ['type'], shapes: { type: str('a field with bounds', ['number', 'date']) }, why: BOUNDED },
  { kind: 'when', key: 'type', values: ['number'], shapes: { min: num('the smallest number'), max: num('the largest number') }, why: "a number field's min and max are numbers" },
  {
    kind: 'when',
    key: 'type',
    values: ['date'],
    shapes: { min: matching('the earliest date', DATE_BOUND_TEXT, dateBoundProblem), max: matching('the latest date', DATE_BOUND_TEXT, dateBoundProblem) },
    why: "a date field's min and max are dates (2000-01-01) or today counted from (today - 18 years)",
  },
  ...['pattern', 'min_length', 'max_length'].map((key): KeyRule => ({ kind: 'when', key, shapes: { type: str('a text field', TEXT_KINDS) }, why: TEXT_ONLY })),
  { kind: 'when', key: 'case', shapes: { type: str('a text field', ['text']) }, why: 'case writes a text field\'s value in upper or lower case (type text): an email is kept in lower case already, and a number, a date or a choice has no case' },
];

/** A text in the case its field asks for (`case: upper`), else as it is. */
export function inCase(value: unknown, letterCase: 'upper' | 'lower' | undefined): unknown {
  if (typeof value !== 'string' || letterCase === undefined) return value;
  return letterCase === 'upper' ? value.toUpperCase() : value.toLowerCase();
}

/** Whether a field has any rule for its value. */
export function hasRules(f: Field): boolean {
  return f.pattern !== undefined || f.min !== undefined || f.max !== undefined || f.minLength !== undefined || f.maxLength !== undefined;
}

/** A date field's bound as a date on `today` (a number field's as it is). */
export function boundOn(bound: number | string | undefined, today: string): number | string | undefined {
  if (typeof bound !== 'string') return bound;
  const text = bound.trim();
  return isRealDate(text) ? text : resolveToday(text, today);
}

/**
 * The first rule of the field that `value` (already of the variable's type) breaks, or
 * undefined. A text is held to its pattern (not anchored, case-sensitive, as a parameter's) and
 * length; a number and a date to their bounds. `today` is the kiosk's date (YYYY-MM-DD).
 */
export function fieldProblem(f: Field, value: unknown, today: string): FieldProblem | undefined {
  const message = f.message !== undefined ? { message: f.message } : {};
  if (typeof value === 'number' && f.type === 'number') {
    if (typeof f.min === 'number' && value < f.min) return { rule: 'min', limit: f.min, ...message };
    if (typeof f.max === 'number' && value > f.max) return { rule: 'max', limit: f.max, ...message };
    return undefined;
  }
  if (typeof value !== 'string') return undefined;
  if (f.type === 'date') {
    const min = boundOn(f.min, today);
    const max = boundOn(f.max, today);
    if (typeof min === 'string' && value < min) return { rule: 'min', limit: min, ...message };
    if (typeof max === 'string' && value > max) return { rule: 'max', limit: max, ...message };
    return undefined;
  }
  if (f.minLength !== undefined && value.length < f.minLength) return { rule: 'min_length', limit: f.minLength, ...message };
  if (f.maxLength !== undefined && value.length > f.maxLength) return { rule: 'max_length', limit: f.maxLength, ...message };
  if (f.pattern !== undefined && !patternHolds(f.pattern, value)) return { rule: 'pattern', limit: f.pattern, ...message };
  return undefined;
}

function patternHolds(source: string, value: string): boolean {
  const re = pattern(source);
  return re === null || re.test(value); // vfdl check refuses a pattern that does not compile
}

/** What a broken rule is, for the LLM and the operator's log: "does not match ^[A-Z0-9]{6,10}$". */
export function problemText(p: FieldProblem): string {
  switch (p.rule) {
    case 'pattern':
      return `does not match ${String(p.limit)}`;
    case 'min_length':
      return `is shorter than ${String(p.limit)} characters`;
    case 'max_length':
      return `is longer than ${String(p.limit)} characters`;
    case 'min':
      return `is below the field's minimum, ${String(p.limit)}`;
    case 'max':
      return `is above the field's maximum, ${String(p.limit)}`;
  }
}
