// Where an action leads once it has ended (`on_action_done`, `on_action_failed`), a button that proposes a tool's action,
// edits of a pending action (by the LLM calling again, or by touch), and the refusal of values that
// would smuggle a `{secret:NAME}` reference into a request.

import { describe, expect, it } from 'vitest';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import { only, ofType, startFlow } from '../support/engine-harness.ts';

const FLOW = `
id: clinic
variables:
  full_name: { type: string, default: Maria Garcia }
  slot: { type: string, default: "10:00" }
states:
  summary:
    ui:
      artifact_type: card
      title: Check your details
      actions:
        - { event: check_in, label: Check me in, tool: check_in }
        - { event: book, label: Book, tool: book }
    agent:
      prompt: Offer to check the patient in.
      tools: [check_in, book]
    tools:
      check_in:
        description: Check the patient in.
        confirm: true
        summary: "Check in {full_name}"
        http:
          method: POST
          url: "https://clinic.example/check-ins"
          body: { name: "{full_name}", note: "kiosk {slot}" }
          headers: { Authorization: "Bearer {secret:CLINIC_TOKEN}" }
          capture: { queue_number: queue_number }
          timeout_seconds: 5
      book:
        description: Book a time.
        confirm: true
        summary: "Book {slot}"
        parameters:
          slot: { type: string, required: true, pattern: "^[0-9]{1,2}(:[0-9]{2})?( ?[ap]m)?$" }
    transitions:
      on_tool_call: { check_in: checked_in, book: booked }
      on_action_failed: { check_in: front_desk }
  checked_in: { ui: { artifact_type: card, title: "Number {queue_number}" } }
  booked: { ui: { artifact_type: card, title: "Booked {slot}" } }
  front_desk: { ui: { artifact_type: card, title: Please see the front desk } }
`;

function confirmedCheckIn() {
  const h = startFlow(FLOW);
  only(h.ui('check_in'), 'action_pending');
  const run = only(h.ui('confirm_action'), 'action_run');
  return { h, run };
}

describe('a button that names a tool', () => {
  it('proposes the same pending action a call would, with a summary and a question, and runs nothing', () => {
    const h = startFlow(FLOW);
    const out = h.ui('check_in');
    expect(only(out, 'action_pending')).toMatchObject({ tool: 'check_in', summary: 'Check in Maria Garcia' });
    expect(only(out, 'speech_cue')).toMatchObject({ text: 'Check in Maria Garcia. Shall I go ahead?', reason: 'action_pending' });
    expect(ofType(out, 'action_run')).toEqual([]);
    expect(ofType(out, 'tool_result')).toEqual([]);
    expect(h.engine.view.state).toBe('summary');
  });

  it('takes its arguments from the values the visit holds, and refuses when one does not fit', () => {
    const h = startFlow(FLOW);
    expect(only(h.ui('book'), 'action_pending').args).toEqual({ slot: '10:00' });
    const bad = startFlow(FLOW.replace('slot: { type: string, default: "10:00" }', 'slot: { type: string, default: "tea time" }'));
    const out = bad.ui('book');
    expect(ofType(out, 'action_pending')).toEqual([]);
    expect(only(out, 'transition_blocked')).toMatchObject({ reason: 'invalid_input', variables: { slot: 'tea time' } });
  });

  it('the visitor\'s yes runs it once; the answer\'s captures and the tool\'s mapping follow', () => {
    const { h, run } = confirmedCheckIn();
    expect(run).toMatchObject({ method: 'POST', url: 'https://clinic.example/check-ins', body: { name: 'Maria Garcia', note: 'kiosk 10:00' }, timeout_seconds: 5 });
    expect(run.headers).toEqual({ Authorization: 'Bearer {secret:CLINIC_TOKEN}' });
    expect(ofType(h.ui('confirm_action'), 'action_run')).toEqual([]);
    h.send({ type: 'action_done', action_id: run.action_id, ok: true, data: { queue_number: 7 } });
    expect(h.engine.view.state).toBe('checked_in');
    expect(h.engine.view.values['queue_number']).toBe(7);
  });
});

