// Confirmation gates (seed 000, SPEC 4): the generated tools, the all-variables rule, no
// confirmation without the visitor, blocked transitions, reject, the visitor's own hands on the
// form, expiry, and unconfirmed values never leaving the state.

import { describe, expect, it } from 'vitest';
import { only, ofType, startFlow, types, type Harness } from '../support/engine-harness.ts';

/** A two-variable gate; `onReject` is the YAML of on_reject. */
const flow = (onReject = '{ action: clear }', gateExtra = '') => `
id: gates
tools:
  save_name:
    description: Capture the name.
    parameters: { first_name: { type: string, required: true } }
  save_dob:
    description: Capture the date of birth.
    parameters: { date_of_birth: { type: date, required: true } }
  skip:
    description: Skip this step.
states:
  identify:
    ui:
      artifact_type: form
      fields:
        - { id: first_name, type: text, label: Name }
        - { id: date_of_birth, type: date, label: Date of birth }
    agent:
      prompt: Ask for the name and date of birth.
      tools: [save_name, save_dob, skip]
    confirmation_gate:
      variables: [first_name, date_of_birth]
      on_confirm: next
      on_reject: ${onReject}
      ${gateExtra}
    transitions:
      on_tool_call: { skip: elsewhere }
      on_ui_event: { form_submit: next, help: elsewhere }
      on_utterance: [ { pattern: '^skip it$', target: elsewhere } ]
  next:
    agent: { prompt: Next. }
    transitions: { on_ui_event: { finish: __end__ } }
  elsewhere:
    agent: { prompt: Elsewhere. }
    transitions: { on_ui_event: { finish: __end__ } }
`;

const GATE_TOOLS = ['confirm_first_name', 'reject_first_name', 'confirm_date_of_birth', 'reject_date_of_birth', 'confirm_identify', 'reject_identify'];

/** Captures both values through the LLM, then lets the visitor answer. */
function captureBoth(h: Harness): void {
  h.call('save_name', { first_name: 'Alex' });
  h.call('save_dob', { date_of_birth: '1990-01-02' });
  h.say('yes, that is right');
}

describe('generated gate tools', () => {
  it('offers both namings at all times in the gated state, also while nothing is pending', () => {
    const h = startFlow(flow());
    const offered = only(h.started, 'flow_state').agent.tools.map((t) => t.function.name);
    expect(offered).toEqual(['save_name', 'save_dob', 'skip', ...GATE_TOOLS]);
    expect(h.engine.view.tools).toEqual(offered);
    expect(h.engine.view.pending).toEqual([]);
    h.call('save_name', { first_name: 'Alex' });
    expect(h.engine.view.tools).toEqual(offered);
  });

  it('pushes a capture to the UI at once as pending', () => {
    const h = startFlow(flow());
    const out = h.call('save_name', { first_name: 'Alex' });
    expect(ofType(out, 'flow_variable')).toEqual([{ type: 'flow_variable', name: 'first_name', value: 'Alex', status: 'pending', source: 'tool' }]);
    expect(h.engine.view.gate).toEqual({ first_name: 'pending', date_of_birth: 'empty' });
  });

  it("asks with the flow's prompt only once every value it names is heard, never with a blank", () => {
    const h = startFlow(flow('{ action: clear }', 'prompt: "I have {first_name}, born {date_of_birth}. Is that right?"'));
    expect(only(h.call('save_name', { first_name: 'Alex' }), 'speech_cue').text).toBe('I heard Alex. Is that right?');
    expect(only(h.call('save_dob', { date_of_birth: '1990-01-02' }), 'speech_cue').text).toBe('I have Alex, born January 2, 1990. Is that right?');
  });
});

