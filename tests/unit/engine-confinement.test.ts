// Confinement of the LLM (seed 001, SPEC 3): only the state's tools, only valid arguments, only
// calls from the current epoch; and every call answered by exactly one tool_result.

import { describe, expect, it } from 'vitest';
import { only, ofType, startFlow, type Harness } from '../support/engine-harness.ts';

const FLOW = `
id: confine
states:
  profile:
    agent:
      prompt: Ask for the profile.
      tools: [save_profile, finish_profile]
    tools:
      save_profile:
        description: Capture the profile.
        parameters:
          first_name: { type: string, required: true }
          age: { type: integer, min: 0, max: 130 }
          color: { type: string, enum: [red, green] }
          code: { type: string, pattern: '^[A-Z]{3}$' }
          birthday: { type: date }
      finish_profile:
        description: The profile is complete.
    transitions:
      on_tool_call: { finish_profile: wrap_up }
      on_timeout: { seconds: 10, target: profile }
  wrap_up:
    agent:
      prompt: Say goodbye.
      tools: [say_bye]
    tools:
      say_bye:
        description: End the conversation.
    transitions:
      on_tool_call: { say_bye: __end__ }
`;

/** A gated state with an action-gated tool: the engine generates confirm/reject tools for both. */
const GENERATED = `
id: generated
states:
  check:
    agent:
      prompt: Check the name, then offer to send a card.
      tools: [save_name, send_card]
    tools:
      save_name:
        description: Capture the name.
        parameters: { first_name: { type: string, required: true } }
      send_card:
        description: Send a greeting card.
        confirm: true
        parameters: { to: { type: email, required: true } }
    confirmation_gate:
      variables: [first_name]
      on_confirm: done
  done:
    agent: { prompt: Done. }
    transitions: { on_ui_event: { finish: __end__ } }
`;

const PROFILE_VARIABLES = ['first_name', 'age', 'color', 'code', 'birthday'];

describe('confinement: tools not offered in the state', () => {
  it('rejects a tool of another state as not_in_state and tells the LLM', () => {
    const h = startFlow(FLOW);
    const out = h.call('say_bye', {}, { call_id: 'c1' });
    expect(only(out, 'tool_rejected')).toMatchObject({ tool: 'say_bye', call_id: 'c1', reason: 'not_in_state' });
    expect(only(out, 'system_message').text).toContain('say_bye');
    expect(h.engine.view.state).toBe('profile');
  });

  it('rejects a tool defined nowhere the same way', () => {
    const h = startFlow(FLOW);
    const out = h.call('delete_everything', { all: true });
    expect(only(out, 'tool_rejected').reason).toBe('not_in_state');
    expect(ofType(out, 'system_message')).toHaveLength(1);
  });
});

describe('confinement: arguments that fail the tool schema', () => {
  const cases: { name: string; args: unknown; field: string | undefined }[] = [
    { name: 'wrong type (integer)', args: { first_name: 'Ann', age: 'forty' }, field: 'age' },
    { name: 'wrong type (integer given a fraction)', args: { first_name: 'Ann', age: 4.5 }, field: 'age' },
    { name: 'wrong type (date)', args: { first_name: 'Ann', birthday: '03/04/1990' }, field: 'birthday' },
    { name: 'missing required', args: { age: 30 }, field: 'first_name' },
    { name: 'value outside the enum', args: { first_name: 'Ann', color: 'blue' }, field: 'color' },
    { name: 'pattern not matched', args: { first_name: 'Ann', code: 'ab1' }, field: 'code' },
    { name: 'below min', args: { first_name: 'Ann', age: -1 }, field: 'age' },
    { name: 'above max', args: { first_name: 'Ann', age: 131 }, field: 'age' },
    { name: 'malformed JSON string', args: '{"first_name": "Ann", ', field: undefined },
    { name: 'arguments that are not an object', args: ['Ann'], field: undefined },
  ];

  it.each(cases)('$name: invalid_arguments naming the field, and no variable set', ({ args, field }) => {
    const h = startFlow(FLOW);
    const out = h.call('save_profile', args);
    const rejected = only(out, 'tool_rejected');
    expect(rejected.reason).toBe('invalid_arguments');
    expect(rejected.field).toBe(field);
    expect(only(out, 'system_message').text).toContain('save_profile');
    expect(ofType(out, 'flow_variable')).toEqual([]);
    for (const v of PROFILE_VARIABLES) expect(h.engine.view.values).not.toHaveProperty(v);
  });

  it('accepts valid arguments, also as a JSON string, and sets the variables', () => {
    const h = startFlow(FLOW);
    h.call('save_profile', '{"first_name": "Ann", "age": 44, "color": "RED", "code": "ABC", "birthday": "1981-02-28"}');
    expect(h.engine.view.values).toMatchObject({ first_name: 'Ann', age: 44, color: 'red', code: 'ABC', birthday: '1981-02-28' });
  });
});

