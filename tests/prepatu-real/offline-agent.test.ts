// The offline agent walks two of Prepatu's real flows end to end. They live beside the project
// (../shared/prepatu-flows), not in its repository, so this runs only through
// scripts/check-prepatu.mjs (npm run check:prepatu), which gives their folder as PREPATU_FLOWS.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OfflineAgent } from '../../src/adapters/offline-agent/offline-agent.ts';
import { loadFlow, type LoadedFlow } from '../../src/engine/language/load-flow.ts';
import { AgentLoop } from '../support/agent-loop.ts';

const FOLDER = process.env['PREPATU_FLOWS'] ?? '';
if (!FOLDER) throw new Error('PREPATU_FLOWS must name the folder of Prepatu\'s flows (npm run check:prepatu sets it)');

function load(text: string): LoadedFlow {
  const r = loadFlow(text, 'test.yaml');
  if (!r.loaded) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r.loaded;
}

async function started(flow: LoadedFlow): Promise<AgentLoop> {
  const loop = new AgentLoop(flow, new OfflineAgent());
  await loop.start();
  return loop;
}

function callsSince(loop: AgentLoop, from: number): string[] {
  return loop.calls.slice(from).map((c) => `${c.name} ${c.arguments}`);
}

describe("Prepatu's real flows, understood by the offline agent", () => {
  const prepatu = (name: string) => load(readFileSync(join(FOLDER, name), 'utf8'));

  it('walks the booking wizard: name, email, date, time and service, then books on yes', async () => {
    const loop = await started(prepatu('booking_wizard.yaml'));
    expect(loop.lastCaption).toBe("Hi! Let's start with your contact details. What's your full name?");
    await loop.say('Hi, I am Jane Smith');
    expect(callsSince(loop, 0)).toEqual(['capture_name {"full_name":"Jane Smith"}']);
    expect(loop.lastCaption).toBe("Got it. What's your email address?");
    await loop.say('jane dot smith at example dot com');
    expect(callsSince(loop, 1)).toEqual(['save_contact {"email":"jane.smith@example.com","full_name":"Jane Smith"}']);
    expect(loop.view.state).toBe('collect_appointment');
    await loop.say('May 20th at 2 pm');
    expect(loop.lastCaption).toBe("Thanks. I have preferred date: May 20th, time slot: 2 PM. What's your service type? You can say consultation, support or demo.");
    await loop.say('a demo please');
    expect(callsSince(loop, 2)).toEqual(['save_appointment {"service":"demo","date":"May 20th","time_slot":"2 PM"}']);
    expect(loop.view.state).toBe('review');
    expect(loop.lastCaption).toMatch(/Name: Jane Smith\. .*Is that all correct\?$/);
    await loop.say('yes');
    expect(callsSince(loop, 3)).toEqual(['confirm_booking {}']);
    expect(loop.view.ended).toBe(true);
  });

  it('finishes the booking wizard by touch, with a date typed into the answer box put in the form', async () => {
    const loop = await started(prepatu('booking_wizard.yaml'));
    await loop.tap({ event: 'form_submit', values: { full_name: 'Jane Smith', email: 'jane@example.com' } });
    expect(loop.view.state).toBe('collect_appointment');
    await loop.say('May 20');
    expect(loop.view.values['date']).toBe('May 20');
    await loop.tap({ event: 'form_submit', values: { date: 'May 20', time_slot: '2 PM', service: 'demo' } });
    expect(loop.view.state).toBe('review');
    const review = loop.emitted.filter((m) => m.type === 'flow_state').at(-1);
    expect(review?.type === 'flow_state' && review.artifact?.actions.map((a) => a.label)).toEqual(['Confirm booking', 'Restart booking']);
    await loop.tap({ event: 'confirm_booking' });
    expect(loop.view.ended).toBe(true);
    expect(loop.view.state).toBe('done');
  });

  it("says greeting's farewell once the name is saved", async () => {
    const loop = await started(prepatu('greeting.yaml'));
    await loop.say("I'm Alex");
    expect(callsSince(loop, 0)).toEqual(['save_name {"first_name":"Alex"}']);
    expect(loop.view.ended).toBe(true);
    expect(loop.lastCaption).toBe('Goodbye, Alex!');
  });

  it('moves through the IELTS onboarding: greeting, two captures in one answer, read-back, finish', async () => {
    const loop = await started(prepatu('ielts_onboarding.yaml'));
    expect(callsSince(loop, 0)).toEqual(['begin_setup {}']);
    expect(loop.view.state).toBe('collect_info');
    expect(loop.lastCaption).toBe("What's your first name?");
    await loop.say('My name is Alex and I was born on fifteen march nineteen ninety five');
    expect(callsSince(loop, 1)).toEqual(['save_name {"first_name":"Alex"}', 'save_dob {"date_of_birth":"15 March 1995"}']);
    expect(loop.lastCaption).toBe('Got it. I have first name: Alex, date of birth: 15 March 1995. Is that all correct?');
    await loop.say("yes that's right");
    expect(callsSince(loop, 3)).toEqual(['finish_setup {}', 'finish_onboarding {}']);
    expect(loop.view.ended).toBe(true);
  });
});
