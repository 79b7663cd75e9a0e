// What the end screen shows (shown-values.ts, takeAwayLines): only what the flow marks
// `show_at_end`, what the visitor takes away (the clinic's queue number), under labels a person
// would write and with values as the visitor reads them; none of the visitor's other details,
// which the screen would leave for whoever comes next (issue 31). And `label` and `show_at_end`
// as vfdl check holds them.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { loadFlow, type LoadedFlow } from '../../src/engine/language/load-flow.ts';
import { takeAwayLines, variableLabel } from '../../src/engine/runtime/shown-values.ts';

function loaded(text: string): LoadedFlow {
  const result = loadFlow(text, 'f.yaml');
  if (!result.loaded) throw new Error(result.diagnostics.map(formatDiagnostic).join('\n'));
  return result.loaded;
}

const example = (name: string) => loaded(readFileSync(`flows/${name}.yaml`, 'utf8'));
const lines = (flow: LoadedFlow, values: Record<string, unknown>) => takeAwayLines(flow.flow, flow.catalog, values).map((l) => [l.label, l.value]);

describe('the end screen shows what the visitor takes away, and nothing else of theirs', () => {
  it("clinic: the queue number alone, never the patient's name, date of birth, reason or doctor", () => {
    const values = {
      full_name: 'Maria Garcia',
      date_of_birth: '1984-03-05',
      visit_reason: 'appointment',
      doctor: 'Dr. Lindqvist',
      appointment_time: '10:30',
      appointment_id: 'apt-1001',
      queue_number: 3,
    };
    expect(lines(example('clinic-checkin'), values)).toEqual([['Queue number', '3']]);
    const german = example('clinic-checkin').inLanguage('de-DE');
    expect(lines(german, values)).toEqual([['Wartenummer', '3']]);
  });

  it('clinic sent to the front desk, with no queue number: nothing', () => {
    expect(lines(example('clinic-checkin'), { full_name: 'Maria Garcia', date_of_birth: '1984-03-05' })).toEqual([]);
  });

  it('visitor sign-in and onboarding mark nothing: their end screens show none of the answers', () => {
    expect(lines(example('visitor-signin'), { full_name: 'Sam Lee', email: 'sam@example.com', host: 'Tom Becker', rules_accepted: true })).toEqual([]);
    expect(lines(example('onboarding'), { first_name: 'Tom', color: 'red' })).toEqual([]);
  });

  it('what a flow marks, in the order it declares them: an option by its label, a date in words, a number as the language writes it; empty ones left out', () => {
    const flow = loaded(`
id: t
language: de-DE
variables:
  name: { type: name }
  code: { type: string, label: Buchungscode, show_at_end: true }
  size: { type: enum, enum: [s, l], show_at_end: true }
  day: { type: date, label: Tag, show_at_end: true }
  amount: { type: number, label: Betrag, show_at_end: true }
  note: { type: string, label: Notiz, show_at_end: true }
states:
  ask:
    ui:
      artifact_type: form
      fields:
        - { id: size, type: select, label: Größe, options: [ { id: s, label: Klein }, { id: l, label: Groß } ] }
    transitions: { on_ui_event: { form_submit: __end__ } }
`);
    const values = { name: 'Ana Souza', code: 'HV-4821', size: 'l', day: '2025-06-15', amount: 2.5, note: '' };
    expect(lines(flow, values)).toEqual([
      ['Buchungscode', 'HV-4821'],
      ['Größe', 'Groß'],
      ['Tag', '15. Juni 2025'],
      ['Betrag', '2,5'],
    ]);
  });

  it("names a variable without a label by its form field's label, else by its name in words", () => {
    const flow = loaded(`
id: t
variables:
  ref: { type: string }
states:
  ask:
    ui: { artifact_type: form, fields: [ { id: town, label: "Your town:" }, { id: nick, label: "What should we call you?" } ] }
    transitions: { on_ui_event: { form_submit: __end__ } }
`);
    expect(variableLabel(flow.flow, 'town')).toBe('Town');
    expect(variableLabel(flow.flow, 'nick')).toBe('Nick');
    expect(variableLabel(flow.flow, 'ref')).toBe('Ref');
  });
});

describe("vfdl check: a variable's label and show_at_end", () => {
  const check = (attrs: string) =>
    loadFlow(`id: t\nvariables:\n  x: { type: string, ${attrs} }\nstates:\n  a: { ui: { artifact_type: form, fields: [ { id: x } ] }, transitions: { on_ui_event: { form_submit: __end__ } } }\n`, 'f.yaml').diagnostics.map(formatDiagnostic);

  it('a label must say something, and is shown as written', () => {
    expect(check('label: "  "')).toEqual(['f.yaml:3:29: error: a label is what the visitor reads for this value: give it words, or leave the key out [bad-value]']);
    expect(check('label: "Code {x}"')).toEqual(['f.yaml:3:29: warning: a label is shown as written: {…} in it is not filled in with a value [bad-value]']);
    expect(check('label: [1]')).toEqual([expect.stringContaining('[wrong-type]')]);
    expect(check('label: Code')).toEqual([]);
  });

  it('show_at_end is true or false', () => {
    expect(check('label: Code, show_at_end: true')).toEqual([]);
    expect(check('show_at_end: yes please')).toEqual([expect.stringContaining('[wrong-type]')]);
  });
});
