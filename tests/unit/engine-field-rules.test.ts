// Field validation (issue 20): a form field's pattern, min_length, max_length, min and max hold for
// its variable whatever sets it (the form, a typed field, the LLM's tool, an utterance rule); the
// screen is told which rule broke and the visitor's message for it (in the visit's language), the
// LLM the real reason; and vfdl check says when a tool that takes the value later would refuse
// what the field lets through.

import { describe, expect, it } from 'vitest';
import { noonOf } from '../../src/engine/language/dates.ts';
import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import { ofType, only, startFlow } from '../support/engine-harness.ts';

const flow = (refField = 'pattern: "^[A-Z0-9]{6,10}$", message: { en: "A booking reference is 6 to 10 capital letters and digits.", de: "Eine Buchungsnummer hat 6 bis 10 Großbuchstaben und Ziffern." }') => `
id: hotel
language: en-US
languages: [en-US, de-DE]
tools:
  save_ref:
    description: Capture the booking reference.
    parameters: { booking_ref: { type: string, required: true } }
  check_in:
    description: Check the guest in.
    parameters: { booking_ref: { type: string, required: true, pattern: "^[A-Z0-9]{6,10}$" } }
states:
  ask:
    ui:
      artifact_type: form
      fields:
        - { id: booking_ref, label: { en: Booking reference, de: Buchungsnummer }, required: true, ${refField} }
        - { id: nights, type: number, label: { en: Nights, de: Nächte }, min: 1, max: 30 }
        - { id: date_of_birth, type: date, label: { en: Date of birth, de: Geburtsdatum }, min: today - 120 years, max: today }
        - { id: surname, label: { en: Surname, de: Nachname }, min_length: 2, max_length: 12 }
    agent: { prompt: Ask for the booking reference., tools: [save_ref] }
    transitions:
      on_ui_event: { form_submit: welcome }
      on_utterance: [ { pattern: "^ref (\\\\w+)$", capture_to: booking_ref } ]
  welcome:
    ui: { artifact_type: card, title: Welcome, actions: [ { event: check_in, label: Check in, tool: check_in } ] }
    transitions: { on_tool_call: { check_in: __end__ } }
`;

const today = noonOf('2025-06-14');

describe('field rules at run time', () => {
  it('block a form whose value breaks one, tell the screen which and the LLM why, and keep nothing', () => {
    const h = startFlow(flow(), today);
    const out = h.ui('form_submit', { values: { booking_ref: 'hb10001', nights: '40' } });
    const blocked = only(out, 'transition_blocked');
    expect(blocked).toMatchObject({
      reason: 'invalid_input',
      problems: {
        booking_ref: { rule: 'pattern', limit: '^[A-Z0-9]{6,10}$', message: 'A booking reference is 6 to 10 capital letters and digits.' },
        nights: { rule: 'max', limit: 30 },
      },
    });
    const told = ofType(out, 'system_message').at(-1)!.text;
    expect(told).toContain('was blocked (invalid_input). What the visitor gave was not accepted: Please check: booking_ref does not match ^[A-Z0-9]{6,10}$');
    expect(told).not.toContain('not yet confirmed');
    expect(h.engine.view.values).toEqual({});
    expect(h.engine.view.state).toBe('ask');
    h.ui('form_submit', { values: { booking_ref: 'HB10001', nights: '3' } });
    expect(h.engine.view.state).toBe('welcome');
  });

  it('say it in the visit language', () => {
    const h = startFlow(flow(), today);
    h.engine.setLanguage('de-DE');
    const blocked = only(h.ui('form_submit', { values: { booking_ref: 'x' } }), 'transition_blocked');
    expect(blocked.problems?.['booking_ref']?.message).toBe('Eine Buchungsnummer hat 6 bis 10 Großbuchstaben und Ziffern.');
  });

  it('hold a date to bounds counted from today, shown in words, and tell the screen the dates', () => {
    const h = startFlow(flow(), today);
    const field = only(h.started, 'flow_state').artifact!.fields.find((f) => f.id === 'date_of_birth')!;
    expect([field.min, field.max]).toEqual(['1905-06-14', '2025-06-14']);
    const blocked = only(h.ui('form_submit', { values: { booking_ref: 'HB10001', date_of_birth: '2025-06-15' } }), 'transition_blocked');
    expect(blocked.problems).toEqual({ date_of_birth: { rule: 'max', limit: '2025-06-14', shown: 'June 14, 2025' } });
  });

  it('say a value typed into a field breaks a rule at once, and do not keep it', () => {
    const h = startFlow(flow(), today);
    const out = h.ui('field_change', { variable: 'surname', value: 'A' });
    expect(only(out, 'transition_blocked')).toMatchObject({ attempted_target: null, reason: 'invalid_input', problems: { surname: { rule: 'min_length', limit: 2 } } });
    expect(ofType(out, 'flow_variable')).toEqual([]);
    expect(ofType(h.ui('field_change', { variable: 'surname', value: 'Ab' }), 'flow_variable')).toHaveLength(1);
  });

  it('hold the LLM and utterance rules to them too', () => {
    const h = startFlow(flow(), today);
    const rejected = only(h.call('save_ref', { booking_ref: 'hb1' }), 'tool_rejected');
    expect(rejected).toMatchObject({ reason: 'invalid_arguments', field: 'booking_ref' });
    expect(rejected.detail).toContain('"booking_ref": does not match ^[A-Z0-9]{6,10}$ (the visitor is told: "A booking reference is 6 to 10 capital letters and digits.")');
    expect(ofType(h.say('ref hb1'), 'llm_turn')).toHaveLength(1);
    expect(h.engine.view.values).toEqual({});
    h.say('ref HB10001');
    expect(h.engine.view.values).toEqual({ booking_ref: 'HB10001' });
  });
});

describe('vfdl check on field rules', () => {
  const lines = (text: string) => loadFlow(text, 'f.yaml').diagnostics.map(formatDiagnostic);

  it('warns when a tool that takes the value refuses what the field lets through', () => {
    expect(lines(flow('min_length: 6'))).toEqual([
      'f.yaml:17:17: warning: parameter "booking_ref" of check_in takes the value of field "booking_ref", and must match ^[A-Z0-9]{6,10}$, which the field does not ask: a visitor could confirm a value the tool then refuses. Give the field the same rule (pattern: "^[A-Z0-9]{6,10}$") and a message for the visitor [validation-gap]',
    ]);
    expect(lines(flow())).toEqual([]);
  });

  it.each([
    ['min on a text field', 'min: 3', 'error: min and max bound a number or a date field'],
    ['a pattern on a number field', 'type: number, pattern: "^1"', 'error: pattern, min_length and max_length are rules of a text field'],
    ['a date bound that is no date', 'type: date, min: yesterday', 'error: "yesterday" is not a date'],
    ['lengths the wrong way round', 'min_length: 9, max_length: 3', 'error: min_length (9) is more than max_length (3)'],
    ['a pattern that does not compile', 'pattern: "([A-Z"', 'error: field pattern does not compile'],
    ['a message with no rule', 'message: Check it', 'warning: message is what the visitor reads when the value breaks a rule of the field, and this field has none'],
  ])('says %s', (_, rule, finding) => {
    expect(lines(flow(rule)).filter((l) => !l.includes('[validation-gap]'))).toEqual([expect.stringContaining(finding)]);
  });
});