describe('confinement: epochs', () => {
  it('rejects a call from the previous epoch as stale and accepts one from the current epoch', () => {
    const h = startFlow(FLOW);
    const before = h.engine.view.epoch;
    h.call('finish_profile');
    expect(h.engine.view.state).toBe('wrap_up');
    expect(h.engine.view.epoch).toBe(before + 1);

    const late = h.call('finish_profile', {}, { epoch: before, call_id: 'late' });
    expect(only(late, 'tool_rejected')).toMatchObject({ tool: 'finish_profile', call_id: 'late', reason: 'stale' });
    expect(h.engine.view.state).toBe('wrap_up');

    h.call('say_bye', {}, { epoch: h.engine.view.epoch });
    expect(h.engine.view.ended).toBe(true);
  });

  it('rejects a stale call even for a tool the current state offers, without setting anything', () => {
    const h = startFlow(FLOW);
    const first = h.engine.view.epoch;
    h.wait(10); // timeout re-entry: a new epoch in the same state
    expect(h.engine.view.epoch).toBe(first + 1);
    const out = h.call('save_profile', { first_name: 'Ann' }, { epoch: first });
    expect(only(out, 'tool_rejected').reason).toBe('stale');
    expect(h.engine.view.values).not.toHaveProperty('first_name');
    h.call('save_profile', { first_name: 'Ann' });
    expect(h.engine.view.values['first_name']).toBe('Ann');
  });

  it('rejects a call tagged with an epoch that has not happened yet', () => {
    const h = startFlow(FLOW);
    const out = h.call('save_profile', { first_name: 'Ann' }, { epoch: h.engine.view.epoch + 1 });
    expect(only(out, 'tool_rejected').reason).toBe('stale');
  });
});

describe('every tool call gets exactly one tool_result', () => {
  const x = { call_id: 'x' };
  const cases: { name: string; flow: string; act: (h: Harness) => unknown; ok: boolean }[] = [
    { name: 'accepted call', flow: FLOW, act: (h) => h.call('save_profile', { first_name: 'Ann' }, x), ok: true },
    { name: 'call that transitions', flow: FLOW, act: (h) => h.call('finish_profile', {}, x), ok: true },
    { name: 'not_in_state', flow: FLOW, act: (h) => h.call('say_bye', {}, x), ok: false },
    { name: 'invalid_arguments', flow: FLOW, act: (h) => h.call('save_profile', { age: 3 }, x), ok: false },
    { name: 'stale', flow: FLOW, act: (h) => h.call('save_profile', { first_name: 'A' }, { ...x, epoch: 0 }), ok: false },
    {
      name: 'dropped in a step another call already decided',
      flow: FLOW,
      act: (h) => h.send([h.input.call('finish_profile'), h.input.call('save_profile', { first_name: 'A' }, x)]),
      ok: false,
    },
    {
      name: 'gate confirm refused (no_user_turn)',
      flow: GENERATED,
      act: (h) => [h.call('save_name', { first_name: 'Ann' }), h.call('confirm_first_name', {}, x)],
      ok: false,
    },
    {
      name: 'gate confirm accepted',
      flow: GENERATED,
      act: (h) => [h.call('save_name', { first_name: 'Ann' }), h.say('yes'), h.call('confirm_check', {}, x)],
      ok: true,
    },
    { name: 'gate reject', flow: GENERATED, act: (h) => [h.call('save_name', { first_name: 'Ann' }), h.call('reject_first_name', {}, x)], ok: true },
    { name: 'action proposed', flow: GENERATED, act: (h) => h.call('send_card', { to: 'ann@example.org' }, x), ok: true },
    {
      name: 'confirm_action refused (no_user_turn)',
      flow: GENERATED,
      act: (h) => [h.call('send_card', { to: 'ann@example.org' }), h.call('confirm_action', {}, x)],
      ok: false,
    },
    {
      name: 'confirm_action accepted',
      flow: GENERATED,
      act: (h) => [h.call('send_card', { to: 'ann@example.org' }), h.say('ok'), h.call('confirm_action', {}, x)],
      ok: true,
    },
    { name: 'reject_action with nothing pending', flow: GENERATED, act: (h) => h.call('reject_action', {}, x), ok: false },
  ];

  it.each(cases)('$name', ({ flow, act, ok }) => {
    const h = startFlow(flow);
    act(h);
    const results = ofType(h.log, 'tool_result').filter((r) => r.call_id === 'x');
    expect(results).toHaveLength(1);
    expect(results[0]!.ok).toBe(ok);
    const rejections = ofType(h.log, 'tool_rejected').filter((r) => r.call_id === 'x');
    expect(rejections).toHaveLength(ok ? 0 : 1);
  });

  it('answers several calls in one step one by one, also calls without a call_id', () => {
    const h = startFlow(FLOW);
    const out = h.send([
      h.input.call('save_profile', { first_name: 'Ann' }),
      h.input.call('save_profile', { first_name: 'Bo', age: 'x' }),
      h.input.call('say_bye'),
    ]);
    const ids = ofType(out, 'tool_result').map((r) => r.call_id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(ofType(out, 'tool_result').map((r) => r.ok)).toEqual([true, false, false]);
  });
});
