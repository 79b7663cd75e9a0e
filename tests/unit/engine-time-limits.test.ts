// Every time limit the visitor meets, as the engine tells the kiosk (view.limits), and what
// more_time does to each (issue 18, WCAG 2.2.1): the visit's cap (settings.max_duration_secs),
// values waiting for a yes (a gate's expires_after) and the action waiting for a yes (its
// expires_after) act a minute from then when they are near (their last 30 s: at least twice the
// time they had left), as often as asked; a limit not near yet is left as it is; a kept visit
// keeps what was added.

import { describe, expect, it } from 'vitest';
import { FlowEngine } from '../../src/engine/runtime/engine.ts';
import { MORE_TIME_MS, NEAR_MS } from '../../src/engine/runtime/time-limits.ts';
import { VirtualClock } from '../../src/ports/clock.ts';
import { only, ofType, startFlow, type Harness } from '../support/engine-harness.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';

const FLOW = `
id: limits
settings:
  max_duration_secs: 600
  on_timeout: help
states:
  ask:
    ui:
      artifact_type: form
      fields:
        - { id: full_name, type: text, label: Full name }
    agent:
      prompt: Ask for the name.
      tools: [save_name]
    tools:
      save_name:
        description: Capture the name.
        parameters: { full_name: { type: string, required: true } }
    confirmation_gate:
      variables: [full_name]
      on_confirm: book
      expires_after: 120
    transitions:
      on_ui_event: { form_submit: book }
  book:
    agent:
      prompt: Offer to book.
      tools: [book_room]
    tools:
      book_room:
        description: Book the room.
        confirm: true
        expires_after: 90
        parameters: { room: { type: string, required: true } }
    transitions:
      on_tool_call: { book_room: done }
  help:
    agent: { prompt: Offer help. }
    transitions:
      on_ui_event: { finish: __end__ }
  done:
    agent: { prompt: Thank them. }
    transitions:
      on_ui_event: { finish: __end__ }
`;

const kinds = (h: Harness) => h.engine.view.limits.map((l) => [l.kind, l.at]);

describe('view.limits', () => {
  it('names the visit’s cap from the start, and a value waiting for its yes from its capture', () => {
    const h = startFlow(FLOW);
    expect(kinds(h)).toEqual([['visit', 600_000]]);
    h.clock.advance(10_000);
    h.call('save_name', { full_name: 'Maria Garcia' });
    expect(h.engine.view.limits).toEqual([
      { kind: 'values', at: 130_000, variables: ['full_name'] },
      { kind: 'visit', at: 600_000 },
    ]);
    expect(h.engine.view.nextDeadline).toBe(130_000);
  });

  it('names the action waiting for a yes, and nothing once the visit has ended', () => {
    const h = startFlow(FLOW);
    h.ui('form_submit', { values: { full_name: 'Maria Garcia' } });
    h.clock.advance(5_000);
    const pending = only(h.call('book_room', { room: 'Oak' }), 'action_pending');
    expect(h.engine.view.limits).toEqual([
      { kind: 'action', at: 95_000, action_id: pending.action_id },
      { kind: 'visit', at: 600_000 },
    ]);
    h.ui('confirm_action');
    h.ui('finish');
    expect(h.engine.view.ended).toBe(true);
    expect(h.engine.view.limits).toEqual([]);
  });
});

describe('more_time on a near limit', () => {
  it('puts the visit’s cap a minute on, as often as asked, and the cap acts then', () => {
    const h = startFlow(FLOW);
    h.clock.advance(600_000 - 25_000);
    h.ui('more_time'); // 25 s left: a minute, more than twice that
    expect(kinds(h)).toEqual([['visit', h.clock.now() + MORE_TIME_MS]]);
    for (let i = 0; i < 10; i++) {
      h.clock.advance(MORE_TIME_MS - 20_000);
      h.ui('more_time');
    }
    const at = h.engine.view.limits[0]!.at;
    expect(at).toBe(h.clock.now() + MORE_TIME_MS);
    expect(ofType(h.wait(MORE_TIME_MS / 1000 - 1), 'flow_state')).toEqual([]);
    expect(only(h.wait(1), 'flow_state').state).toBe('help');
    expect(h.engine.view.limits).toEqual([]);
  });

  it('keeps a value waiting for its yes for a minute from More time, more than twice the 29 s it had left', () => {
    const h = startFlow(FLOW);
    h.call('save_name', { full_name: 'Maria Garcia' });
    h.clock.advance(120_000 - 29_000);
    h.ui('more_time');
    expect(h.engine.view.limits[0]).toEqual({ kind: 'values', at: h.clock.now() + MORE_TIME_MS, variables: ['full_name'] });
    expect(ofType(h.wait(59), 'flow_variable')).toEqual([]);
    expect(h.engine.view.pending).toEqual(['full_name']);
    expect(only(h.wait(1), 'flow_variable')).toMatchObject({ name: 'full_name', status: 'cleared' });
  });

  it('keeps the action waiting for a yes a minute from each More time', () => {
    const h = startFlow(FLOW);
    h.ui('form_submit', { values: { full_name: 'Maria Garcia' } });
    h.call('book_room', { room: 'Oak' });
    h.clock.advance(90_000 - NEAR_MS);
    h.ui('more_time'); // 30 s left: a minute
    h.clock.advance(MORE_TIME_MS - NEAR_MS);
    h.ui('more_time'); // 30 s left again: a minute again
    expect(h.engine.view.pendingAction?.expiresAt).toBe(h.clock.now() + MORE_TIME_MS);
    expect(ofType(h.wait(59), 'action_result')).toEqual([]);
    expect(only(h.wait(1), 'action_result').status).toBe('expired');
  });

  it('leaves a limit that is not near yet as it is', () => {
    const h = startFlow(FLOW);
    h.call('save_name', { full_name: 'Maria Garcia' });
    h.clock.advance(120_000 - NEAR_MS - 1_000);
    h.ui('more_time');
    expect(kinds(h)).toEqual([
      ['values', 120_000],
      ['visit', 600_000],
    ]);
  });
});

describe('a kept visit', () => {
  it('keeps what more time added to the cap, and reads none from a snapshot taken before there was any', () => {
    const loaded = loadFlow(FLOW).loaded!;
    const clock = new VirtualClock(0);
    const engine = new FlowEngine(loaded, clock);
    engine.start();
    clock.advance(590_000);
    engine.send({ type: 'ui_event', event: 'more_time' });
    const snapshot = engine.snapshot();
    const again = FlowEngine.restore(loaded, clock, JSON.parse(JSON.stringify(snapshot)));
    if ('problem' in again) throw new Error(again.problem);
    expect(again.engine.view.limits).toEqual([{ kind: 'visit', at: 590_000 + MORE_TIME_MS }]);

    const { capExtendedMs: _dropped, ...older } = snapshot.session;
    const old = FlowEngine.restore(loaded, clock, { ...snapshot, session: older });
    if ('problem' in old) throw new Error(old.problem);
    expect(old.engine.view.limits).toEqual([{ kind: 'visit', at: 600_000 }]);
  });
});
