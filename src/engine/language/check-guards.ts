// Meaning checks on guards and the branches they choose between: each condition names a variable
// that exists and compares it with a value of its kind (a date with a date or today, a number with
// a number, an enum with one of its choices, an age with a date variable; another variable's value,
// `"{arrival_date}"`, of the same kind), and a list of branches
// has no branch after an unguarded one and ends with one, so no visitor is stuck.

import type { Catalog, VariableInfo } from './catalog.ts';
import { COMPARABLE_TEXT, isTodayText, referencedVariable, TODAY } from './dates.ts';
import { didYouMean } from './diagnostics.ts';
import { conditionsOf, stateBranches } from './branches.ts';
import type { Branch, Condition, Flow, SourcePath } from './flow.ts';
import type { Reporter } from './source.ts';
import { article } from './type-check.ts';
import { convertValue, isRealDate } from './values.ts';

/** What the guard checks need from the meaning checks around them. */
export interface GuardChecks {
  r: Reporter;
  cat: Catalog;
  checkVar(name: string, path: SourcePath, what: string): void;
  compiles(pattern: string, path: SourcePath, flags?: string, what?: string): RegExp | undefined;
}

const ORDERING = new Set(['gt', 'lt', 'gte', 'lte']);
const COMPARABLE = new RegExp(COMPARABLE_TEXT);

/** A condition's value, or each of its values for in and not_in, with where each is written. */
function valuesOf(c: Condition): { value: unknown; at: SourcePath }[] {
  if ((c.operator === 'in' || c.operator === 'not_in') && Array.isArray(c.value)) return c.value.map((value, i) => ({ value, at: [...c.at, 'value', i] }));
  return c.value === undefined ? [] : [{ value: c.value, at: [...c.at, 'value'] }];
}

/** Why `value` cannot be compared with the variable `v` under `operator`, with the fix; undefined when it can. */
function mismatch(v: VariableInfo, operator: string, value: unknown): string | undefined {
  const ordering = ORDERING.has(operator);
  // A value no ordering can take is refused by the syntax table already.
  if (ordering && typeof value === 'string' && !COMPARABLE.test(value)) return undefined;
  if (v.type === 'date') {
    if (typeof value === 'string' && (isRealDate(value.trim()) || isTodayText(value))) return undefined;
    return `"${v.name}" is a date, so it is compared with a date (2008-11-24), today, or a day counted from today (today - 18 years, today + 7 days), not ${JSON.stringify(value)}`;
  }
  if (ordering && ['number', 'integer'].includes(v.type)) {
    return convertValue('number', value).ok ? undefined : `"${v.name}" is a number, so ${operator} compares it with a number, not ${JSON.stringify(value)}`;
  }
  if (ordering && v.type !== 'string') {
    return `${operator} compares numbers and dates, but "${v.name}" is ${article(v.type)} ${v.type}: use eq, neq, in or not_in`;
  }
  if (ordering || v.type === 'string' || v.type === 'object') return undefined;
  const c = convertValue(v.type, value, v.enum);
  if (c.ok) return undefined;
  const choices = v.type === 'enum' ? (v.enum ?? []).map(String) : [];
  return `"${v.name}" is ${article(v.type)} ${v.type}, so it can never equal ${JSON.stringify(value)}: ${c.problem}${didYouMean(String(value), choices)}`;
}

const NUMBERS = new Set(['number', 'integer']);

/**
 * Why the variable `v` cannot be compared with the variable `w` (named as a value, `"{w}"`) under
 * `operator`: a date with a date, a number with a number; text (a string, an enum) with any value.
 */
function referenceMismatch(v: VariableInfo, operator: string, w: VariableInfo): string | undefined {
  const kind = (x: VariableInfo) => (x.type === 'date' ? 'date' : NUMBERS.has(x.type) ? 'number' : 'text');
  if (ORDERING.has(operator) && kind(v) === 'text' && v.type !== 'string') return `${operator} compares numbers and dates, but "${v.name}" is ${article(v.type)} ${v.type}: use eq, neq, in or not_in`;
  if (kind(v) === 'text' || kind(v) === kind(w)) return undefined;
  return `"${v.name}" is ${article(v.type)} ${v.type}, so it is compared with ${kind(v) === 'date' ? 'a date' : 'a number'}, but "${w.name}" is ${article(w.type)} ${w.type}`;
}

