// Simultaneous events (seed 001 priority table, SPEC 3): inputs delivered in one step are tried
// ui_event, tool_call, utterance, timeout; the first that transitions wins, whatever the order
// they arrive in, and a dropped tool call is rejected as stale.

import { describe, expect, it } from 'vitest';
import type { EngineInput } from '../../src/engine/runtime/messages.ts';
import { ofType, startFlow, type Harness } from '../support/engine-harness.ts';

const FLOW = `
id: priority
states:
  pick:
    ui:
      artifact_type: form
      fields: [ { id: color, type: text, label: Favourite color } ]
    agent:
      prompt: Ask for a color.
      tools: [save_color]
    tools:
      save_color:
        description: Capture the color.
        parameters: { color: { type: string, required: true } }
    transitions:
      on_ui_event: { form_submit: by_ui }
      on_tool_call: { save_color: by_tool }
      on_utterance: [ { pattern: 'my color is (\\w+)', capture_to: color, target: by_utterance } ]
      on_timeout: { seconds: 10, target: by_timeout }
  by_ui: { agent: { prompt: UI won. }, transitions: { on_ui_event: { done: __end__ } } }
  by_tool: { agent: { prompt: Tool won. }, transitions: { on_ui_event: { done: __end__ } } }
  by_utterance: { agent: { prompt: Utterance won. }, transitions: { on_ui_event: { done: __end__ } } }
  by_timeout: { agent: { prompt: Timeout won. }, transitions: { on_ui_event: { done: __end__ } } }
`;

type Source = 'ui' | 'tool' | 'utterance' | 'tick';

/** One input of each source; the clock is already past the timeout when these are sent. */
function inputOf(h: Harness, source: Source): EngineInput {
  switch (source) {
    case 'ui':
      return h.input.ui('form_submit', { values: { color: 'blue' } });
    case 'tool':
      return h.input.call('save_color', { color: 'green' }, { call_id: 'llm' });
    case 'utterance':
      return h.input.say('My color is Red');
    case 'tick':
      return h.input.tick();
  }
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((x, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]));
}

const WINNER: Record<Source, { state: string; color: string | undefined }> = {
  ui: { state: 'by_ui', color: 'blue' },
  tool: { state: 'by_tool', color: 'green' },
  utterance: { state: 'by_utterance', color: 'Red' },
  tick: { state: 'by_timeout', color: undefined },
};

const SETS: { sources: Source[]; winner: Source }[] = [
  { sources: ['ui', 'tool', 'utterance', 'tick'], winner: 'ui' },
  { sources: ['ui', 'tool'], winner: 'ui' },
  { sources: ['ui', 'utterance'], winner: 'ui' },
  { sources: ['ui', 'tick'], winner: 'ui' },
  { sources: ['tool', 'utterance', 'tick'], winner: 'tool' },
  { sources: ['tool', 'utterance'], winner: 'tool' },
  { sources: ['tool', 'tick'], winner: 'tool' },
  { sources: ['utterance', 'tick'], winner: 'utterance' },
];

const CASES = SETS.flatMap(({ sources, winner }) => permutations(sources).map((order) => ({ order, winner, label: order.join(' + ') })));

describe('simultaneous events', () => {
  it.each(CASES)('$label: $winner wins', ({ order, winner }) => {
    const h = startFlow(FLOW);
    h.clock.advance(10_000); // the timeout is due in this step too
    h.send(order.map((source) => inputOf(h, source)));
    expect(h.engine.view.state).toBe(WINNER[winner].state);
    // Only the winner's values are applied; the dropped events capture nothing.
    expect(h.engine.view.values['color']).toBe(WINNER[winner].color);
  });

  it.each(CASES.filter((c) => c.order.includes('tool') && c.winner !== 'tool'))(
    '$label: the dropped tool call is rejected as stale, with one tool_result',
    ({ order }) => {
      const h = startFlow(FLOW);
      h.clock.advance(10_000);
      const out = h.send(order.map((source) => inputOf(h, source)));
      expect(ofType(out, 'tool_rejected')).toEqual([expect.objectContaining({ tool: 'save_color', call_id: 'llm', reason: 'stale' })]);
      expect(ofType(out, 'tool_result').filter((r) => r.call_id === 'llm')).toEqual([expect.objectContaining({ ok: false })]);
    },
  );

  it('a lower-priority event still counts when the higher one does not transition', () => {
    const h = startFlow(FLOW);
    // An unmapped UI event does not move the flow, so the tool call in the same step does.
    h.send([h.input.call('save_color', { color: 'green' }), h.input.ui('scroll')]);
    expect(h.engine.view.state).toBe('by_tool');
    expect(ofType(h.log, 'tool_rejected')).toEqual([]);
  });

  it('dropped utterances and ticks are ignored without a message of their own', () => {
    const h = startFlow(FLOW);
    h.clock.advance(10_000);
    const out = h.send([h.input.tick(), h.input.say('My color is Red'), h.input.ui('form_submit', { values: { color: 'blue' } })]);
    expect(ofType(out, 'llm_turn').map((m) => m.reason)).toEqual(['state_entered']);
    expect(ofType(out, 'flow_state').map((m) => m.state)).toEqual(['by_ui']);
    expect(ofType(out, 'tool_rejected')).toEqual([]);
  });
});
