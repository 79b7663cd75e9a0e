// A step that fails inside the engine (here: a hostile input object, a clock port that throws)
// takes the run to the error state with an engine_error for the runtime, and the engine goes on
// answering. engine-faults.property.test.ts throws from everywhere else.

import { describe, expect, it } from 'vitest';
import { FlowEngine } from '../../src/engine/runtime/engine.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import type { EngineInput } from '../../src/engine/runtime/messages.ts';
import { VirtualClock } from '../../src/ports/clock.ts';
import { only, ofType, startFlow, types } from '../support/engine-harness.ts';

const FLOW = (settings = '') => `
id: failing
${settings}
tools:
  save_name: { parameters: { first_name: { type: string, required: true } } }
states:
  ask:
    ui: { artifact_type: form, fields: [ { id: first_name, type: text, label: Name } ] }
    agent: { prompt: Ask the name., tools: [save_name] }
    confirmation_gate: { variables: [first_name], on_confirm: __end__ }
    transitions: { on_ui_event: { form_submit: __end__ } }
  sorry:
    ui: { artifact_type: card, title: Sorry, actions: [ { event: again, label: Again } ] }
    agent: { prompt: Apologise. }
    transitions: { on_ui_event: { again: ask } }
`;

/** Arguments from a model whose reading throws: no check can foresee every such object. */
const throwingArgs = {
  get first_name(): string {
    throw new TypeError('cannot read this');
  },
};

/** A clock that works until told to fail. */
class BreakableClock extends VirtualClock {
  broken = false;
  override now(): number {
    if (this.broken) throw new Error('the clock is gone');
    return super.now();
  }
}

describe('a step that fails inside the engine', () => {
  it('goes to __error__, reports engine_error with the state and the error, and does not throw', () => {
    const h = startFlow(FLOW());
    let out: ReturnType<typeof h.call> = [];
    expect(() => (out = h.call('save_name', throwingArgs))).not.toThrow();
    expect(types(out)).toEqual(['engine_error', 'system_message', 'flow_state', 'llm_turn']);
    expect(only(out, 'engine_error')).toEqual({ type: 'engine_error', state: 'ask', message: 'cannot read this' });
    expect(only(out, 'flow_state')).toMatchObject({ state: '__error__', artifact: { actions: [{ event: 'start_over', label: 'Start over' }] } });
    // The model hears that something failed, not the error's own text.
    expect(only(out, 'system_message').text).not.toContain('cannot read this');
    expect(h.engine.view.state).toBe('__error__');
  });

  it("still answers each tool call of the failed step, so the model's history stays whole", () => {
    const h = startFlow(FLOW());
    const out = h.send([h.input.call('save_name', { first_name: 'Ann' }, { call_id: 'a' }), h.input.call('save_name', throwingArgs, { call_id: 'b' })]);
    expect(ofType(out, 'tool_result')).toEqual([
      { type: 'tool_result', call_id: 'a', tool: 'save_name', ok: false, content: { error: 'engine_error', detail: expect.stringContaining('nothing was done') } },
      { type: 'tool_result', call_id: 'b', tool: 'save_name', ok: false, content: { error: 'engine_error', detail: expect.stringContaining('nothing was done') } },
    ]);
    // The step did not happen: the first call's capture is not kept either.
    expect(ofType(out, 'flow_variable')).toEqual([]);
    expect(h.engine.view.values).toEqual({});
  });

  it('answers every later input from the error state', () => {
    const h = startFlow(FLOW());
    h.call('save_name', throwingArgs);
    expect(types(h.say('hello?'))).toEqual(['llm_turn']);
    expect(only(h.call('save_name', { first_name: 'Ann' }), 'tool_rejected').reason).toBe('not_in_state');
    expect(h.wait(10)).toEqual([]);
  });

  it('clears unconfirmed values on the way out, as any exit of a gated state does', () => {
    const h = startFlow(FLOW());
    h.call('save_name', { first_name: 'Ann' });
    const out = h.call('save_name', throwingArgs);
    expect(ofType(out, 'flow_variable')).toEqual([{ type: 'flow_variable', name: 'first_name', value: null, status: 'cleared', source: 'gate' }]);
    expect(h.engine.view.values).toEqual({});
  });

  it('goes to settings.on_error when the flow names one', () => {
    const h = startFlow(FLOW('settings: { on_error: sorry }'));
    const out = h.call('save_name', throwingArgs);
    expect(only(out, 'flow_state').state).toBe('sorry');
    expect(types(h.ui('again'))).toContain('flow_state');
    expect(h.engine.view.state).toBe('ask');
  });

  it('a hostile input of any kind: a step whose inputs cannot be read', () => {
    const h = startFlow(FLOW());
    const unreadable = new Proxy({} as EngineInput, {
      get() {
        throw new Error('no fields here');
      },
    });
    const out = h.send(unreadable);
    expect(only(out, 'engine_error').message).toBe('no fields here');
    expect(h.engine.view.state).toBe('__error__');
  });

  it('the clock port failing during a step', () => {
    const loaded = loadFlow(FLOW(), 'f.yaml').loaded!;
    const clock = new BreakableClock();
    const engine = new FlowEngine(loaded, clock);
    engine.start();
    clock.broken = true;
    const out = engine.send({ type: 'utterance', text: 'hello' });
    expect(only(out, 'engine_error')).toMatchObject({ state: 'ask', message: 'the clock is gone' });
    expect(engine.view.state).toBe('__error__');
  });

  it('the clock port failing before the start: the first screen is the error card', () => {
    const loaded = loadFlow(FLOW(), 'f.yaml').loaded!;
    const clock = new BreakableClock();
    clock.broken = true;
    const engine = new FlowEngine(loaded, clock);
    const out = engine.start();
    expect(types(out)).toEqual(['engine_error', 'system_message', 'flow_state', 'llm_turn']);
    expect(only(out, 'flow_state').state).toBe('__error__');
    expect(engine.view).toMatchObject({ state: '__error__', ended: false });
  });
});
