// `vfdl test` on a flow that compares with today: the script says which day it runs on (`today:`),
// the virtual clock starts at noon that day, and a script that does not say is invalid, since its
// result would depend on the day it is run.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runTests } from '../../src/cli/test-command.ts';

const dir = mkdtempSync(join(tmpdir(), 'vfdl-today-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

writeFileSync(
  join(dir, 'card.yaml'),
  `id: library_card
variables:
  date_of_birth: { type: date }
states:
  ask:
    ui:
      artifact_type: form
      fields: [ { id: date_of_birth, type: date, label: Date of birth } ]
    transitions:
      on_ui_event:
        form_submit:
          - { target: adult, guard: { all: [ { age_of: date_of_birth, operator: gte, value: 18 } ] } }
          - { target: child }
  adult: { ui: { artifact_type: card, title: Welcome } }
  child: { ui: { artifact_type: card, title: Please come with a parent } }
`,
);

function run(name: string, top: string): { code: number; out: string[] } {
  const file = join(dir, name);
  writeFileSync(file, `flow: card.yaml\n${top}steps:\n  - ui: form_submit\n    values: { date_of_birth: "2007-06-14" }\n  - expect: { state: adult }\n`);
  const out: string[] = [];
  const code = runTests([file], { out: (s) => out.push(...s.split('\n')), err: (s) => out.push(s) });
  return { code, out };
}

describe('a test of a flow that compares with today', () => {
  it('runs on the day the script gives', () => {
    expect(run('birthday.test.yaml', 'today: 2025-06-14\n').code).toBe(0);
    const dayBefore = run('day-before.test.yaml', 'today: 2025-06-13\n');
    expect(dayBefore.code).toBe(1);
    expect(dayBefore.out.join('\n')).toContain('expect failed: state is "child", expected "adult"');
  });

  it('is invalid without a day, and with one that is not a date', () => {
    const none = run('no-day.test.yaml', '');
    expect(none.code).toBe(2);
    expect(none.out.join('\n')).toContain('no-day.test.yaml:1:1: error: the flow reads today\'s date (in state "ask"), so the test must say which day it runs on: add today: 2025-06-14 (any YYYY-MM-DD) at the top [missing-key]');
    const bad = run('bad-day.test.yaml', 'today: 2025-02-30\n');
    expect(bad.code).toBe(2);
    expect(bad.out.join('\n')).toContain('bad-day.test.yaml:2:8: error: "today" is the day the test runs on, as YYYY-MM-DD');
  });
});
