// The built-in assistant's question at the end of a step, and what a "no" to it means (issue 21,
// point 10): after a read-back, "Is that all correct?", a plain no says something shown is wrong,
// so the assistant asks what, and never takes it for "cancel" or "decline"; where going on means
// agreeing (visitor sign-in's site rules), it asks "Do you agree?", and a no declines.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OfflineAgent } from '../../src/adapters/offline-agent/offline-agent.ts';
import { loadFlow, type LoadedFlow } from '../../src/engine/language/load-flow.ts';
import { AgentLoop } from '../support/agent-loop.ts';

function load(text: string): LoadedFlow {
  const r = loadFlow(text, 'test.yaml');
  if (!r.loaded) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r.loaded;
}

async function started(flow: LoadedFlow): Promise<AgentLoop> {
  const loop = new AgentLoop(flow, new OfflineAgent({ now: () => new Date(2025, 5, 15, 12).getTime() }));
  await loop.start();
  return loop;
}

/** What the assistant said after the visitor's line, and the tools it called. */
async function after(loop: AgentLoop, line: string): Promise<{ said: string; calls: string[] }> {
  const [calls, captions] = [loop.calls.length, loop.captions.length];
  await loop.say(line);
  return { said: loop.captions.slice(captions).join(' '), calls: loop.calls.slice(calls).map((c) => c.name) };
}

/** A booking read back on a card, with a way on and a way out by voice only. */
const BOOKING = `
id: booking
variables:
  day: { type: string, default: Friday }
states:
  check:
    ui:
      artifact_type: card
      title: Your booking
      text: "A table for two on {day}."
      actions:
        - { event: change, label: Change the booking }
    agent:
      prompt: Read the booking back. Call confirm_booking or cancel_booking.
      tools: [confirm_booking, cancel_booking]
    tools:
      confirm_booking: { description: The visitor confirms. }
      cancel_booking: { description: The visitor cancels. }
    transitions:
      on_tool_call: { confirm_booking: booked, cancel_booking: cancelled }
      on_ui_event: { change: check }
  booked: { ui: { artifact_type: card, title: Booked } }
  cancelled: { ui: { artifact_type: card, title: Cancelled } }
`;

describe('"Is that all correct?"', () => {
  it('a plain no asks what to change, where the card says how, and cancels nothing', async () => {
    const loop = await started(load(BOOKING));
    expect(loop.lastCaption).toBe('Your booking. A table for two on Friday. Is that all correct?');
    for (const no of ['no', 'No.', 'nope']) {
      const heard = await after(loop, no);
      expect(heard).toEqual({ said: 'All right. To make changes, tap “Change the booking”.', calls: [] });
      expect(loop.view.state).toBe('check');
    }
    expect((await after(loop, 'cancel it')).calls).toEqual(['cancel_booking']);
    expect(loop.view.state).toBe('cancelled');
  });

  it('without a button to change things, asks what', async () => {
    const loop = await started(load(BOOKING.replace('      actions:\n        - { event: change, label: Change the booking }\n', '').replace('      on_ui_event: { change: check }\n', '')));
    expect(await after(loop, 'no')).toEqual({ said: 'All right. What would you like to change?', calls: [] });
    expect((await after(loop, 'yes')).calls).toEqual(['confirm_booking']);
  });
});

describe('visitor sign-in\'s site rules', () => {
  async function atRules(): Promise<AgentLoop> {
    const loop = await started(load(readFileSync(new URL('../../flows/visitor-signin.yaml', import.meta.url), 'utf8')));
    await loop.tap({ event: 'form_submit', values: { full_name: 'Sam Lee', email: 'sam@example.com' } });
    await loop.tap({ event: 'option_select', value: 'Tom Becker' });
    expect(loop.view.state).toBe('rules');
    return loop;
  }

  it('asks for agreement, not whether the rules are correct', async () => {
    const loop = await atRules();
    expect(loop.lastCaption).toMatch(/car park\. Do you agree\?$/);
  });

  it('a no to "Do you agree?" declines, and the visitor is told where to go', async () => {
    const loop = await atRules();
    expect((await after(loop, 'no')).calls).toEqual(['decline_rules']);
    expect(loop.view.state).toBe('declined');
  });
});
