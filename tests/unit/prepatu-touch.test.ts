// A Prepatu wizard finished by touch alone: Continue on a form whose state maps no form_submit
// calls the state's advancing tool with the form's values, a review card that only the LLM could
// move on gets a button for each of its advancing tools without parameters, and the offline
// assistant puts a date it hears into the form even before its tool can take it.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OfflineAgent } from '../../src/adapters/offline-agent/offline-agent.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import { AgentLoop } from '../support/agent-loop.ts';
import { ofType, only, startFlow } from '../support/engine-harness.ts';

const BIKE = readFileSync(new URL('../fixtures/prepatu-dialect/bike_dropoff.yaml', import.meta.url), 'utf8');

describe('by touch alone', () => {
  it('goes from the first form to the booking with Continue and the review card\'s button', () => {
    const h = startFlow(BIKE);
    h.ui('form_submit', { values: { customer_name: 'omar haddad', customer_email: 'Omar@Example.com' } });
    expect(h.engine.view.state).toBe('pick_slot');
    expect(h.engine.view.values).toMatchObject({ customer_name: 'omar haddad', customer_email: 'Omar@Example.com' });

    h.ui('form_submit', { values: { dropoff_day: 'June 3', dropoff_time: '9 AM', repair_type: 'Gears' } });
    expect(h.engine.view.state).toBe('check_booking');
    expect(h.engine.view.values).toMatchObject({ dropoff_day: 'June 3', dropoff_time: '9 AM', repair_type: 'gears' });

    const card = ofType(h.log, 'flow_state').at(-1)!;
    expect(card.artifact?.actions).toEqual([
      { event: 'book_dropoff', label: 'Book dropoff' },
      { event: 'change_details', label: 'Change details' },
    ]);
    const out = h.ui('book_dropoff');
    expect(only(out, 'flow_end')).toMatchObject({ last_state: 'booked' });
  });

  it("the review card's other button goes back, as its tool does", () => {
    const h = startFlow(BIKE);
    h.ui('form_submit', { values: { customer_name: 'Omar', customer_email: 'omar@example.com' } });
    h.ui('form_submit', { values: { dropoff_day: 'June 3', dropoff_time: '9 AM', repair_type: 'brakes' } });
    expect(h.engine.view.state).toBe('check_booking');
    h.ui('change_details');
    expect(h.engine.view.state).toBe('rider_details');
  });

  it('names what is missing or wrong, moves nowhere and keeps nothing half-done', () => {
    const h = startFlow(BIKE);
    h.ui('form_submit', { values: { customer_name: 'Omar', customer_email: 'omar@example.com' } });
    const missing = h.ui('form_submit', { values: { dropoff_day: 'June 3', dropoff_time: '', repair_type: 'gears' } });
    expect(only(missing, 'transition_blocked')).toMatchObject({ reason: 'not_captured', variables: { dropoff_time: null } });
    const wrong = h.ui('form_submit', { values: { dropoff_day: 'June 3', dropoff_time: '9 AM', repair_type: 'a new bell' } });
    expect(only(wrong, 'transition_blocked')).toMatchObject({ reason: 'invalid_input', variables: { repair_type: null } });
    expect(h.engine.view.state).toBe('pick_slot');
    expect(h.engine.view.values['dropoff_day']).toBeUndefined();
  });

  it('leaves a form with its own form_submit, and a state with a way on of its own, as they are', () => {
    const h = startFlow(`
id: own_ways
states:
  ask:
    ui: { artifact_type: form, fields: [ { id: town, type: text, label: Town } ] }
    agent: { prompt: Ask., tools: [save_town] }
    tools:
      save_town: { description: Town., parameters: { town: { type: string, required: true } } }
    transitions:
      on_tool_call: { save_town: elsewhere }
      on_ui_event: { form_submit: review }
  review:
    ui: { artifact_type: card, title: Check }
    agent: { prompt: Check., tools: [finish] }
    tools:
      finish: { description: Finish. }
    transitions:
      on_tool_call: { finish: __end__ }
      on_ui_event: { help: elsewhere }
  elsewhere:
    ui: { artifact_type: card, title: Elsewhere }
    transitions: {}
`);
    h.ui('form_submit', { values: { town: 'Leeds' } });
    expect(h.engine.view.state).toBe('review');
    expect(ofType(h.log, 'flow_state').at(-1)!.artifact?.actions).toEqual([]);
    h.ui('finish');
    expect(h.engine.view.state).toBe('review');
  });
});

describe('the offline assistant on the wizard', () => {
  it('puts a date said before the rest into the form, and Continue takes it from there', async () => {
    const r = loadFlow(BIKE, 'bike_dropoff.yaml');
    const loop = new AgentLoop(r.loaded!, new OfflineAgent());
    await loop.start();
    await loop.say("I'm Omar Haddad");
    await loop.say('omar@example.com');
    expect(loop.view.state).toBe('pick_slot');
    await loop.say('June 3rd');
    expect(loop.formValues).toEqual([{ field: 'dropoff_day', value: 'June 3rd' }]);
    expect(loop.view.values['dropoff_day']).toBe('June 3rd');
    expect(loop.lastCaption).toBe("Thanks. I have drop-off day: June 3rd. What's your drop-off time?");
    await loop.tap({ event: 'form_submit', values: { dropoff_day: 'June 3rd', dropoff_time: '10 AM', repair_type: 'puncture' } });
    expect(loop.view.state).toBe('check_booking');
  });
});
