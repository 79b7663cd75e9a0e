// The end of a run (seed 001, SPEC 1 and 9): __end__ and terminal states, what comes after,
// unrecoverable errors, and the max_duration_secs cap.

import { describe, expect, it } from 'vitest';
import { only, ofType, startFlow, types } from '../support/engine-harness.ts';

const flow = (header = '', extraStates = '') => `
id: ending
${header}
states:
  ask:
    on_exit:
      - set: { farewell: "bye {first_name}" }
      - emit: ask_left
    ui:
      artifact_type: form
      fields: [ { id: first_name, type: text, label: Name } ]
    agent:
      prompt: Ask the name.
      tools: [save_name]
    tools:
      save_name:
        description: Capture the name.
        parameters: { first_name: { type: string, required: true } }
    confirmation_gate:
      variables: [first_name]
      on_confirm: thanks
    transitions:
      on_ui_event: { form_submit: __end__, rest: thanks }
  thanks:
    ui: { artifact_type: card, title: "Thanks, {first_name}" }
    agent: { prompt: Thank them. }
${extraStates}
`;

describe('__end__', () => {
  it('runs on_exit, then flow_end with the final variables', () => {
    const h = startFlow(flow());
    const out = h.ui('form_submit', { values: { first_name: 'Ann' } });
    expect(types(out).slice(-3)).toEqual(['flow_variable', 'analytics', 'flow_end']);
    expect(only(out, 'flow_end')).toEqual({
      type: 'flow_end',
      flow_id: 'ending',
      last_state: 'ask',
      mode: 'kiosk',
      variables: { first_name: 'Ann', farewell: 'bye Ann' },
      reason: 'completed',
    });
    expect(ofType(out, 'flow_state')).toEqual([]);
  });

  it('afterwards every input gets no answer and the view says ended', () => {
    const h = startFlow(flow());
    h.ui('form_submit', { values: { first_name: 'Ann' } });
    expect(h.say('hello?')).toEqual([]);
    expect(h.call('save_name', { first_name: 'Bo' })).toEqual([]);
    expect(h.wait(3600)).toEqual([]);
    expect(h.send({ type: 'fatal_error', message: 'late' })).toEqual([]);
    expect(h.engine.view).toMatchObject({ state: '__end__', ended: true, tools: [], nextDeadline: null });
    expect(h.engine.view.values).toMatchObject({ first_name: 'Ann' });
  });

  it.each([
    { header: '', mode: 'kiosk' },
    { header: 'mode: kiosk', mode: 'kiosk' },
    { header: 'mode: assistant', mode: 'assistant' },
  ])('carries the mode in flow_end ($header)', ({ header, mode }) => {
    const h = startFlow(flow(header));
    expect(only(h.ui('form_submit', { values: { first_name: 'Ann' } }), 'flow_end').mode).toBe(mode);
  });

  it('a terminal state runs its entry sequence, then ends the flow from there', () => {
    const h = startFlow(flow());
    const out = h.ui('rest');
    expect(types(out).slice(-3)).toEqual(['flow_state', 'llm_turn', 'flow_end']);
    expect(only(out, 'flow_state')).toMatchObject({ state: 'thanks', terminal: true });
    expect(only(out, 'flow_end').last_state).toBe('thanks');
    expect(h.engine.view.ended).toBe(true);
  });
});

describe('fatal_error', () => {
  it('goes to the built-in __error__ state: a card offering to start over', () => {
    const h = startFlow(flow());
    const out = h.send({ type: 'fatal_error', message: 'the language model is gone' });
    const state = only(out, 'flow_state');
    expect(state.state).toBe('__error__');
    expect(state.artifact?.type).toBe('card');
    expect(state.artifact?.actions).toContainEqual(expect.objectContaining({ event: 'start_over' }));
    expect(ofType(out, 'system_message')[0]!.text).toContain('the language model is gone');
    expect(h.engine.view).toMatchObject({ state: '__error__', ended: false });
  });

  it('goes to settings.on_error when the flow names one', () => {
    const h = startFlow(flow('settings: { on_error: sorry }', '  sorry: { agent: { prompt: Apologise. }, transitions: { on_ui_event: { ok: __end__ } } }'));
    h.send({ type: 'fatal_error', message: 'boom' });
    expect(h.engine.view.state).toBe('sorry');
  });

  it("shows the flow's own __error__ when it defines one", () => {
    const own = '  __error__: { ui: { artifact_type: card, title: Oops }, agent: { prompt: Sorry. }, transitions: { on_ui_event: { ok: __end__ } } }';
    const h = startFlow(flow('', own));
    const out = h.send({ type: 'fatal_error', message: 'boom' });
    expect(only(out, 'flow_state')).toMatchObject({ state: '__error__', artifact: { title: 'Oops' } });
  });

  it('does not let unconfirmed values leave the gated state', () => {
    const h = startFlow(flow());
    h.call('save_name', { first_name: 'Ann' });
    h.send({ type: 'fatal_error', message: 'boom' });
    expect(h.engine.view.values).not.toHaveProperty('first_name');
  });
});

describe('settings.max_duration_secs', () => {
  it('ends the flow with reason max_duration when no on_timeout is given', () => {
    const h = startFlow(flow('settings: { max_duration_secs: 120 }'));
    expect(h.engine.view.nextDeadline).toBe(120_000);
    h.clock.advance(100_000);
    h.say('still here'); // the visitor's activity does not extend the cap
    expect(h.wait(19)).toEqual([]);
    const out = h.wait(1);
    expect(only(out, 'flow_end')).toMatchObject({ last_state: 'ask', reason: 'max_duration' });
    expect(h.engine.view.ended).toBe(true);
  });

  it('goes to settings.on_timeout when given', () => {
    const h = startFlow(
      flow('settings: { max_duration_secs: 120, on_timeout: too_long }', '  too_long: { agent: { prompt: Time is up. }, transitions: { on_ui_event: { ok: __end__ } } }'),
    );
    const out = h.wait(120);
    expect(only(out, 'flow_state').state).toBe('too_long');
    expect(h.engine.view.ended).toBe(false);
    expect(h.wait(1000)).toEqual([]);
    expect(h.engine.view.state).toBe('too_long');
  });

  it('clears unconfirmed values on the way out; confirmed ones reach flow_end', () => {
    const h = startFlow(flow('settings: { max_duration_secs: 120 }'));
    h.call('save_name', { first_name: 'Ann' });
    const pending = only(h.wait(120), 'flow_end');
    expect(pending.variables).not.toHaveProperty('first_name');

    const h2 = startFlow(flow('settings: { max_duration_secs: 120 }'));
    h2.ui('field_change', { variable: 'first_name', value: 'Ann' });
    expect(only(h2.wait(120), 'flow_end').variables).toMatchObject({ first_name: 'Ann' });
  });
});
