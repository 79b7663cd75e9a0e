// Guards on dates, today and ages (issue 20): a date compares as a date, `today` and a day counted
// from it (`today - 18 years`) are the kiosk's own date, and `age_of` is an age in whole years,
// birthdays (February 29 too) counted as the law counts them. Plus what `vfdl check` says of a
// guard that could never do what its author meant.

import { describe, expect, it } from 'vitest';
import { ageOn, dayOf, noonOf, shiftDate } from '../../src/engine/language/dates.ts';
import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import { startFlow } from '../support/engine-harness.ts';

/** A sign-up whose form_submit takes `branches` (YAML list items at 10 spaces). */
const withBranches = (branches: string) => `
id: library_card
variables:
  date_of_birth: { type: date }
  visit_date: { type: date }
  age: { type: integer }
  kind: { enum: [adult, child] }
states:
  ask:
    ui:
      artifact_type: form
      fields:
        - { id: date_of_birth, type: date, label: Date of birth }
        - { id: visit_date, type: date, label: Visit }
        - { id: age, type: number, label: Age }
    transitions:
      on_ui_event:
        form_submit:
${branches}
  adult: { ui: { artifact_type: card, title: Adult } }
  child: { ui: { artifact_type: card, title: Child } }
`;

/** The sign-up going to adult when `guard` (YAML) holds, else to child. */
const signUp = (guard: string) => withBranches(`          - { target: adult, guard: ${guard} }\n          - { target: child }`);

/** Where a visit goes on `today` with these form values. */
function branch(guard: string, today: string, values: Record<string, unknown>): string {
  const h = startFlow(signUp(guard), noonOf(today));
  h.ui('form_submit', { values });
  return h.engine.view.state;
}

describe('dates in guards', () => {
  const adult = '{ all: [ { variable: date_of_birth, operator: lte, value: "2007-06-14" } ] }';
  it.each([
    ['1990-05-01', 'adult'],
    ['2007-06-14', 'adult'],
    ['2007-06-15', 'child'],
    ['2010-01-01', 'child'],
  ])('a date of birth %s compared with a written date goes to %s', (dob, where) => {
    expect(branch(adult, '2025-06-14', { date_of_birth: dob })).toBe(where);
  });

  const eighteen = '{ all: [ { variable: date_of_birth, operator: lte, value: today - 18 years } ] }';
  const ageEighteen = '{ all: [ { age_of: date_of_birth, operator: gte, value: 18 } ] }';
  it.each([
    ['2025-06-13', '2007-06-14', 'child'],
    ['2025-06-14', '2007-06-14', 'adult'],
    ['2026-02-28', '2008-02-29', 'child'],
    ['2026-03-01', '2008-02-29', 'adult'],
    ['2028-02-29', '2010-02-28', 'adult'],
  ])('on %s, born %s, is %s by today - 18 years and by age_of', (today, dob, where) => {
    expect(branch(eighteen, today, { date_of_birth: dob })).toBe(where);
    expect(branch(ageEighteen, today, { date_of_birth: dob })).toBe(where);
  });

  it('takes today and days counted forward from it', () => {
    const soon = '{ all: [ { variable: visit_date, operator: gte, value: today }, { variable: visit_date, operator: lte, value: today + 1 week } ] }';
    expect(branch(soon, '2025-12-28', { visit_date: '2026-01-04' })).toBe('adult');
    expect(branch(soon, '2025-12-28', { visit_date: '2026-01-05' })).toBe('child');
    expect(branch(soon, '2025-12-28', { visit_date: '2025-12-27' })).toBe('child');
    expect(branch('{ all: [ { variable: visit_date, operator: eq, value: today } ] }', '2025-12-28', { visit_date: '2025-12-28' })).toBe('adult');
  });

  it('does not hold with no date given', () => {
    expect(branch(ageEighteen, '2025-06-14', {})).toBe('child');
    expect(branch(eighteen, '2025-06-14', {})).toBe('child');
  });

  it('still compares numbers as numbers', () => {
    expect(branch('{ all: [ { variable: age, operator: gte, value: 18 } ] }', '2025-06-14', { age: '18' })).toBe('adult');
    expect(branch('{ all: [ { variable: age, operator: gt, value: "9" } ] }', '2025-06-14', { age: '10' })).toBe('adult');
  });

  it('counts months and years to the last day of a shorter month', () => {
    expect(shiftDate('2025-03-31', -1, 'month')).toBe('2025-02-28');
    expect(shiftDate('2024-02-29', 1, 'year')).toBe('2025-02-28');
    expect(shiftDate('2024-02-29', -18, 'year')).toBe('2006-02-28');
    expect(shiftDate('2025-12-28', 7, 'day')).toBe('2026-01-04');
    expect(ageOn('2008-02-29', '2026-02-28')).toBe(17);
    expect(dayOf(noonOf('2025-06-14'))).toBe('2025-06-14');
  });
});

