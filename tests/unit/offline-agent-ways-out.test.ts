// The built-in assistant and the flow's global ways out (tests/fixtures/assistant/ways-out.yaml):
// a way out of every step that is a tool ("ask_for_person", "leave_message") is never taken for
// the step's own way on (a yes, a bare answer, a lone free-text parameter); it is called only when
// the visitor asks for it, by the label of its button, words of its description or its name, and
// not when they say they do not want it.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OfflineAgent } from '../../src/adapters/offline-agent/offline-agent.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import type { Clock } from '../../src/ports/clock.ts';
import { AgentLoop } from '../support/agent-loop.ts';

const FLOW = readFileSync(new URL('../fixtures/assistant/ways-out.yaml', import.meta.url), 'utf8');

/** Midday on 15 June 2025, the kiosk's "today" in these tests. */
const JUNE_15: Clock = { now: () => new Date(2025, 5, 15, 12).getTime() };

/** A visit on the help desk flow, on its first step (the site rules), or on the date's step. */
async function visit(step: 'rules' | 'when' = 'rules'): Promise<AgentLoop> {
  const loop = new AgentLoop(loadFlow(FLOW, 'ways-out.yaml').loaded!, new OfflineAgent(JUNE_15));
  await loop.start();
  if (step === 'when') await loop.tap({ event: 'agree' });
  expect(loop.view.state).toBe(step);
  return loop;
}

/** The tools the assistant called while the visitor said `text`. */
async function callsFor(loop: AgentLoop, text: string): Promise<string[]> {
  const before = loop.calls.length;
  await loop.say(text);
  return loop.calls.slice(before).map((c) => c.name);
}

describe('never the step’s own way on', () => {
  it.each(['yes', 'yes please', 'okay', 'I agree'])('"%s" on a card whose way on is a button: where the button is, no way out', async (said) => {
    const loop = await visit();
    expect(await callsFor(loop, said)).toEqual([]);
    expect(loop.view.state).toBe('rules');
    expect(loop.lastCaption).toBe('To go on, tap “I agree”.');
  });

  it('does not ask "Is that all correct?" on that card: the way out is no way on to agree to', async () => {
    const loop = await visit();
    expect(loop.lastCaption).toBe('Site rules. Please wear your visitor badge at all times.');
  });

  it.each(["I'm not sure", 'no idea', 'hmm, let me think'])('"%s" at the date: no message left for the staff, the question again', async (said) => {
    const loop = await visit('when');
    expect(await callsFor(loop, said)).toEqual([]);
    expect(loop.view.state).toBe('when');
    expect(loop.lastCaption).toBe("Sorry, I didn't catch that. What's your visit date?");
  });

  it('takes the date as the step’s own answer', async () => {
    const loop = await visit('when');
    expect(await callsFor(loop, 'the 3rd of July 2025')).toEqual(['save_date']);
    expect(loop.view.state).toBe('booked');
  });
});

describe('only when the visitor asks for it', () => {
  it.each([
    ["I'd like to talk to a person", 'rules'],
    ['Can I speak to a member of staff?', 'when'],
    ['where is the front desk', 'when'],
  ] as const)('"%s" (its button, its description) calls ask_for_person', async (said, step) => {
    const loop = await visit(step);
    expect(await callsFor(loop, said)).toEqual(['ask_for_person']);
    expect(loop.view.state).toBe('front_desk');
  });

  it('a message for the staff takes what was said as its text', async () => {
    const loop = await visit('when');
    expect(await callsFor(loop, 'I want to leave a message for the staff')).toEqual(['leave_message']);
    expect(loop.calls.at(-1)?.arguments).toBe(JSON.stringify({ message: 'I want to leave a message for the staff' }));
    expect(loop.view.state).toBe('message_left');
  });

  it.each(["I don't want to talk to a person", "I don't need a member of staff"])('"%s" calls nothing', async (said) => {
    const loop = await visit();
    expect(await callsFor(loop, said)).toEqual([]);
    expect(loop.view.state).toBe('rules');
  });
});
