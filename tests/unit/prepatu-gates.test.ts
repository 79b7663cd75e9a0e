// Prepatu's gate extras (SPEC 9): the gate's prompt, the flow's own confirm and reject phrases,
// utterance captures that require confirmation, and who hears about a blocked transition.

import { describe, expect, it } from 'vitest';
import { ofType, only } from '../support/engine-harness.ts';
import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { FlowEngine } from '../../src/engine/runtime/engine.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import type { EngineMessage } from '../../src/engine/runtime/messages.ts';
import { VirtualClock } from '../../src/ports/clock.ts';


/** Starts an inline flow that must have no error; `entered` holds the messages of the start. */
function start(yaml: string) {
  const { loaded, diagnostics } = loadFlow(yaml, 'inline.yaml');
  expect(diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic)).toEqual([]);
  const engine = new FlowEngine(loaded!, new VirtualClock());
  const entered = engine.start();
  return { engine, entered };
}

/** The LLM calls `name` in the current epoch. */
function call(engine: FlowEngine, name: string, args: unknown = {}): EngineMessage[] {
  return engine.send({ type: 'tool_call', name, args, epoch: engine.view.epoch });
}

const say = (engine: FlowEngine, text: string) => engine.send({ type: 'utterance', text });

describe('confirmation_gate.prompt', () => {
  const flow = `
    id: gate_prompt
    tools:
      save_name:
        parameters: { first_name: { type: string, required: true } }
    states:
      greet:
        agent: { tools: [save_name] }
        transitions:
          on_tool_call: { save_name: check }
      check:
        agent: { tools: [save_name] }
        confirmation_gate:
          variables: [first_name]
          prompt: "I heard {first_name}, is that right?"
          on_confirm: __end__
  `;

  it('is given as the flow writes it in flow_state.gate_prompt and to the LLM, to fill in once heard', () => {
    const { engine } = start(flow);
    const state = only(call(engine, 'save_name', { first_name: 'Ana' }), 'flow_state');
    expect(state.state).toBe('check');
    expect(state.gate).toEqual({ first_name: 'pending' });
    expect(state.gate_prompt).toBe('I heard {first_name}, is that right?');
    expect(state.agent.system_prompt).toContain('with the values you heard: "I heard {first_name}, is that right?"');
  });

  it('is the speech cue after a capture', () => {
    const { engine } = start(flow);
    call(engine, 'save_name', { first_name: 'Ana' });
    const out = call(engine, 'save_name', { first_name: 'Bea' });
    expect(only(out, 'speech_cue')).toEqual({ type: 'speech_cue', text: 'I heard Bea, is that right?', reason: 'confirm_capture' });
    expect(engine.view.pending).toEqual(['first_name']);
  });
});

describe('confirm_phrases and reject_phrases', () => {
  const phrases = (gateExtras: string) => `
    id: phrases
    states:
      ask:
        agent: { tools: [save_name] }
        tools:
          save_name:
            parameters:
              first_name: { type: string, required: true }
              last_name: { type: string, required: true }
        confirmation_gate:
          variables: [first_name, last_name]
          on_confirm: welcome
          ${gateExtras}
      welcome:
        ui: { artifact_type: card, prompt: "Welcome, {first_name} {last_name}." }
        transitions: {}
  `;
  const withPhrases = phrases(`confirm_phrases: ["yes", "that's right"]
          reject_phrases: ["no", "wrong"]`);

  /** The flow after the LLM has captured both names. */
  function captured(yaml: string) {
    const { engine } = start(yaml);
    call(engine, 'save_name', { first_name: 'Ana', last_name: 'Lopez' });
    expect(engine.view.pending).toEqual(['first_name', 'last_name']);
    return engine;
  }

  it.each(['yes', 'Yes!', "  THAT'S RIGHT.  ", 'yes...'])('"%s" confirms every pending value without the LLM', (text) => {
    const engine = captured(withPhrases);
    const out = say(engine, text);
    expect(ofType(out, 'llm_turn').filter((m) => m.reason === 'user_spoke')).toEqual([]);
    expect(ofType(out, 'flow_variable').map((m) => [m.name, m.status])).toEqual([
      ['first_name', 'confirmed'],
      ['last_name', 'confirmed'],
    ]);
    expect(only(out, 'flow_state').state).toBe('welcome');
    expect(only(out, 'flow_end').variables).toEqual({ first_name: 'Ana', last_name: 'Lopez' });
  });

  it.each(['no', 'No.', 'WRONG!'])('"%s" rejects every pending value without the LLM', (text) => {
    const engine = captured(withPhrases);
    const out = say(engine, text);
    expect(ofType(out, 'llm_turn').filter((m) => m.reason === 'user_spoke')).toEqual([]);
    expect(ofType(out, 'flow_variable').map((m) => [m.name, m.status])).toEqual([
      ['first_name', 'cleared'],
      ['last_name', 'cleared'],
    ]);
    expect(only(out, 'flow_state')).toMatchObject({ state: 'ask', gate: { first_name: 'empty', last_name: 'empty' } });
    expect(engine.view.values).toEqual({});
  });

  it('leaves a transcript that is more than a phrase to the LLM', () => {
    const engine = captured(withPhrases);
    const out = say(engine, 'yes, but my last name is Lopes');
    expect(only(out, 'llm_turn').reason).toBe('user_spoke');
    expect(engine.view.pending).toEqual(['first_name', 'last_name']);
  });

  it('has no list of its own: with no phrases given, "yes" goes to the LLM', () => {
    const engine = captured(phrases(''));
    const out = say(engine, 'yes');
    expect(out).toEqual([{ type: 'llm_turn', epoch: engine.view.epoch, reason: 'user_spoke' }]);
    expect(engine.view.state).toBe('ask');
    expect(engine.view.pending).toEqual(['first_name', 'last_name']);
  });
});

