// Flow-wide ways out (`global`, issue 20): "talk to a person" by a button on every screen, by
// voice and by the LLM's tool, from any state, below the state's own transitions in priority,
// not held back by a confirmation gate (what waits for a yes is cleared on the way out), and not
// in terminal states, excepted states or the state it leads to.

import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import { ofType, only, startFlow } from '../support/engine-harness.ts';

const flow = (global = '') => `
id: reception
tools:
  save_name:
    description: Capture the name.
    parameters: { full_name: { type: name, required: true } }
  ask_for_person:
    description: The visitor wants to talk to a member of staff.
global:
  tools: [ask_for_person]
  actions: [ { event: talk_to_person, label: Talk to a person } ]
  on_ui_event: { talk_to_person: front_desk }
  on_tool_call: { ask_for_person: front_desk }
  on_utterance:
    - { pattern: "\\\\b(a person|someone|staff)\\\\b", target: front_desk }
${global}
states:
  ask:
    ui:
      artifact_type: form
      fields: [ { id: full_name, label: Your name } ]
    agent: { prompt: Ask for the name., tools: [save_name] }
    confirmation_gate: { variables: [full_name], on_confirm: menu }
    transitions:
      on_ui_event: { form_submit: menu }
  menu:
    ui:
      artifact_type: card
      title: What next?
      actions: [ { event: done, label: Done } ]
    transitions:
      on_ui_event: { done: bye, talk_to_person: help_desk }
      on_utterance: [ { pattern: "\\\\bstaff\\\\b", target: help_desk } ]
  quiet:
    ui: { artifact_type: card, title: Quiet }
    transitions: { on_ui_event: { done: bye } }
  help_desk:
    ui: { artifact_type: card, title: Help desk }
    transitions: { on_ui_event: { done: bye } }
  front_desk:
    ui: { artifact_type: card, title: Please see the front desk, actions: [ { event: done, label: Done } ] }
    transitions: { on_ui_event: { done: bye } }
  bye:
    ui: { artifact_type: card, title: Goodbye }
`;

/** The step's own buttons, and the flow's global ones shown beside them. */
const buttons = (h: ReturnType<typeof startFlow>, messages = h.started) => {
  const m = only(messages, 'flow_state');
  return [...(m.artifact?.actions ?? []), ...(m.global_actions ?? [])].map((a) => a.event);
};

describe('global ways out', () => {
  it('puts the button on every screen but the state it leads to and terminal ones', () => {
    const h = startFlow(flow());
    expect(buttons(h)).toEqual(['talk_to_person']);
    const desk = h.ui('talk_to_person');
    expect(h.engine.view.state).toBe('front_desk');
    expect(buttons(h, desk)).toEqual(['done']);
    expect(h.engine.view.tools).toEqual(['ask_for_person']);
    expect(buttons(h, h.ui('done'))).toEqual([]);
  });

  it('leaves a gated state by tap, voice or tool, clearing what waited for a yes', () => {
    for (const leave of [(h: ReturnType<typeof startFlow>) => h.ui('talk_to_person'), (h: ReturnType<typeof startFlow>) => h.say('can I talk to a person please'), (h: ReturnType<typeof startFlow>) => h.call('ask_for_person')]) {
      const h = startFlow(flow());
      h.call('save_name', { full_name: 'ada lovelace' });
      expect(h.engine.view.pending).toEqual(['full_name']);
      const out = leave(h);
      expect(h.engine.view.state).toBe('front_desk');
      expect(ofType(out, 'transition_blocked')).toEqual([]);
      expect(ofType(out, 'flow_variable')).toEqual([{ type: 'flow_variable', name: 'full_name', value: null, status: 'cleared', source: 'gate' }]);
    }
  });

  it("comes below the state's own mapping and rules", () => {
    const h = startFlow(flow());
    h.ui('form_submit', { values: { full_name: 'Ada' } });
    expect(h.engine.view.state).toBe('menu');
    h.say('is there any staff here');
    expect(h.engine.view.state).toBe('help_desk');
    const again = startFlow(flow());
    again.ui('form_submit', { values: { full_name: 'Ada' } });
    again.ui('talk_to_person');
    expect(again.engine.view.state).toBe('help_desk');
  });

  it('does not apply in the states it excepts', () => {
    const h = startFlow(flow('  except: [quiet]').replace('on_ui_event: { done: bye, talk_to_person: help_desk }', 'on_ui_event: { done: quiet, talk_to_person: help_desk }'));
    h.ui('form_submit', { values: { full_name: 'Ada' } });
    const quiet = h.ui('done');
    expect(h.engine.view.state).toBe('quiet');
    expect(buttons(h, quiet)).toEqual([]);
    expect(h.engine.view.tools).toEqual([]);
    expect(ofType(h.say('a person please'), 'llm_turn')).toHaveLength(1);
    expect(h.engine.view.state).toBe('quiet');
  });

  it('names the tools offered only by global in flow_state, for an assistant to tell from the step’s own', () => {
    const h = startFlow(flow());
    const ask = only(h.started, 'flow_state');
    expect(ask.agent.tools.map((t) => t.function.name)).toEqual(expect.arrayContaining(['save_name', 'ask_for_person']));
    expect(ask.global_tools).toEqual(['ask_for_person']);
    // A state that lists the tool among its own offers it as its own.
    const own = startFlow(`
id: own
tools:
  ask_for_person: { description: The visitor wants to talk to a member of staff. }
global:
  tools: [ask_for_person]
  on_tool_call: { ask_for_person: desk }
states:
  start:
    agent: { prompt: Offer a person., tools: [ask_for_person] }
    transitions: { on_tool_call: { ask_for_person: desk } }
  desk:
    ui: { artifact_type: card, title: Desk }
`);
    expect(only(own.started, 'flow_state').global_tools).toBeUndefined();
  });

  it('makes the states it leads to reachable', () => {
    // quiet is reached by nothing here; front_desk only by the global ways.
    expect(loadFlow(flow(), 'f.yaml').diagnostics.map(formatDiagnostic)).toEqual(['f.yaml:34:3: warning: state "quiet" cannot be reached from "ask" [unreachable-state]']);
  });
});

describe('vfdl check on global', () => {
  it.each([
    ['a tool the flow does not define', flow().replace('tools: [ask_for_person]', 'tools: [ask_for_person, ask_for_persn]'), 'error: tool "ask_for_persn" is not one of the flow\'s tools: a global tool is defined in the top-level tools (did you mean "ask_for_person"?) [unknown-tool]'],
    ['a built-in event', flow().replace('on_ui_event: { talk_to_person: front_desk }', 'on_ui_event: { talk_to_person: front_desk, form_submit: front_desk }'), 'error: "form_submit" is a UI event the kiosk gives its own meaning in each state'],
    ['a button that leads nowhere', flow().replace('label: Talk to a person }', 'label: Talk to a person }, { event: call_taxi, label: Call a taxi }'), 'error: a tap on "Call a taxi" would do nothing'],
    ['an unknown state to except', flow('  except: [frontdesk]'), 'error: "frontdesk" is not a state of this flow or __end__ (did you mean "front_desk"?) [unknown-target]'],
    ['a rule behind a gate', flow().replace('target: front_desk }', 'target: front_desk, requires_confirmation: true }'), 'error: a global rule is not behind any gate'],
  ])('refuses %s', (_, text, finding) => {
    const found = loadFlow(text, 'f.yaml').diagnostics.map(formatDiagnostic).filter((l) => l.includes(': error: '));
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(finding);
  });
});