describe('confirming', () => {
  it('advances only when every gated variable is confirmed', () => {
    const h = startFlow(flow());
    captureBoth(h);
    const first = h.call('confirm_first_name');
    expect(only(first, 'tool_result')).toMatchObject({ ok: true, content: { confirmed: ['first_name'], still_needed: ['date_of_birth'] } });
    expect(h.engine.view.state).toBe('identify');
    expect(h.engine.view.gate).toEqual({ first_name: 'confirmed', date_of_birth: 'pending' });
    h.call('confirm_date_of_birth');
    expect(h.engine.view.state).toBe('next');
    expect(h.engine.view.values).toEqual({ first_name: 'Alex', date_of_birth: '1990-01-02' });
  });

  it('confirm_<state> confirms every gated variable at once', () => {
    const h = startFlow(flow());
    captureBoth(h);
    h.call('confirm_identify');
    expect(h.engine.view.state).toBe('next');
  });

  it('refuses a confirmation before the visitor has had a turn (no_user_turn)', () => {
    const h = startFlow(flow());
    h.call('save_name', { first_name: 'Alex' });
    const out = h.call('confirm_first_name');
    expect(only(out, 'tool_rejected').reason).toBe('no_user_turn');
    expect(types(out).indexOf('system_message')).toBeGreaterThan(types(out).indexOf('tool_rejected'));
    expect(h.engine.view.gate['first_name']).toBe('pending');
  });

  it('refuses a confirmation when a new capture came after the visitor last spoke', () => {
    const h = startFlow(flow());
    h.call('save_name', { first_name: 'Alex' });
    h.say('yes');
    h.call('save_name', { first_name: 'Alec' });
    expect(only(h.call('confirm_first_name'), 'tool_rejected').reason).toBe('no_user_turn');
  });

  it.each(['confirm_first_name', 'confirm_identify'])('refuses %s for an empty variable (not_captured)', (tool) => {
    const h = startFlow(flow());
    h.say('hello');
    const out = h.call(tool);
    expect(only(out, 'tool_rejected').reason).toBe('not_captured');
    expect(types(out).indexOf('system_message')).toBeGreaterThan(types(out).indexOf('tool_rejected'));
    expect(h.engine.view.state).toBe('identify');
  });
});

describe('blocked transitions', () => {
  const cases: { name: string; setup: (h: Harness) => unknown; reason: string; variables: Record<string, unknown> }[] = [
    { name: 'nothing captured', setup: () => undefined, reason: 'not_captured', variables: { first_name: null, date_of_birth: null } },
    {
      name: 'one captured, one empty',
      setup: (h) => h.call('save_name', { first_name: 'Alex' }),
      reason: 'not_captured',
      variables: { date_of_birth: null },
    },
    { name: 'both pending', setup: captureBoth, reason: 'pending_confirmation', variables: { first_name: 'Alex', date_of_birth: '1990-01-02' } },
    {
      name: 'one confirmed, one pending',
      setup: (h) => {
        captureBoth(h);
        h.call('confirm_first_name');
      },
      reason: 'pending_confirmation',
      variables: { date_of_birth: '1990-01-02' },
    },
  ];
  const attempts: { by: string; act: (h: Harness) => ReturnType<Harness['send']> }[] = [
    { by: 'tool call', act: (h) => h.call('skip') },
    { by: 'utterance', act: (h) => h.say('skip it') },
  ];

  describe.each(attempts)('by $by', ({ act }) => {
    it.each(cases)('$name: transition_blocked ($reason), then a system_message', ({ setup, reason, variables }) => {
      const h = startFlow(flow());
      setup(h);
      const out = act(h);
      const blocked = only(out, 'transition_blocked');
      expect(blocked).toMatchObject({ flow_id: 'gates', from_state: 'identify', attempted_target: 'elsewhere', reason, variables });
      for (const v of Object.keys(variables)) expect(blocked.detail).toContain(v);
      const system = out.findIndex((m) => m.type === 'system_message');
      expect(system).toBeGreaterThan(out.indexOf(blocked));
      for (const v of Object.keys(variables)) expect(ofType(out, 'system_message').at(-1)!.text).toContain(v);
      expect(h.engine.view.state).toBe('identify');
    });
  });
});

