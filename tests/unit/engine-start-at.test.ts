// Starting a visit at a chosen state with chosen values (the flow studio's "start here", issue 34):
// the visit enters that state as it would at the start, its values set and checked against their
// variables' types, in every language of the flow.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import { startingAt } from '../../src/engine/language/start-at.ts';
import { FlowEngine } from '../../src/engine/runtime/engine.ts';
import { VirtualClock } from '../../src/ports/clock.ts';

const clinic = loadFlow(readFileSync('flows/clinic-checkin.yaml', 'utf8'), 'clinic-checkin.yaml').loaded!;

describe('starting at a state', () => {
  it('enters the chosen state with the chosen values, in the visit\'s language too', () => {
    const moved = startingAt(clinic, 'summary', { full_name: 'Li Wei', date_of_birth: '1992-11-03', visit_reason: 'walk_in' });
    if ('problem' in moved) throw new Error(moved.problem);
    const engine = new FlowEngine(moved.inLanguage('de-DE'), new VirtualClock(0));
    const first = engine.start().find((m) => m.type === 'flow_state');
    expect(first).toMatchObject({ state: 'summary' });
    expect(engine.view.values).toMatchObject({ full_name: 'Li Wei', visit_reason: 'walk_in' });
    expect(engine.view.language).toBe('de-DE');
    engine.send({ type: 'ui_event', event: 'check_in' });
    expect(engine.view.pendingAction?.tool).toBe('check_in');
    // The flow itself is unchanged: a visit of it starts where it always did.
    expect(new FlowEngine(clinic, new VirtualClock(0)).start().find((m) => m.type === 'flow_state')).toMatchObject({ state: 'identify' });
  });

  it('says why it cannot: no such state, a value its variable cannot hold', () => {
    expect(startingAt(clinic, 'summery', {})).toEqual({ problem: '"summery" is not a state of this flow' });
    expect(startingAt(clinic, 'summary', { date_of_birth: 'yesterday' })).toEqual({ problem: 'date_of_birth: expected a date as YYYY-MM-DD' });
    expect(startingAt(clinic, 'summary', { visit_reason: 'lunch' })).toMatchObject({ problem: expect.stringContaining('visit_reason') });
    expect(startingAt(clinic, 'summary', { favourite: 'tea' })).toEqual({ problem: '"favourite" is not a variable of this flow' });
  });
});
