// on_utterance rules (seed 001, SPEC 3): tried case-insensitively on the final transcript before
// the LLM sees it; captures keep the transcript's case and take their variable's type; a match
// skips the LLM; guarded branches pick the target.

import { describe, expect, it } from 'vitest';
import { only, ofType, startFlow } from '../support/engine-harness.ts';

const FLOW = `
id: utterance
variables:
  age: { type: integer }
states:
  ask:
    agent:
      prompt: Ask who they are.
      tools: [save_count]
    tools:
      save_count:
        description: Capture a count.
        parameters: { count: { type: integer, required: true } }
    transitions:
      on_utterance:
        - { pattern: 'my name is (\\w+)$', capture_to: first_name, target: named }
        - { pattern: '^i am (\\w+) years old', capture_to: age, target: aged }
        - { pattern: '^i am (\\w+) years old', capture_to: age_words, target: unsure }
        - { pattern: '^i am (\\w+) (\\w+)$', capture_to: [first_name, last_name], target: named }
        - { pattern: 'call me (?<nickname>\\w+)', target: named }
        - { pattern: 'we are (\\d+)', capture_to: count, target: counted }
        - { pattern: 'email me at (\\S+)', capture_to: contact }
  named: { agent: { prompt: Hello. }, transitions: { on_ui_event: { done: __end__ } } }
  aged: { agent: { prompt: Aged. }, transitions: { on_ui_event: { done: __end__ } } }
  unsure: { agent: { prompt: Unsure. }, transitions: { on_ui_event: { done: __end__ } } }
  counted: { agent: { prompt: Counted. }, transitions: { on_ui_event: { done: __end__ } } }
`;

describe('on_utterance matching and captures', () => {
  const cases: { text: string; state: string; values: Record<string, unknown> }[] = [
    { text: 'My name is Alex', state: 'named', values: { first_name: 'Alex' } },
    { text: 'MY NAME IS alex', state: 'named', values: { first_name: 'alex' } },
    { text: '  my Name is ALEX  ', state: 'named', values: { first_name: 'ALEX' } },
    { text: 'I am Alex Smith', state: 'named', values: { first_name: 'Alex', last_name: 'Smith' } },
    { text: 'Please call me Sasha', state: 'named', values: { nickname: 'Sasha' } },
    { text: 'I am 44 years old', state: 'aged', values: { age: 44 } },
    { text: 'I am forty years old', state: 'unsure', values: { age_words: 'forty' } },
    { text: 'we are 3', state: 'counted', values: { count: 3 } },
  ];

  it.each(cases)('"$text" goes to $state with $values', ({ text, state, values }) => {
    const h = startFlow(FLOW);
    h.say(text);
    expect(h.engine.view.state).toBe(state);
    expect(h.engine.view.values).toEqual(values);
  });

  it('converts a capture to the variable type: "44" becomes the number 44', () => {
    const h = startFlow(FLOW);
    const out = h.say('I am 44 years old');
    expect(ofType(out, 'flow_variable')).toEqual([{ type: 'flow_variable', name: 'age', value: 44, status: 'set', source: 'utterance' }]);
  });

  it('a capture that does not convert is no match: the next rule is tried and the value is not set', () => {
    const h = startFlow(FLOW);
    h.say('I am forty years old');
    expect(h.engine.view.values).not.toHaveProperty('age');
    expect(h.engine.view.state).toBe('unsure');
  });
});