describe('rejecting', () => {
  it('action clear empties the variable and re-enters the same state by default', () => {
    const h = startFlow(flow());
    captureBoth(h);
    const epoch = h.engine.view.epoch;
    const out = h.call('reject_first_name');
    expect(ofType(out, 'flow_variable')).toEqual([{ type: 'flow_variable', name: 'first_name', value: null, status: 'cleared', source: 'gate' }]);
    expect(only(out, 'flow_state').state).toBe('identify');
    expect(h.engine.view.epoch).toBe(epoch + 1);
    expect(h.engine.view.gate).toEqual({ first_name: 'empty', date_of_birth: 'pending' });
  });

  it('reject_<state> clears every gated variable', () => {
    const h = startFlow(flow());
    captureBoth(h);
    h.call('reject_identify');
    expect(h.engine.view.gate).toEqual({ first_name: 'empty', date_of_birth: 'empty' });
    expect(h.engine.view.values).toEqual({});
  });

  it('action clear enters on_reject.target when given', () => {
    const h = startFlow(flow('{ action: clear, target: elsewhere }'));
    captureBoth(h);
    h.call('reject_first_name');
    expect(h.engine.view.state).toBe('elsewhere');
    expect(h.engine.view.values).not.toHaveProperty('first_name');
  });

  it('action keep keeps the value for editing and stays', () => {
    const h = startFlow(flow('{ action: keep }'));
    captureBoth(h);
    const epoch = h.engine.view.epoch;
    const out = h.call('reject_first_name');
    expect(ofType(out, 'flow_variable')).toEqual([]);
    expect(ofType(out, 'flow_state')).toEqual([]);
    expect(h.engine.view.epoch).toBe(epoch);
    expect(h.engine.view.values['first_name']).toBe('Alex');
    expect(ofType(out, 'system_message')).toHaveLength(1);
  });
});