describe('on_utterance with requires_confirmation', () => {
  const flow = `
    id: said_name
    states:
      ask:
        agent: { tools: [skip] }
        tools:
          skip: { description: Skip the question }
        transitions:
          on_utterance:
            - { pattern: "my name is ([a-z]+)", capture_to: first_name, target: welcome, requires_confirmation: true }
          on_tool_call: { skip: welcome }
      welcome:
        ui: { artifact_type: card, prompt: "Hello {first_name}" }
        transitions: {}
  `;

  it('makes the capture pending and waits for a confirmation, as behind a gate', () => {
    const { engine } = start(flow);
    const heard = say(engine, 'My name is Ana');
    expect(only(heard, 'flow_variable')).toMatchObject({ name: 'first_name', value: 'Ana', status: 'pending', source: 'utterance' });
    expect(only(heard, 'speech_cue').reason).toBe('confirm_capture');
    expect(ofType(heard, 'llm_turn')).toEqual([]);
    expect(ofType(heard, 'flow_state')).toEqual([]);
    expect(engine.view.state).toBe('ask');
    expect(engine.view.pending).toEqual(['first_name']);
    expect(engine.view.tools).toEqual(expect.arrayContaining(['confirm_first_name', 'reject_first_name', 'confirm_ask', 'reject_ask']));

    expect(only(call(engine, 'confirm_first_name'), 'tool_rejected').reason).toBe('no_user_turn');
    expect(only(call(engine, 'skip'), 'transition_blocked')).toMatchObject({ reason: 'pending_confirmation', variables: { first_name: 'Ana' } });
    expect(engine.view.state).toBe('ask');

    say(engine, 'yes');
    const confirmed = call(engine, 'confirm_first_name');
    expect(only(confirmed, 'flow_state')).toMatchObject({ state: 'welcome', artifact: { text: 'Hello Ana' } });
    expect(only(confirmed, 'flow_end').variables).toEqual({ first_name: 'Ana' });
  });

  it('clears the capture when the visitor rejects it', () => {
    const { engine } = start(flow);
    say(engine, 'my name is Ana');
    say(engine, 'no, it is Anna');
    call(engine, 'reject_first_name');
    expect(engine.view.state).toBe('ask');
    expect(engine.view.values).toEqual({});
  });
});

describe('on_transition_blocked', () => {
  /** A gated state whose `leave` tool is blocked while first_name is pending. */
  const onGate = (notice: string) => `
    id: notify_gate
    states:
      ask:
        agent: { tools: [save_name, leave] }
        tools:
          save_name:
            parameters: { first_name: { type: string, required: true } }
          leave: { description: Leave }
        confirmation_gate:
          variables: [first_name]
          on_confirm: __end__
          on_transition_blocked: ${notice}
        transitions:
          on_tool_call: { leave: __end__ }
  `;

  /** An ungated state whose guarded `save_age` transition is blocked for adults. */
  const onTransitions = (notice: string) => `
    id: notify_guard
    states:
      ask_age:
        agent: { tools: [save_age] }
        tools:
          save_age:
            parameters: { age: { type: integer, required: true } }
        transitions:
          on_transition_blocked: ${notice}
          on_tool_call:
            save_age:
              - { target: __end__, guard: { all: [ { variable: age, operator: lt, value: 18 } ] } }
  `;

  const blockedOnGate = (notice: string) => {
    const { engine } = start(onGate(notice));
    call(engine, 'save_name', { first_name: 'Ana' });
    const out = call(engine, 'leave');
    expect(engine.view.state).toBe('ask');
    return out;
  };

  const blockedOnGuard = (notice: string) => {
    const { engine } = start(onTransitions(notice));
    const out = call(engine, 'save_age', { age: 30 });
    expect(engine.view.state).toBe('ask_age');
    return out;
  };

  it.each([
    ['confirmation_gate', blockedOnGate, 'pending_confirmation'],
    ['transitions', blockedOnGuard, 'guard_failed'],
  ] as const)('on %s, notify_llm: false suppresses the system message', (_where, blocked, reason) => {
    const out = blocked('{ notify_llm: false }');
    expect(only(out, 'transition_blocked').reason).toBe(reason);
    expect(ofType(out, 'system_message')).toEqual([]);
  });

  it.each([
    ['confirmation_gate', blockedOnGate],
    ['transitions', blockedOnGuard],
  ] as const)('on %s, notify_client: false suppresses transition_blocked', (_where, blocked) => {
    const out = blocked('{ notify_client: false }');
    expect(ofType(out, 'transition_blocked')).toEqual([]);
    expect(only(out, 'system_message').text).toContain('blocked');
  });

  it.each([
    ['confirmation_gate', blockedOnGate],
    ['transitions', blockedOnGuard],
  ] as const)('on %s, both notices are given by default', (_where, blocked) => {
    const out = blocked('{}');
    expect(ofType(out, 'transition_blocked')).toHaveLength(1);
    expect(only(out, 'system_message').text).toContain('blocked');
  });
});
