// "Didn't understand" (on_no_match, issue 20): answers that came to nothing (no phrase or rule
// took them, and nothing came of them: no value captured or confirmed, no call accepted, no tap)
// are counted like time-outs; once max_retries have, the next answer no rule takes goes to the
// fallback. The state's own rule wins over the flow's global one.

import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { flowToMermaid } from '../../src/engine/language/graph.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import { ofType, only, startFlow } from '../support/engine-harness.ts';

const flow = (own = 'on_no_match: { max_retries: 2, fallback: front_desk }', global = '') => `
id: menu
tools:
  save_choice:
    description: Capture what the visitor wants.
    parameters: { choice: { enum: [tea, coffee], required: true } }
${global}
states:
  pick:
    ui:
      artifact_type: options
      variable: choice
      options: [tea, coffee]
    agent: { prompt: Ask tea or coffee., tools: [save_choice] }
    transitions:
      on_ui_event: { option_select: done }
      on_tool_call: { save_choice: done }
      on_utterance: [ { pattern: "^(tea|coffee)$", capture_to: choice, target: done } ]
      ${own}
  front_desk:
    ui: { artifact_type: card, title: Please ask at the counter, actions: [ { event: ok, label: OK } ] }
    transitions: { on_ui_event: { ok: __end__ } }
  done: { ui: { artifact_type: card, title: Coming up } }
`;

describe('on_no_match', () => {
  it('goes to the fallback once max_retries answers in a row came to nothing', () => {
    const h = startFlow(flow());
    expect(ofType(h.say('hmm'), 'llm_turn')).toHaveLength(1);
    const second = h.say('what do you have');
    expect(ofType(second, 'llm_turn')).toHaveLength(1);
    expect(only(second, 'system_message').text).toContain('1 of the visitor\'s answers in a row came to nothing here (2 may before the flow goes on to "front_desk")');
    expect(h.engine.view.state).toBe('pick');
    const third = h.say('I am not sure');
    expect(ofType(third, 'llm_turn').map((m) => m.reason)).toEqual(['state_entered']);
    expect(h.engine.view.state).toBe('front_desk');
  });

  it('starts counting again when something comes of an answer (a tap), not when a call is refused', () => {
    const h = startFlow(flow());
    h.say('hmm');
    h.say('what?');
    h.call('save_choice', { choice: 'juice' });
    expect(h.engine.view.state).toBe('pick');
    h.say('hmm');
    expect(h.engine.view.state).toBe('front_desk');
    const again = startFlow(flow());
    again.say('hmm');
    again.say('what?');
    again.ui('nothing_here');
    again.say('hmm');
    again.say('sorry?');
    expect(again.engine.view.state).toBe('pick');
  });

  it('does not count what a rule takes', () => {
    const h = startFlow(flow('on_no_match: { max_retries: 0, fallback: front_desk }'));
    h.say('coffee');
    expect(h.engine.view.state).toBe('done');
    const strict = startFlow(flow('on_no_match: { max_retries: 0, fallback: front_desk }'));
    strict.say('a flat white');
    expect(strict.engine.view.state).toBe('front_desk');
  });

  it("takes the flow's global one where the state has none, and the state's own first", () => {
    const global = 'global:\n  on_no_match: { max_retries: 0, fallback: front_desk }';
    const h = startFlow(flow('', global));
    h.say('a flat white');
    expect(h.engine.view.state).toBe('front_desk');
    h.say('what?');
    expect(h.engine.view.state).toBe('front_desk');
    const own = startFlow(flow('on_no_match: { max_retries: 1, fallback: front_desk }', global));
    own.say('a flat white');
    expect(own.engine.view.state).toBe('pick');
  });

  it('is checked and drawn', () => {
    const bad = loadFlow(flow('on_no_match: { max_retries: 2, fallback: frontdesk }'), 'f.yaml').diagnostics.map(formatDiagnostic);
    expect(bad).toContainEqual(expect.stringContaining('error: "frontdesk" is not a state of this flow or __end__ (did you mean "front_desk"?) [unknown-target]'));
    const missing = loadFlow(flow('on_no_match: { retries: 2, fallback: front_desk }'), 'f.yaml').diagnostics.map(formatDiagnostic);
    expect(missing).toContainEqual(expect.stringContaining('unknown key "retries" (did you mean "max_retries"?)'));
    expect(flowToMermaid(loadFlow(flow(), 'f.yaml').loaded!.flow)).toContain('pick --> front_desk: not understood after 2 tries');
  });
});
