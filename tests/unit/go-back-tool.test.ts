// The engine's go_back tool (issue 31 point 4): a visitor's words go back as the step's Back or
// change button would, taken by the engine as a tool call (below the visitor's own taps), never
// to a step the visit has not shown and never onwards; offered only where such a button is.

import { describe, expect, it } from 'vitest';
import { GO_BACK } from '../../src/engine/language/flow.ts';
import { only, ofType, startFlow, type Harness } from '../support/engine-harness.ts';

/** Two ways to a summary: the reason first, or a walk-in; the summary's "Change my reason" goes back to the reason. */
const FLOW = `
id: two_ways
states:
  start:
    ui: { artifact_type: options, variable: way, options: [ { id: booked, label: Booked }, { id: walk_in, label: Walk-in } ] }
    transitions:
      on_ui_event:
        option_select:
          - { target: reason, guard: { all: [ { variable: way, operator: eq, value: booked } ] } }
          - { target: summary }
  reason:
    ui: { artifact_type: options, variable: reason, options: [ { id: checkup, label: Checkup }, { id: results, label: Results } ] }
    transitions: { on_ui_event: { option_select: summary } }
  summary:
    ui:
      artifact_type: card
      title: Your visit
      actions: [ { event: change_reason, label: Change my reason }, { event: agree, label: I agree } ]
    transitions: { on_ui_event: { change_reason: reason, agree: done } }
  done:
    ui: { artifact_type: card, title: Thank you }
`;

/** The tools offered in the step the harness shows now. */
function offered(h: Harness): string[] {
  return ofType(h.log, 'flow_state').at(-1)!.agent.tools.map((t) => t.function.name);
}

describe('go_back, the engine\'s way back by words', () => {
  it('is offered where a button goes back, naming only such buttons (not "I agree", which leads on)', () => {
    const h = startFlow(FLOW);
    expect(offered(h)).not.toContain(GO_BACK);
    h.ui('option_select', { value: 'booked' });
    h.ui('option_select', { value: 'checkup' });
    const tool = ofType(h.log, 'flow_state').at(-1)!.agent.tools.find((t) => t.function.name === GO_BACK)!;
    expect(tool.function.parameters.properties['button']).toMatchObject({ enum: ['change_reason'] });
  });

  it('goes back to a step this visit has shown, as a tool call, and the step is shown again', () => {
    const h = startFlow(FLOW);
    h.ui('option_select', { value: 'booked' });
    h.ui('option_select', { value: 'checkup' });
    const out = h.call(GO_BACK, { button: 'change_reason' }, { call_id: 'b1' });
    expect(only(out, 'tool_result')).toMatchObject({ call_id: 'b1', ok: true });
    expect(only(out, 'flow_state').state).toBe('reason');
    expect(h.engine.view.state).toBe('reason');
  });

  it('never goes to a step the visit has not shown: the walk-in never saw the reason', () => {
    const h = startFlow(FLOW);
    h.ui('option_select', { value: 'walk_in' });
    expect(h.engine.view.state).toBe('summary');
    const out = h.call(GO_BACK, { button: 'change_reason' }, { call_id: 'b2' });
    expect(only(out, 'tool_rejected')).toMatchObject({ reason: 'invalid_arguments', detail: expect.stringContaining('has not shown') });
    expect(h.engine.view.state).toBe('summary');
  });

  it('never taps a button that leads on, nor one the step does not have', () => {
    const h = startFlow(FLOW);
    h.ui('option_select', { value: 'walk_in' });
    for (const button of ['agree', 'finish', '']) {
      expect(only(h.call(GO_BACK, { button }), 'tool_rejected')).toMatchObject({ reason: 'invalid_arguments', field: 'button' });
    }
    expect(h.engine.view.state).toBe('summary');
  });

  it('takes Back where the flow allows it, to the step before, and not on the first step', () => {
    const h = startFlow(`settings: { allow_back: true }\n${FLOW}`);
    expect(offered(h)).not.toContain(GO_BACK);
    h.ui('option_select', { value: 'booked' });
    expect(offered(h)).toContain(GO_BACK);
    const out = h.call(GO_BACK, { button: 'back' });
    expect(only(out, 'flow_state').state).toBe('start');
  });
});
