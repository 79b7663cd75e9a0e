// What the end screen lists as the visitor's answers (shown-values.ts, givenLines): what a screen
// asked for, a gate had confirmed, or the flow labels, under labels a person would write, with
// values as the visitor entered or chose them; never a value only the flow or a service set (an id)
// unless the flow labels it. And the variables' `label` key as vfdl check holds it.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { loadFlow, type LoadedFlow } from '../../src/engine/language/load-flow.ts';
import { givenLines, variableLabel } from '../../src/engine/runtime/shown-values.ts';

function loaded(text: string): LoadedFlow {
  const result = loadFlow(text, 'f.yaml');
  if (!result.loaded) throw new Error(result.diagnostics.map(formatDiagnostic).join('\n'));
  return result.loaded;
}

const example = (name: string) => loaded(readFileSync(`flows/${name}.yaml`, 'utf8'));
const lines = (flow: LoadedFlow, values: Record<string, unknown>) => givenLines(flow.flow, flow.catalog, values).map((l) => [l.label, l.value]);

describe('the end screen lists what the visitor gave', () => {
  it('clinic: the patient\'s answers by their labels, the reason by its option, the date in words; never the clinic\'s appointment id', () => {
    const values = {
      full_name: 'Maria Garcia',
      date_of_birth: '1984-03-05',
      visit_reason: 'appointment',
      doctor: 'Dr. Lindqvist',
      appointment_time: '10:30',
      appointment_id: 'apt-1001',
      queue_number: 3,
    };
    expect(lines(example('clinic-checkin'), values)).toEqual([
      ['Full name', 'Maria Garcia'],
      ['Date of birth', 'March 5, 1984'],
      ['Reason for visit', 'Appointment'],
      ['Doctor', 'Dr. Lindqvist'],
      ['Appointment time', '10:30'],
      ['Queue number', '3'],
    ]);
  });

  it('visitor sign-in: the host as chosen, not the first name heard on the way; "Your name" reads "Name"', () => {
    const values = { full_name: 'Sam Lee', email: 'sam@example.com', visiting_first_name: 'tom', host: 'Tom Becker', rules_accepted: true };
    expect(lines(example('visitor-signin'), values)).toEqual([
      ['Name', 'Sam Lee'],
      ['Email address', 'sam@example.com'],
      ['Visiting', 'Tom Becker'],
      ['Agreed to the site rules', 'Yes'],
    ]);
  });

  it('onboarding: a question as the field\'s label gives way to the flow\'s label, and the colour is named as on screen', () => {
    expect(lines(example('onboarding'), { first_name: 'Tom', color: 'red' })).toEqual([
      ['First name', 'Tom'],
      ['Colour', 'red'],
    ]);
  });

  it('without labels: a field\'s label, else the name in words; an option by its label; empty values and unasked ones left out', () => {
    const flow = loaded(`
id: t
variables:
  code: { type: string }
  ref: { type: string }
  seen_ref: { type: string, label: Your reference }
states:
  ask:
    ui:
      artifact_type: form
      fields:
        - { id: town, label: "Your town:" }
        - { id: nick, label: "What should we call you?" }
        - { id: size, type: select, label: Size, options: [ { id: s, label: Small }, { id: l, label: Large } ] }
        - { id: note, label: Note }
    confirmation_gate: { variables: [heard_name], on_confirm: __end__ }
    agent: { prompt: ask, tools: [save] }
    tools:
      save: { description: save, parameters: { heard_name: { type: name }, code: { type: string } } }
    transitions: { on_ui_event: { form_submit: __end__ } }
`);
    const values = { code: 'X1', ref: 'r-9', seen_ref: 'r-10', town: 'Åre', nick: 'Bo', size: 'l', note: '', heard_name: 'Ana Souza' };
    expect(lines(flow, values)).toEqual([
      ['Your reference', 'r-10'],
      ['Town', 'Åre'],
      ['Nick', 'Bo'],
      ['Size', 'Large'],
      ['Heard name', 'Ana Souza'],
    ]);
    expect(variableLabel(flow.flow, 'town')).toBe('Town');
    expect(variableLabel(flow.flow, 'ref')).toBe('Ref');
  });

  it('takes the label in the visit\'s language', () => {
    const flow = loaded(`
id: t
language: en-US
languages: [en-US, de-DE]
title: { en: Colours, de: Farben }
variables:
  color: { type: enum, enum: [red, blue], label: { en: Colour, de: Farbe } }
states:
  pick:
    ui: { artifact_type: options, title: { en: Pick one, de: Wählen Sie }, variable: color, options: [red, blue] }
    transitions: { on_ui_event: { option_select: __end__ } }
`);
    const german = flow.inLanguage('de-DE');
    expect(givenLines(german.flow, german.catalog, { color: 'blue' }).map((l) => l.label)).toEqual(['Farbe']);
  });
});

describe('vfdl check: a variable\'s label', () => {
  const check = (label: string) =>
    loadFlow(`id: t\nvariables:\n  x: { type: string, label: ${label} }\nstates:\n  a: { ui: { artifact_type: form, fields: [ { id: x } ] }, transitions: { on_ui_event: { form_submit: __end__ } } }\n`, 'f.yaml').diagnostics.map(formatDiagnostic);

  it('must say something, and is shown as written', () => {
    expect(check('"  "')).toEqual(['f.yaml:3:29: error: a label is what the visitor reads for this value: give it words, or leave the key out [bad-value]']);
    expect(check('"Code {x}"')).toEqual(['f.yaml:3:29: warning: a label is shown as written: {…} in it is not filled in with a value [bad-value]']);
    expect(check('[1]')).toEqual([expect.stringContaining('[wrong-type]')]);
    expect(check('Code')).toEqual([]);
  });
});