/** The findings of `vfdl check` on the sign-up with this guard, as printed. */
function check(guard: string): string[] {
  return loadFlow(signUp(guard), 'f.yaml').diagnostics.map(formatDiagnostic);
}

describe('vfdl check on guards', () => {
  it.each([
    ['gt against a word', '{ all: [ { variable: age, operator: gt, value: high } ] }', 'error: "high" cannot be compared as a number or a date'],
    ['in with one value', '{ all: [ { variable: kind, operator: in, value: adult } ] }', 'error: in and not_in take a list of values: value: [a, b]'],
    ['eq without a value', '{ all: [ { variable: kind, operator: eq } ] }', 'error: this operator compares the variable with a value: give value'],
    ['empty with a value', '{ all: [ { variable: kind, operator: empty, value: adult } ] }', 'error: empty and not_empty look at the variable alone: remove value'],
    ['eq outside the enum', '{ all: [ { variable: kind, operator: eq, value: adults } ] }', 'error: "kind" is an enum, so it can never equal "adults": expected one of adult, child (did you mean "adult"?)'],
    ['gt on an enum', '{ all: [ { variable: kind, operator: gt, value: 3 } ] }', 'error: gt compares numbers and dates, but "kind" is an enum: use eq, neq, in or not_in'],
    ['a date against a number', '{ all: [ { variable: date_of_birth, operator: lt, value: 2008 } ] }', 'error: "date_of_birth" is a date, so it is compared with a date (2008-11-24), today'],
    ['the age of a number', '{ all: [ { age_of: age, operator: gte, value: 18 } ] }', 'error: age_of counts the years since a date, but "age" is an integer: give it type: date'],
    ['an age against a date', '{ all: [ { age_of: date_of_birth, operator: gte, value: "2007-01-01" } ] }', 'error: an age (age_of) is compared with a number of whole years'],
    ['an empty all', '{ all: [] }', 'error: an empty all: always holds'],
    ['a bare condition', '{ variable: kind, operator: eq, value: adult }', 'error: a guard is a group of conditions: wrap this condition in all:'],
  ])('%s', (_, guard, finding) => {
    const found = check(guard).filter((l) => l.includes(': error: '));
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(finding);
  });

  it('warns of branches after an unguarded one and of a list that can block', () => {
    const adult = '{ target: adult, guard: { all: [ { variable: kind, operator: eq, value: adult } ] } }';
    const after = loadFlow(withBranches(`          - { target: child }\n          - ${adult}`), 'f.yaml').diagnostics.map(formatDiagnostic);
    expect(after).toEqual(['f.yaml:20:23: warning: this branch is never tried: the branch before it (entry 1) has no guard, so it is always taken first; put the guarded branches first and the unguarded one last [never-taken]']);
    const child = '{ target: child, guard: { all: [ { variable: kind, operator: eq, value: child } ] } }';
    const blocking = loadFlow(withBranches(`          - ${adult}\n          - ${child}`), 'f.yaml').diagnostics.map(formatDiagnostic);
    expect(blocking).toEqual([expect.stringMatching(/^f\.yaml:20:23: warning: when no guard of this list holds, the move is blocked \(guard_failed\).*\[may-block\]$/)]);
  });
});
