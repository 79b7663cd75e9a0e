// Entering and leaving a state (seed 001, SPEC 1 and 3): the entry sequence, the LLM's prompt and
// tools, the rendered artifact, and the on_enter / on_exit hooks.

import { describe, expect, it } from 'vitest';
import { only, ofType, startFlow, types } from '../support/engine-harness.ts';

const FLOW = `
id: entry
base_prompt: "You are the kiosk of {org}."
variables:
  org: { type: string, default: Acme }
  visits: { type: integer, default: 3 }
tools:
  save_profile:
    description: Capture the visitor's profile.
    parameters:
      first_name: { type: string, required: true, description: Given name }
      age: { type: integer, min: 0, max: 130 }
      height: { type: number }
      member: { type: boolean }
      birthday: { type: date, required: true }
      email: { type: email, max: 80 }
      phone: { type: phone, min: 6 }
      color: { type: string, enum: [red, green] }
      code: { type: string, pattern: '^[A-Z]{3}$', min: 3, max: 3 }
  unused:
    description: Not offered in ask_name.
states:
  ask_name:
    on_enter:
      - set: { greeting: "Hello from {org}", stamp: 7 }
      - clear: [leftover]
      - emit: name_asked
        data: { org: "{org}", visits: "{visits}", note: "at {org} x{visits}" }
    on_exit:
      - set: { leftover: "left {first_name}" }
      - emit: name_done
    ui:
      artifact_type: form
      title: "Welcome to {org}"
      text: "Visit {visits}"
      fields:
        - { id: first_name, type: text, label: "Your name at {org}?", required: true }
      submit_label: "Go to {org}"
      actions: [ { event: help, label: "Help from {org}" } ]
    agent:
      prompt: "Ask the name. Reply as JSON like {{\\"name\\": ...}}. Greeting: {greeting}."
      tools: [save_profile]
      context: reset
      response_constraint: { max_tokens: 60, temperature: 0.3, stop_phrases: [goodbye] }
    transitions:
      on_ui_event: { form_submit: done }
      on_timeout: { seconds: 30, target: ask_name }
  done:
    agent:
      prompt: "Say goodbye to {first_name}."
      tools: [unused]
    transitions:
      on_ui_event: { again: ask_name, finish: __end__ }
`;

describe('state entry', () => {
  it('runs on_enter hooks, then flow_state, then llm_turn, and starts the timer', () => {
    const h = startFlow(FLOW);
    expect(types(h.started)).toEqual(['flow_variable', 'flow_variable', 'analytics', 'flow_state', 'llm_turn']);
    const state = only(h.started, 'flow_state');
    expect(state).toMatchObject({ flow_id: 'entry', state: 'ask_name', epoch: 1, terminal: false });
    expect(only(h.started, 'llm_turn')).toEqual({ type: 'llm_turn', epoch: 1, reason: 'state_entered' });
    expect(h.engine.view.nextDeadline).toBe(30_000);
  });

  it('gives the LLM base_prompt + the state prompt, interpolated, with {{ and }} as literal braces', () => {
    const prompt = only(startFlow(FLOW).started, 'flow_state').agent.system_prompt;
    expect(prompt.startsWith('You are the kiosk of Acme.\n\nAsk the name. Reply as JSON like {"name": ...}. Greeting: Hello from Acme.')).toBe(true);
    expect(prompt).not.toContain('{org}');
    expect(prompt).not.toContain('{{');
  });

  it('offers only the state tools, as OpenAI function definitions with a JSON Schema', () => {
    const h = startFlow(FLOW);
    const tools = only(h.started, 'flow_state').agent.tools;
    expect(tools.map((t) => t.function.name)).toEqual(['save_profile']);
    expect(h.engine.view.tools).toEqual(['save_profile']);
    const fn = tools[0]!;
    expect(fn.type).toBe('function');
    expect(fn.function.description).toBe("Capture the visitor's profile.");
    expect(fn.function.parameters.type).toBe('object');
    expect(fn.function.parameters.additionalProperties).toBe(false);
    expect(fn.function.parameters.required).toEqual(['first_name', 'birthday']);
    const p = fn.function.parameters.properties;
    expect(p['first_name']).toEqual({ type: 'string', description: 'Given name' });
    expect(p['age']).toEqual({ type: 'integer', minimum: 0, maximum: 130 });
    expect(p['height']).toEqual({ type: 'number' });
    expect(p['member']).toEqual({ type: 'boolean' });
    expect(p['birthday']).toMatchObject({ type: 'string', format: 'date' });
    expect(p['email']).toMatchObject({ type: 'string', format: 'email' });
    expect(p['phone']).toMatchObject({ type: 'string' });
    expect(p['color']).toEqual({ type: 'string', enum: ['red', 'green'] });
    expect(p['code']).toEqual({ type: 'string', pattern: '^[A-Z]{3}$', minLength: 3, maxLength: 3 });
  });

  it('gives every string-typed parameter its length limits as minLength/maxLength, as the engine enforces them', () => {
    const p = only(startFlow(FLOW).started, 'flow_state').agent.tools[0]!.function.parameters.properties;
    expect(p['email']).toEqual({ type: 'string', format: 'email', maxLength: 80 });
    expect(p['phone']).toMatchObject({ type: 'string', minLength: 6 });
    expect(p['phone']).not.toHaveProperty('minimum');
  });

  it('interpolates the artifact: title, text, labels, submit label and action labels', () => {
    const artifact = only(startFlow(FLOW).started, 'flow_state').artifact;
    expect(artifact).toMatchObject({
      type: 'form',
      title: 'Welcome to Acme',
      text: 'Visit 3',
      fields: [{ id: 'first_name', label: 'Your name at Acme?', required: true }],
      submitLabel: 'Go to Acme',
      actions: [{ event: 'help', label: 'Help from Acme' }],
    });
  });

  it('passes agent.context and response_constraint in flow_state (context defaults to append)', () => {
    const h = startFlow(FLOW);
    const first = only(h.started, 'flow_state').agent;
    expect(first.context).toBe('reset');
    expect(first.response_constraint).toEqual({ max_tokens: 60, temperature: 0.3, stop_phrases: ['goodbye'] });
    const next = only(h.ui('form_submit', { values: { first_name: 'Ann' } }), 'flow_state').agent;
    expect(next.context).toBe('append');
    expect(next.response_constraint).toBeUndefined();
    expect(next.tools.map((t) => t.function.name)).toEqual(['unused']);
  });
});