describe('on_utterance and the LLM', () => {
  it('a match that transitions skips the LLM for that turn (only the new state asks for a turn)', () => {
    const h = startFlow(FLOW);
    const out = h.say('My name is Alex');
    expect(ofType(out, 'llm_turn')).toEqual([{ type: 'llm_turn', epoch: h.engine.view.epoch, reason: 'state_entered' }]);
  });

  it('a match without a target captures and stays, with no llm_turn but a cue, so the kiosk is not silent', () => {
    const h = startFlow(FLOW);
    const out = h.say('Email me at Ann@Example.org');
    expect(ofType(out, 'llm_turn')).toEqual([]);
    expect(ofType(out, 'speech_cue').map((m) => m.reason)).toEqual(['captured']);
    expect(h.engine.view.state).toBe('ask');
    expect(h.engine.view.values['contact']).toBe('Ann@Example.org');
  });

  it('no match hands the turn to the LLM in the current epoch', () => {
    const h = startFlow(FLOW);
    const out = h.say('Good morning');
    expect(out).toEqual([{ type: 'llm_turn', epoch: h.engine.view.epoch, reason: 'user_spoke' }]);
    expect(h.engine.view.state).toBe('ask');
  });
});

const GUARDED = `
id: guarded
variables:
  age: { type: integer }
states:
  ask_age:
    agent: { prompt: Ask the age. }
    transitions:
      on_utterance:
        - pattern: '(\\d+)'
          capture_to: age
          target:
            - { target: minor, guard: { all: [ { variable: age, operator: lt, value: 18 } ] }, set: { category: minor } }
            - { target: adult, guard: { all: [ { variable: age, operator: lte, value: 120 } ] }, set: { category: adult } }
  minor: { agent: { prompt: Minor. }, transitions: { on_ui_event: { done: __end__ } } }
  adult: { agent: { prompt: Adult. }, transitions: { on_ui_event: { done: __end__ } } }
`;

describe('on_utterance with guarded branches', () => {
  const cases: { text: string; state: string; category: string }[] = [
    // 15 satisfies both guards: the first listed wins.
    { text: 'I am 15', state: 'minor', category: 'minor' },
    { text: 'I am 40', state: 'adult', category: 'adult' },
  ];

  it.each(cases)('"$text" takes the first branch whose guard holds ($state) and applies its set', ({ text, state, category }) => {
    const h = startFlow(GUARDED);
    const out = h.say(text);
    expect(h.engine.view.state).toBe(state);
    expect(h.engine.view.values['category']).toBe(category);
    // Captures first, then guards, then the branch's set.
    const vars = ofType(out, 'flow_variable').map((m) => [m.name, m.source]);
    expect(vars.slice(0, 2)).toEqual([
      ['age', 'utterance'],
      ['category', 'transition'],
    ]);
  });

  it('when no guard holds: transition_blocked with reason guard_failed, and the flow stays', () => {
    const h = startFlow(GUARDED);
    const out = h.say('I am 150');
    expect(only(out, 'transition_blocked')).toMatchObject({
      flow_id: 'guarded',
      from_state: 'ask_age',
      attempted_target: 'minor',
      reason: 'guard_failed',
    });
    expect(ofType(out, 'system_message')).toHaveLength(1);
    expect(h.engine.view.state).toBe('ask_age');
    expect(h.engine.view.values).toEqual({ age: 150 });
  });
});

const GATED = `
id: gated_utterance
states:
  ask_name:
    agent: { prompt: Ask the name. }
    confirmation_gate:
      variables: [first_name]
      on_confirm: done
    transitions:
      on_utterance: [ { pattern: 'my name is (\\w+)', capture_to: first_name, target: done } ]
  done: { agent: { prompt: Done. }, transitions: { on_ui_event: { finish: __end__ } } }
`;

describe('on_utterance in a gated state', () => {
  it('a capture of a gated variable is pending and its transition waits for confirmation', () => {
    const h = startFlow(GATED);
    const out = h.say('my name is Alex');
    expect(ofType(out, 'flow_variable')).toEqual([{ type: 'flow_variable', name: 'first_name', value: 'Alex', status: 'pending', source: 'utterance' }]);
    expect(only(out, 'transition_blocked').reason).toBe('pending_confirmation');
    expect(h.engine.view.state).toBe('ask_name');
    expect(h.engine.view.pending).toEqual(['first_name']);
  });
});