describe('on_action_done and on_action_failed', () => {
  it('failed: the flow follows it, the visitor gets a plain sentence and the LLM the error', () => {
    const { h, run } = confirmedCheckIn();
    const out = h.send({ type: 'action_done', action_id: run.action_id, ok: false, error: 'http 500: upstream exploded' });
    expect(only(out, 'action_result')).toMatchObject({ status: 'failed', detail: 'http 500: upstream exploded' });
    expect(only(out, 'speech_cue')).toMatchObject({ text: 'Sorry, that did not go through. Nothing was done.', reason: 'action_failed' });
    expect(ofType(out, 'system_message').some((m) => m.text.includes('http 500: upstream exploded'))).toBe(true);
    expect(h.engine.view.state).toBe('front_desk');
  });

  it('a write that failed is never reported as done: without on_action it stays, and never takes the tool\'s mapping', () => {
    const h = startFlow(FLOW.replace('      on_action_failed: { check_in: front_desk }\n', ''));
    h.ui('check_in');
    const run = only(h.ui('confirm_action'), 'action_run');
    const out = h.send({ type: 'action_done', action_id: run.action_id, ok: false, error: 'timeout' });
    expect(ofType(out, 'action_result').map((m) => m.status)).toEqual(['failed']);
    expect(h.engine.view.state).toBe('summary');
    expect(h.engine.view.values['queue_number']).toBeUndefined();
  });

  it('done: its target wins over on_tool_call, and a gate does not hold it back', () => {
    const h = startFlow(FLOW.replace('on_action_failed: { check_in: front_desk }', 'on_action_done: { check_in: front_desk }\n      on_action_failed: { check_in: summary }'));
    h.ui('check_in');
    const run = only(h.ui('confirm_action'), 'action_run');
    h.send({ type: 'action_done', action_id: run.action_id, ok: true, data: {} });
    expect(h.engine.view.state).toBe('front_desk');
  });

  describe('a branch for an answer\'s status', () => {
    const BY_STATUS = FLOW.replace(
      'on_action_failed: { check_in: front_desk }',
      'on_action_failed:\n        check_in:\n          - { status: 404, target: booked, set: { slot: unknown } }\n          - { status: [409, 410], target: checked_in, guard: { all: [ { variable: slot, operator: eq, value: "11:00" } ] } }\n          - front_desk',
    );
    const failWith = (status: number | undefined) => {
      const h = startFlow(BY_STATUS);
      h.ui('check_in');
      const run = only(h.ui('confirm_action'), 'action_run');
      const out = h.send({ type: 'action_done', action_id: run.action_id, ok: false, error: `http: ${status ?? 'no answer'}`, ...(status === undefined ? {} : { status }) });
      return { h, out };
    };

    it('is taken for that status, as an answer the flow expected: no "did not go through", the LLM told what it was', () => {
      const { h, out } = failWith(404);
      expect(only(out, 'action_result')).toEqual({ type: 'action_result', action_id: expect.any(String), tool: 'check_in', status: 'failed', detail: 'http: 404', http_status: 404, handled: true });
      expect(ofType(out, 'speech_cue')).toEqual([]);
      expect(ofType(out, 'system_message').some((m) => m.text.includes('answered with status 404'))).toBe(true);
      expect(h.engine.view.state).toBe('booked');
      expect(h.engine.view.values['slot']).toBe('unknown');
    });

    it('is passed over for another status, or when its guard does not hold, and for a failure with no answer at all', () => {
      for (const status of [500, 409, undefined]) {
        const { h, out } = failWith(status);
        expect(only(out, 'action_result')).not.toHaveProperty('handled');
        expect(only(out, 'speech_cue')).toMatchObject({ reason: 'action_failed' });
        expect(h.engine.view.state).toBe('front_desk');
      }
    });

    it('vfdl check: status is for on_action_failed only, and an HTTP status of 300 to 599', () => {
      const misplaced = loadFlow(FLOW.replace('on_tool_call: { check_in: checked_in, book: booked }', 'on_tool_call: { check_in: checked_in, book: { target: booked, status: 404 } }'));
      expect(misplaced.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code}: ${d.message}`)).toEqual(['bad-value: status is for on_action_failed only: the HTTP status of an answer that did not go through']);
      const success = loadFlow(BY_STATUS.replace('status: 404', 'status: 200'));
      expect(success.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code}: ${d.message}`)).toEqual(['bad-value: 200 is below the minimum of 300']);
    });
  });

  it('vfdl check: they must name a tool with an http effect that this state offers or shows', () => {
    const bad = loadFlow(FLOW.replace('on_action_failed: { check_in: front_desk }', 'on_action_failed: { book: front_desk, chek_in: nowhere }'));
    const messages = bad.diagnostics.map((d) => `${d.code}: ${d.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^bad-value: .*"book" has no http effect/),
        expect.stringMatching(/^unknown-tool: .*"chek_in".*did you mean "check_in"/),
        expect.stringMatching(/^unknown-target: "nowhere"/),
      ]),
    );
  });

  it('vfdl check: a mapping of a tool button\'s event is never used, and says so', () => {
    const flow = loadFlow(FLOW.replace('on_tool_call: { check_in: checked_in, book: booked }', 'on_tool_call: { check_in: checked_in, book: booked }\n      on_ui_event: { check_in: checked_in }'));
    expect(flow.diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message}`)).toEqual([
      'warning not-acted-on: "check_in" is a button that proposes tool "check_in", so this mapping is never used: on_tool_call and on_action_done/on_action_failed say where the tool leads',
    ]);
  });

  it('vfdl check: a button\'s tool must be defined', () => {
    const bad = loadFlow(FLOW.replace('{ event: book, label: Book, tool: book }', '{ event: book, label: Book, tool: bok }'));
    expect(bad.diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^unknown-tool: .*"bok".*did you mean "book"/)]),
    );
  });
});