describe('on_enter and on_exit hooks', () => {
  it('set interpolates {var}, keeps non-string values, and reports each value', () => {
    const h = startFlow(FLOW);
    expect(ofType(h.started, 'flow_variable')).toEqual([
      { type: 'flow_variable', name: 'greeting', value: 'Hello from Acme', status: 'set', source: 'hook' },
      { type: 'flow_variable', name: 'stamp', value: 7, status: 'set', source: 'hook' },
    ]);
    expect(h.engine.view.values).toMatchObject({ greeting: 'Hello from Acme', stamp: 7 });
  });

  it('emit sends an analytics event with its data interpolated (a lone {var} keeps its type)', () => {
    const event = only(startFlow(FLOW).started, 'analytics');
    expect(event).toEqual({
      type: 'analytics',
      event: 'name_asked',
      state: 'ask_name',
      data: { org: 'Acme', visits: 3, note: 'at Acme x3' },
    });
  });

  it('on_exit runs on leaving, before the next state is entered', () => {
    const h = startFlow(FLOW);
    const out = h.ui('form_submit', { values: { first_name: 'Ann' } });
    const exitSet = out.findIndex((m) => m.type === 'flow_variable' && m.name === 'leftover');
    const exitEmit = out.findIndex((m) => m.type === 'analytics' && m.event === 'name_done');
    const entered = out.findIndex((m) => m.type === 'flow_state');
    expect(exitSet).toBeGreaterThanOrEqual(0);
    expect(exitSet).toBeLessThan(exitEmit);
    expect(exitEmit).toBeLessThan(entered);
    expect(only(out, 'analytics')).toEqual({ type: 'analytics', event: 'name_done', state: 'ask_name' });
    expect(h.engine.view.values['leftover']).toBe('left Ann');
    expect(only(out, 'flow_state').agent.system_prompt).toBe('You are the kiosk of Acme.\n\nSay goodbye to Ann.');
  });

  it('clear removes a variable and reports it as cleared', () => {
    const h = startFlow(FLOW);
    h.ui('form_submit', { values: { first_name: 'Ann' } });
    expect(h.engine.view.values['leftover']).toBe('left Ann');
    const out = h.ui('again');
    expect(ofType(out, 'flow_variable')).toContainEqual({ type: 'flow_variable', name: 'leftover', value: null, status: 'cleared', source: 'hook' });
    expect(h.engine.view.values).not.toHaveProperty('leftover');
  });

  it('does not run on_exit when the flow merely stays in the state', () => {
    const h = startFlow(FLOW);
    const out = h.say('hello');
    expect(ofType(out, 'analytics')).toEqual([]);
    expect(types(out)).toEqual(['llm_turn']);
  });
});
