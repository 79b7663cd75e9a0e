// on_timeout (seed 001, SPEC 3 and 4): re-prompts that count retries and keep the state's values,
// the fallback after max_retries, a timer restarted by the visitor, and what a timeout out of a
// gated state leaves behind.

import { describe, expect, it } from 'vitest';
import { only, ofType, startFlow, type Harness } from '../support/engine-harness.ts';

const FLOW = `
id: timeouts
states:
  ask:
    ui:
      artifact_type: form
      fields:
        - { id: first_name, type: text, label: Name }
        - { id: email, type: email, label: Email }
    agent:
      prompt: Ask for the name and email.
      tools: [save_name]
    tools:
      save_name:
        description: Capture the name.
        parameters: { first_name: { type: string, required: true } }
    confirmation_gate:
      variables: [first_name, email]
      on_confirm: done
    transitions:
      on_ui_event: { form_submit: done }
      on_timeout: { seconds: 60, target: ask, max_retries: 2, fallback: help }
  help:
    agent: { prompt: Offer help. }
    transitions:
      on_timeout: { seconds: 30, target: ask }
  done:
    agent: { prompt: Thank them. }
    transitions:
      on_ui_event: { finish: __end__ }
`;

/** Each state entry so far, with its retry count. */
const entries = (h: Harness) => ofType(h.log, 'flow_state').map((m) => [m.state, m.agent.retry]);

describe('on_timeout retries', () => {
  it('the first max_retries timeouts re-enter the state (a new epoch), the next one takes the fallback', () => {
    const h = startFlow(FLOW);
    const epochs = [h.engine.view.epoch];
    for (let i = 1; i <= 2; i++) {
      const out = h.wait(60);
      expect(only(out, 'flow_state')).toMatchObject({ state: 'ask', agent: { retry: i } });
      epochs.push(h.engine.view.epoch);
    }
    expect(epochs).toEqual([1, 2, 3]);
    const out = h.wait(60);
    expect(only(out, 'flow_state')).toMatchObject({ state: 'help', agent: { retry: 0 } });
  });

  it('does not fire a second before the deadline', () => {
    const h = startFlow(FLOW);
    expect(h.wait(59)).toEqual([]);
    expect(ofType(h.wait(1), 'flow_state')).toHaveLength(1);
  });

  it('a retry re-entry keeps the values, pending ones included', () => {
    const h = startFlow(FLOW);
    h.call('save_name', { first_name: 'Alex' });
    h.ui('field_change', { variable: 'email', value: 'alex@example.org' });
    const out = h.wait(60);
    expect(ofType(out, 'flow_variable')).toEqual([]);
    expect(only(out, 'flow_state')).toMatchObject({
      gate: { first_name: 'pending', email: 'confirmed' },
      values: { first_name: 'Alex', email: 'alex@example.org' },
    });
    expect(h.engine.view.pending).toEqual(['first_name']);
  });

  it('a retry re-entry tells the LLM which retry this is', () => {
    const h = startFlow(FLOW);
    expect(only(h.wait(60), 'system_message').text).toMatch(/retry 1 of 2/);
    expect(only(h.wait(60), 'system_message').text).toMatch(/retry 2 of 2/);
  });

  it('a fresh entry says nothing about retries', () => {
    const h = startFlow(FLOW);
    expect(ofType(h.started, 'system_message')).toEqual([]);
  });

  it('a re-entry that is not a timeout (a gate reject) does not tell the LLM the visitor went silent', () => {
    const h = startFlow(FLOW);
    h.wait(60); // retry 1
    h.call('save_name', { first_name: 'Al' });
    h.say('no, it is Alex');
    const out = h.call('reject_first_name');
    expect(only(out, 'flow_state').state).toBe('ask');
    for (const m of ofType(out, 'system_message')) expect(m.text).not.toMatch(/has not answered|retry/);
  });
});

describe('on_timeout timer', () => {
  const activities: { name: string; act: (h: Harness) => unknown }[] = [
    { name: 'an utterance', act: (h) => h.say('hmm, let me think') },
    { name: 'a field change', act: (h) => h.ui('field_change', { variable: 'first_name', value: 'Al' }) },
    { name: 'an unmapped UI tap', act: (h) => h.ui('scroll') },
  ];

  it.each(activities)('restarts on $name', ({ act }) => {
    const h = startFlow(FLOW);
    h.clock.advance(50_000);
    act(h);
    expect(h.engine.view.nextDeadline).toBe(110_000);
    expect(ofType(h.wait(59), 'flow_state')).toEqual([]);
    expect(ofType(h.wait(1), 'flow_state')).toHaveLength(1);
  });

  it('does not restart on a tool call from the LLM', () => {
    const h = startFlow(FLOW);
    h.clock.advance(50_000);
    h.call('save_name', { first_name: 'Alex' });
    expect(ofType(h.wait(10), 'flow_state')).toHaveLength(1);
  });

  it.each(activities)('restarting on $name does not reset the retry count', ({ act }) => {
    const h = startFlow(FLOW);
    h.wait(60); // retry 1
    h.clock.advance(30_000);
    act(h);
    h.wait(60); // retry 2, not 1
    h.wait(60); // fallback
    expect(entries(h)).toEqual([
      ['ask', 0],
      ['ask', 1],
      ['ask', 2],
      ['help', 0],
    ]);
  });

  it('the count resets when the state is entered from another state', () => {
    const h = startFlow(FLOW);
    h.wait(60);
    h.wait(60);
    h.wait(60); // fallback to help
    const back = h.wait(30); // help times out to ask: a fresh entry
    expect(only(back, 'flow_state')).toMatchObject({ state: 'ask', agent: { retry: 0 } });
    expect(ofType(back, 'system_message')).toEqual([]);
    h.wait(60);
    h.wait(60);
    expect(h.engine.view.state).toBe('ask');
    h.wait(60);
    expect(h.engine.view.state).toBe('help');
  });
});