/** One condition: its variable exists, its values fit the variable's type, its pattern compiles. */
function checkCondition(g: GuardChecks, c: Condition): void {
  g.checkVar(c.variable, [...c.at, c.age ? 'age_of' : 'variable'], 'a guard');
  const v = g.cat.variables.get(c.variable);
  if (c.operator === 'matches' && typeof c.value === 'string') g.compiles(c.value, [...c.at, 'value'], 'i', 'guard pattern');
  if (!v || c.operator === 'matches' || c.operator === 'empty' || c.operator === 'not_empty') return;
  if (c.age) {
    if (v.type !== 'date') g.r.error('type-mismatch', [...c.at, 'age_of'], `age_of counts the years since a date, but "${c.variable}" is ${article(v.type)} ${v.type}: give it type: date`);
    return;
  }
  for (const { value, at } of valuesOf(c)) {
    const named = referencedVariable(value);
    if (named !== undefined) g.checkVar(named, at, 'a guard');
    const w = named === undefined ? undefined : g.cat.variables.get(named);
    const why = named === undefined ? mismatch(v, c.operator, value) : w && referenceMismatch(v, c.operator, w);
    if (why) g.r.error('type-mismatch', at, why);
  }
}

/**
 * Every condition of each branch's guard, and the order of the branches. `decision`: the branches
 * of a decision step, which must always decide (an error where others only may block).
 */
export function checkBranchGuards(g: GuardChecks, bs: readonly Branch[], decision = false): void {
  for (const b of bs) if (b.guard) for (const c of conditionsOf(b.guard)) checkCondition(g, c);
  const open = bs.findIndex((b) => !b.guard && !b.status);
  if (open >= 0 && open < bs.length - 1) {
    for (const b of bs.slice(open + 1)) {
      g.r.warn('never-taken', b.at, `this branch is never tried: the branch before it (entry ${open + 1}) has no guard, so it is always taken first; put the guarded branches first and the unguarded one last`);
    }
  } else if (open < 0 && decision) {
    g.r.error('may-block', bs[bs.length - 1]!.at, 'a decision step must always decide: when no guard holds there is no step to show and nothing the visitor could do; end the list with a branch without a guard');
  } else if (open < 0 && bs.length > 1) {
    g.r.warn('may-block', bs[bs.length - 1]!.at, 'when no guard of this list holds, the move is blocked (guard_failed) and the visitor stays where they are: end the list with a branch without a guard, the way on when no condition holds');
  }
}

/**
 * Where the flow first reads today's date, if it does: a state (in the order written) whose guards
 * compare with today or an age, whose fields are bounded by today, or that sets a date to today; a
 * variable whose default is today; or a `{today}` in any of its texts.
 */
export function todayUse(flow: Flow): string | undefined {
  const today = (c: Condition) => c.age || (Array.isArray(c.value) ? c.value : [c.value]).some(isTodayText);
  const setsToday = (values: Readonly<Record<string, unknown>>) => Object.values(values).some(isTodayText);
  const state = flow.stateOrder.find((id) => {
    const s = flow.states[id]!;
    return (
      stateBranches(s).some((b) => (b.guard !== undefined && conditionsOf(b.guard).some(today)) || setsToday(b.set)) ||
      (s.ui?.fields ?? []).some((f) => isTodayText(f.min) || isTodayText(f.max)) ||
      [...s.onEnter, ...s.onExit].some((h) => h.kind === 'set' && setsToday(h.values))
    );
  });
  if (state !== undefined) return `in state "${state}"`;
  const variable = Object.values(flow.variables).find((v) => isTodayText(v.default));
  if (variable) return `the default of "${variable.name}"`;
  if (!Object.hasOwn(flow.variables, TODAY) && JSON.stringify(flow).includes(`{${TODAY}}`)) return 'a text reads {today}';
  return undefined;
}