describe("the visitor's own hands", () => {
  it('a form submit bypasses the gate: the values are set as confirmed and the UI transition fires', () => {
    const h = startFlow(flow());
    h.call('save_name', { first_name: 'Alex' });
    const out = h.ui('form_submit', { values: { first_name: 'Alice', date_of_birth: '1991-03-04' } });
    expect(ofType(out, 'flow_variable').slice(0, 2)).toEqual([
      { type: 'flow_variable', name: 'first_name', value: 'Alice', status: 'confirmed', source: 'ui' },
      { type: 'flow_variable', name: 'date_of_birth', value: '1991-03-04', status: 'confirmed', source: 'ui' },
    ]);
    expect(ofType(out, 'transition_blocked')).toEqual([]);
    expect(h.engine.view.state).toBe('next');
    expect(h.engine.view.values).toEqual({ first_name: 'Alice', date_of_birth: '1991-03-04' });
  });

  it('tapping confirm on a pending value confirms it; the last one advances', () => {
    const h = startFlow(flow());
    h.call('save_name', { first_name: 'Alex' });
    h.call('save_dob', { date_of_birth: '1990-01-02' });
    const out = h.ui('confirm_variable', { variable: 'first_name' });
    expect(ofType(out, 'flow_variable')).toEqual([{ type: 'flow_variable', name: 'first_name', value: 'Alex', status: 'confirmed', source: 'gate' }]);
    expect(h.engine.view.state).toBe('identify');
    h.ui('confirm_variable', { variable: 'date_of_birth' });
    expect(h.engine.view.state).toBe('next');
  });

  it('"Confirm all" confirms every value named in one step and advances once', () => {
    const h = startFlow(flow());
    h.call('save_name', { first_name: 'Alex' });
    h.call('save_dob', { date_of_birth: '1990-01-02' });
    const out = h.ui('confirm_variable', { variables: ['first_name', 'date_of_birth', 'first_name'] });
    expect(ofType(out, 'flow_variable').map((m) => [m.name, m.status, m.source])).toEqual([
      ['first_name', 'confirmed', 'gate'],
      ['date_of_birth', 'confirmed', 'gate'],
    ]);
    expect(ofType(out, 'flow_state').map((m) => m.state)).toEqual(['next']);
    expect(h.engine.view.state).toBe('next');
  });

  it('"Confirm all" leaves alone a value that is not waiting, and one that arrived after the tap was seen', () => {
    const h = startFlow(flow());
    h.call('save_name', { first_name: 'Alex' });
    h.call('save_dob', { date_of_birth: '1990-01-02' });
    // The visitor saw only the name waiting: the date is not confirmed with it.
    const out = h.ui('confirm_variable', { variables: ['first_name', 'unknown_thing'] });
    expect(ofType(out, 'flow_variable').map((m) => m.name)).toEqual(['first_name']);
    expect(h.engine.view.gate).toEqual({ first_name: 'confirmed', date_of_birth: 'pending' });
    expect(h.engine.view.state).toBe('identify');
  });

  it('editing a field sets it confirmed and tells the LLM what was typed, without advancing', () => {
    const h = startFlow(flow());
    h.call('save_name', { first_name: 'Alex' });
    const out = h.ui('field_change', { variable: 'first_name', value: 'Alexa' });
    expect(ofType(out, 'flow_variable')).toEqual([{ type: 'flow_variable', name: 'first_name', value: 'Alexa', status: 'confirmed', source: 'ui' }]);
    expect(only(out, 'system_message').text).toContain('Alexa');
    h.ui('field_change', { variable: 'date_of_birth', value: '1990-01-02' });
    expect(h.engine.view.gate).toEqual({ first_name: 'confirmed', date_of_birth: 'confirmed' });
    expect(h.engine.view.state).toBe('identify');
  });

  it('leaving by a UI action other than submit clears pending values and keeps confirmed ones', () => {
    const h = startFlow(flow());
    h.call('save_name', { first_name: 'Alex' });
    h.ui('field_change', { variable: 'date_of_birth', value: '1990-01-02' });
    const out = h.ui('help');
    expect(h.engine.view.state).toBe('elsewhere');
    expect(ofType(out, 'flow_variable')).toEqual([{ type: 'flow_variable', name: 'first_name', value: null, status: 'cleared', source: 'gate' }]);
    expect(h.engine.view.values).toEqual({ date_of_birth: '1990-01-02' });
  });
});

describe('expires_after', () => {
  it('clears a pending value that has waited that long since its capture, whatever the visitor did', () => {
    const h = startFlow(flow('{ action: clear }', 'expires_after: 30'));
    h.call('save_name', { first_name: 'Alex' });
    expect(h.engine.view.nextDeadline).toBe(30_000);
    h.clock.advance(20_000);
    h.say('hmm');
    expect(h.wait(9)).toEqual([]);
    const out = h.wait(1);
    expect(ofType(out, 'flow_variable')).toEqual([{ type: 'flow_variable', name: 'first_name', value: null, status: 'cleared', source: 'gate' }]);
    expect(only(out, 'system_message').text).toContain('first_name');
    expect(h.engine.view.gate['first_name']).toBe('empty');
  });

  it('leaves confirmed values alone', () => {
    const h = startFlow(flow('{ action: clear }', 'expires_after: 30'));
    h.ui('field_change', { variable: 'first_name', value: 'Alex' });
    h.wait(31);
    expect(h.engine.view.values['first_name']).toBe('Alex');
  });
});

const HELD = `
id: held
states:
  welcome:
    agent:
      prompt: Get the name.
      tools: [save_name]
    tools:
      save_name:
        description: Capture the name.
        parameters: { first_name: { type: string, required: true } }
    transitions:
      on_tool_call: { save_name: check }
  check:
    agent:
      prompt: Check the name.
      tools: [save_name]
    tools:
      save_name:
        description: Correct the name.
        parameters: { first_name: { type: string, required: true } }
    confirmation_gate:
      variables: [first_name]
      on_confirm: done
  done:
    agent: { prompt: Done. }
    transitions: { on_ui_event: { finish: __end__ } }
`;

