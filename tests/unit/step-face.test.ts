// The face of a step (src/ui/step-face.ts): the kiosk holds a step's buttons for a moment only when
// a flow_state changed what is under the visitor's finger, not when the same step is shown again as
// it was (its timeout re-entered, a value cleared), which dropped a double tap's first tap on a slow
// tablet (issue 31 point 13).

import { describe, expect, it } from 'vitest';
import { FlowEngine } from '../../src/engine/runtime/engine.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import type { EngineMessage, FlowStateMessage } from '../../src/engine/runtime/messages.ts';
import { VirtualClock } from '../../src/ports/clock.ts';
import { faceOf } from '../../src/ui/step-face.ts';

const FLOW = `
id: t
languages: [en-US, de-DE]
title: { en: Name, de: Name }
states:
  ask:
    ui: { artifact_type: form, title: { en: Your name, de: Ihr Name }, fields: [ { id: name, label: { en: Name, de: Name }, required: true } ] }
    transitions: { on_ui_event: { form_submit: done }, on_timeout: { seconds: 30, target: ask } }
  done:
    ui: { artifact_type: card, title: { en: Thanks, de: Danke } }
`;

const states = (out: readonly EngineMessage[]) => out.filter((m): m is FlowStateMessage => m.type === 'flow_state');

describe('the face of a step', () => {
  const loaded = loadFlow(FLOW, 't.yaml').loaded!;
  const clock = new VirtualClock(0);
  const engine = new FlowEngine(loaded, clock);
  const first = states(engine.start())[0]!;

  it('is the same when the step is shown again as it was (its timeout re-entered it)', () => {
    clock.advance(31_000);
    const again = states(engine.send({ type: 'tick' })).at(-1)!;
    expect(again.state).toBe('ask');
    expect(again.agent.retry).toBe(1);
    expect(faceOf(again)).toBe(faceOf(first));
  });

  it('differs in another language, and on another step', () => {
    const german = states(engine.send({ type: 'tool_call', name: 'set_language', args: { language: 'de-DE' }, epoch: engine.view.epoch })).at(-1)!;
    expect(faceOf(german)).not.toBe(faceOf(first));
    const next = states(engine.send({ type: 'ui_event', event: 'form_submit', values: { name: 'Ann' } })).at(-1)!;
    expect(next.state).toBe('done');
    expect(faceOf(next)).not.toBe(faceOf(german));
  });
});
