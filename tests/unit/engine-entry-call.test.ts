// HTTP actions on entering a state (`call` in on_enter, issue 20): a lookup runs as the step
// opens, its answer fills the screen, and a failure, or arguments that could not even be sent,
// take the state's on_action_failed. What vfdl check refuses of it.

import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import { ofType, only, startFlow } from '../support/engine-harness.ts';

const flow = (name = 'Maria Garcia', hooks = '[ { emit: lookup_started }, { call: find_appointment } ]') => `
id: clinic
variables:
  full_name: { type: name${name ? `, default: ${name}` : ''} }
  doctor: { type: string }
  appointment_time: { type: string }
tools:
  find_appointment:
    description: Look up today's appointment.
    parameters: { full_name: { type: name, required: true } }
    speech_cue: "I found your appointment with {doctor} at {appointment_time}."
    http:
      method: GET
      url: "https://clinic.example/appointments?name={full_name}"
      capture: { doctor: doctor, appointment_time: time }
states:
  appointment:
    on_enter: ${hooks}
    ui:
      artifact_type: form
      fields:
        - { id: doctor, label: Doctor }
        - { id: appointment_time, label: Time }
    transitions:
      on_ui_event: { form_submit: done }
      on_action_failed: { find_appointment: front_desk }
  front_desk: { ui: { artifact_type: card, title: Please see the front desk } }
  done: { ui: { artifact_type: card, title: Thank you } }
`;

describe('call on entering a state', () => {
  it('runs the lookup as the step opens, and its answer fills the form', () => {
    const h = startFlow(flow());
    const run = only(h.started, 'action_run');
    expect(run).toMatchObject({ tool: 'find_appointment', method: 'GET', url: 'https://clinic.example/appointments?name=Maria%20Garcia', state: 'appointment', values: { full_name: 'Maria Garcia' } });
    expect(h.started.map((m) => m.type).slice(0, 3)).toEqual(['analytics', 'action_run', 'flow_state']);
    const out = h.send({ type: 'action_done', action_id: run.action_id, ok: true, data: { doctor: 'Dr. Okafor', time: '10:30' } });
    expect(ofType(out, 'flow_variable').map((m) => [m.name, m.value])).toEqual([['doctor', 'Dr. Okafor'], ['appointment_time', '10:30']]);
    expect(only(out, 'speech_cue').text).toBe('I found your appointment with Dr. Okafor at 10:30.');
    expect(h.engine.view.state).toBe('appointment');
  });

  it('takes on_action_failed when the lookup fails', () => {
    const h = startFlow(flow());
    const run = only(h.started, 'action_run');
    h.send({ type: 'action_done', action_id: run.action_id, ok: false, error: 'http: the service answered 503' });
    expect(h.engine.view.state).toBe('front_desk');
  });

  it('takes on_action_failed at once when the arguments could not be sent', () => {
    const h = startFlow(flow(''));
    expect(ofType(h.started, 'action_run')).toEqual([]);
    expect(only(h.started, 'action_result')).toMatchObject({ tool: 'find_appointment', status: 'failed', detail: 'not sent: "full_name" is required' });
    expect(ofType(h.started, 'flow_state').map((m) => m.state)).toEqual(['appointment', 'front_desk']);
    expect(h.engine.view.state).toBe('front_desk');
  });
});

describe('vfdl check on call', () => {
  const errors = (text: string) => loadFlow(text, 'f.yaml').diagnostics.map(formatDiagnostic).filter((l) => l.includes(': error: '));
  it.each([
    ['on exit', flow('Maria', '[]').replace('ui:\n      artifact_type: form', 'on_exit: [ { call: find_appointment } ]\n    ui:\n      artifact_type: form'), 'call runs on entering a state: on_exit could not wait for its answer'],
    ['a tool without http', flow().replace(/http:[\s\S]*?capture: \{[^}]*\}/, ''), '"find_appointment" has no http effect'],
    ['a tool that waits for a yes', flow().replace('speech_cue:', 'confirm: true\n    speech_cue:'), '"find_appointment" waits for the visitor\'s yes (confirm: true)'],
    ['a tool that does not exist', flow('Maria', '[ { call: find_apointment } ]'), 'tool "find_apointment" is not defined in this state\'s tools or the flow\'s tools (did you mean "find_appointment"?)'],
    ['two things in one item', flow('Maria', '[ { call: find_appointment, emit: x } ]'), 'each on_enter and on_exit item does one thing: set, clear, emit or call'],
  ])('refuses a call %s', (_, text, finding) => {
    // The state's on_action_failed names the tool too, and may add its own error.
    expect(errors(text)).toContainEqual(expect.stringContaining(finding));
  });
});