describe('values held on entry', () => {
  it('count as pending and still need the visitor before a confirmation', () => {
    const h = startFlow(HELD);
    const out = h.call('save_name', { first_name: 'Alex' });
    expect(only(out, 'flow_state')).toMatchObject({ state: 'check', gate: { first_name: 'pending' }, values: { first_name: 'Alex' } });
    expect(h.engine.view.pending).toEqual(['first_name']);
    expect(only(h.call('confirm_first_name'), 'tool_rejected').reason).toBe('no_user_turn');
    h.say('yes');
    h.call('confirm_check');
    expect(h.engine.view.state).toBe('done');
  });
});

describe("the flow's own phrases", () => {
  const phrases = "confirm_phrases: ['yes', 'correct']\n      reject_phrases: ['no']";

  it('a yes that confirms but cannot move on yet names the fields still empty', () => {
    const h = startFlow(flow('{ action: clear }', phrases));
    h.call('save_name', { first_name: 'Alex' });
    const out = h.say('Yes.');
    expect(h.engine.view.gate).toEqual({ first_name: 'confirmed', date_of_birth: 'empty' });
    expect(only(out, 'speech_cue')).toMatchObject({ text: 'Thank you. Next: date of birth.', reason: 'confirmed' });
    expect(ofType(out, 'llm_turn')).toEqual([]);
    expect(only(out, 'system_message').text).toContain('confirmed first_name by saying "Yes."');
  });

  it('a yes with nothing left on the form asks the LLM for a turn', () => {
    const h = startFlow(`
id: voice_only
tools:
  save_name: { description: Name., parameters: { first_name: { type: string, required: true } } }
  save_town: { description: Town., parameters: { town: { type: string, required: true } } }
states:
  ask:
    agent: { prompt: Ask the name and town., tools: [save_name, save_town] }
    confirmation_gate:
      variables: [first_name, town]
      on_confirm: __end__
      confirm_phrases: [yes]
`);
    h.call('save_name', { first_name: 'Alex' });
    const out = h.say('yes');
    expect(h.engine.view.gate).toEqual({ first_name: 'confirmed', town: 'empty' });
    expect(only(out, 'llm_turn')).toMatchObject({ reason: 'user_spoke', epoch: h.engine.view.epoch });
    expect(ofType(out, 'speech_cue')).toEqual([]);
  });

  it('a yes that completes the gate moves on, and the new step speaks for itself', () => {
    const h = startFlow(flow('{ action: clear }', phrases));
    captureBoth(h);
    h.call('reject_first_name');
    h.call('save_name', { first_name: 'Alex' });
    const out = h.say('correct');
    expect(h.engine.view.state).toBe('next');
    expect(types(out)).toEqual(expect.arrayContaining(['flow_state', 'llm_turn']));
    expect(ofType(out, 'speech_cue')).toEqual([]);
  });

  it('are compared word by word as the visitor may write them: curly apostrophes, accents left out, any case', () => {
    for (const said of ['Oui, c’est ça.', 'SI, ES CORRECTO']) {
      const h = startFlow(flow('{ action: clear }', `confirm_phrases: ["oui c'est ça", "sí es correcto"]\n      reject_phrases: ['no']`));
      captureBoth(h);
      h.say(said);
      expect(h.engine.view.state, said).toBe('next');
    }
  });

  it('a no that keeps the values for editing asks the LLM what they should be', () => {
    const h = startFlow(flow('{ action: keep }', phrases));
    captureBoth(h);
    h.call('reject_first_name');
    h.call('save_name', { first_name: 'Alec' });
    const out = h.say('no');
    expect(h.engine.view.state).toBe('identify');
    expect(only(out, 'llm_turn').reason).toBe('user_spoke');
  });
});