describe('editing a pending action', () => {
  it('"no, make it 3 pm": the LLM calls again, the old one ends edited and the new one needs its own yes', () => {
    const h = startFlow(FLOW);
    const first = only(h.call('book', { slot: '10:00' }), 'action_pending').action_id;
    h.say('no, make it 3 pm');
    const out = h.call('book', { slot: '3 pm' });
    expect(only(out, 'action_result')).toMatchObject({ action_id: first, status: 'edited' });
    const second = only(out, 'action_pending');
    expect(second).toMatchObject({ replaces: first, summary: 'Book 3 pm', args: { slot: '3 pm' } });
    expect(only(h.call('confirm_action'), 'tool_rejected').reason).toBe('no_user_turn');
    h.say('yes');
    h.call('confirm_action');
    expect(h.engine.view.state).toBe('booked');
    expect(h.engine.view.values['slot']).toBe('3 pm');
  });

  it('"Change" by touch: edit_action with new values proposes it again; a value that does not fit is refused', () => {
    const h = startFlow(FLOW);
    const first = only(h.ui('book'), 'action_pending').action_id;
    const refused = h.ui('edit_action', { values: { slot: 'whenever' } });
    expect(only(refused, 'transition_blocked')).toMatchObject({ reason: 'invalid_input' });
    expect(h.engine.view.pendingAction?.id).toBe(first);
    const out = h.ui('edit_action', { values: { slot: '15:00' } });
    expect(only(out, 'action_result')).toMatchObject({ action_id: first, status: 'edited' });
    expect(only(out, 'action_pending')).toMatchObject({ replaces: first, args: { slot: '15:00' } });
    expect(h.engine.view.values['slot']).toBe('10:00');
  });

  it('another tool\'s proposal replaces the pending one', () => {
    const h = startFlow(FLOW);
    const first = only(h.ui('book'), 'action_pending').action_id;
    expect(only(h.ui('check_in'), 'action_result')).toMatchObject({ action_id: first, status: 'replaced' });
  });
});

describe('a value cannot smuggle a secret reference', () => {
  for (const name of ['{secret:CLINIC_TOKEN}', 'Ann {Secret:clinic_token} Lee']) {
    it(`refuses ${JSON.stringify(name)} in the body: nothing is sent and the action fails`, () => {
      const withName = startFlow(FLOW.replace('full_name: { type: string, default: Maria Garcia }', `full_name: { type: string, default: ${JSON.stringify(name)} }`));
      withName.ui('check_in');
      const out = withName.ui('confirm_action');
      expect(ofType(out, 'action_run')).toEqual([]);
      expect(only(out, 'action_result')).toMatchObject({ status: 'failed', detail: expect.stringContaining('secret reference') });
      expect(withName.engine.view.state).toBe('front_desk');
    });
  }

  it('refuses a value that, with the flow\'s own text, forms a reference', () => {
    const ok = startFlow(FLOW.replace('note: "kiosk {slot}"', 'note: "{slot}secret:CLINIC_TOKEN}"'));
    ok.ui('check_in');
    expect(ofType(ok.ui('confirm_action'), 'action_run')).toHaveLength(1);
    const bad = startFlow(FLOW.replace('note: "kiosk {slot}"', 'note: "{slot}secret:CLINIC_TOKEN}"').replace('default: "10:00"', 'default: "{"'));
    bad.ui('check_in');
    expect(only(bad.ui('confirm_action'), 'action_result')).toMatchObject({ status: 'failed' });
  });

  it('a read called by the LLM with such a value is answered as failed, and the LLM is told', () => {
    const h = startFlow(`
id: lookup
states:
  find:
    agent: { prompt: Find it., tools: [find] }
    tools:
      find:
        description: Find a patient.
        parameters: { name: { type: string, required: true } }
        http: { method: POST, url: "https://clinic.example/find", body: { name: "{name}" } }
    transitions: { on_tool_call: { find: __end__ } }
`);
    const out = h.call('find', { name: 'x {secret:TOKEN} y' }, { call_id: 'c9' });
    expect(ofType(out, 'action_run')).toEqual([]);
    expect(only(out, 'tool_result')).toMatchObject({ call_id: 'c9', ok: false });
    expect(only(out, 'action_result').status).toBe('failed');
  });
});