describe('on_timeout to another state', () => {
  it('goes to the target on the first timeout, with no retry counted', () => {
    const h = startFlow(FLOW);
    h.wait(60);
    h.wait(60);
    h.wait(60);
    expect(h.engine.view.state).toBe('help');
    expect(h.wait(29)).toEqual([]);
    expect(only(h.wait(1), 'flow_state')).toMatchObject({ state: 'ask', agent: { retry: 0 } });
  });

  it('clears unconfirmed values when it leaves a gated state; confirmed ones stay', () => {
    const h = startFlow(FLOW);
    h.call('save_name', { first_name: 'Alex' });
    h.ui('field_change', { variable: 'email', value: 'alex@example.org' });
    h.wait(60);
    h.wait(60);
    const out = h.wait(60);
    expect(h.engine.view.state).toBe('help');
    expect(ofType(out, 'flow_variable')).toEqual([{ type: 'flow_variable', name: 'first_name', value: null, status: 'cleared', source: 'gate' }]);
    expect(h.engine.view.values).toEqual({ email: 'alex@example.org' });
  });
});

describe('view.nextDeadline', () => {
  it('follows the timer of the current state', () => {
    const h = startFlow(FLOW);
    expect(h.engine.view.nextDeadline).toBe(60_000);
    h.clock.advance(20_000);
    h.say('hello');
    expect(h.engine.view.nextDeadline).toBe(80_000);
    h.wait(60); // retry at 80 s
    expect(h.engine.view.nextDeadline).toBe(140_000);
    h.ui('form_submit', { values: { first_name: 'Alex', email: 'alex@example.org' } });
    expect(h.engine.view.state).toBe('done');
    expect(h.engine.view.nextDeadline).toBeNull();
  });
});

describe('view.leavesAt: the time limit the kiosk warns of', () => {
  it('is null while a timeout only re-prompts, and the deadline once the next one leaves the step', () => {
    const h = startFlow(FLOW);
    expect(h.engine.view.leavesAt).toBeNull();
    h.wait(60);
    expect(h.engine.view.leavesAt).toBeNull();
    h.wait(60); // retry 2 of 2: the next timeout takes the fallback
    expect(h.engine.view.leavesAt).toBe(180_000);
    h.wait(60);
    expect(h.engine.view.state).toBe('help');
    expect(h.engine.view.leavesAt).toBe(210_000); // help's timeout goes to another state at once
  });

  it('is null in a state without a timeout, and after the end', () => {
    const h = startFlow(FLOW);
    h.ui('form_submit', { values: { first_name: 'Alex', email: 'alex@example.org' } });
    expect(h.engine.view.leavesAt).toBeNull();
    h.ui('finish');
    expect(h.engine.view.ended).toBe(true);
    expect(h.engine.view.leavesAt).toBeNull();
  });
});

describe('more_time', () => {
  /** In `help`, whose timeout of 30 s leaves for `ask`. */
  function inHelp(): Harness {
    const h = startFlow(FLOW);
    for (let i = 0; i < 3; i++) h.wait(60);
    expect(h.engine.view.state).toBe('help');
    return h;
  }

  it('doubles the time left when the tap alone would give less', () => {
    const h = inHelp();
    h.clock.advance(10_000); // 20 s left of 30
    expect(h.ui('more_time')).toEqual([]);
    expect(h.engine.view.leavesAt).toBe(h.clock.now() + 40_000);
    expect(ofType(h.wait(39), 'flow_state')).toEqual([]);
    expect(only(h.wait(1), 'flow_state').state).toBe('ask');
  });

  it('gives the whole timeout again, as any tap does, when that is more', () => {
    const h = inHelp();
    h.clock.advance(25_000); // 5 s left: twice is 10, the timeout is 30
    h.ui('more_time');
    expect(h.engine.view.leavesAt).toBe(h.clock.now() + 30_000);
  });

  it('changes nothing in a state without a timeout, and is never an action or a transition', () => {
    const h = startFlow(FLOW);
    h.ui('form_submit', { values: { first_name: 'Alex', email: 'alex@example.org' } });
    expect(h.ui('more_time')).toEqual([]);
    expect(h.engine.view).toMatchObject({ state: 'done', nextDeadline: null });
  });
});
