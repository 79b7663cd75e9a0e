// What a newcomer typed to the offline assistant (issue 21, point 7): commands and gibberish are
// not names; words said before the kiosk asks for them ("I have chest pain", a date of birth while
// the name waits for its yes) are kept and taken up later; typed dates follow the visit's locale
// (05/03/1984 is 5 March in en-GB, May 3 in en-US); two-digit years and "5th of march 84".

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { extractDate } from '../../src/adapters/offline-agent/dates.ts';
import { OfflineAgent } from '../../src/adapters/offline-agent/offline-agent.ts';
import { loadFlow, type LoadedFlow } from '../../src/engine/language/load-flow.ts';
import type { Clock } from '../../src/ports/clock.ts';
import { AgentLoop } from '../support/agent-loop.ts';

const flow = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const ONBOARDING = flow('../../flows/onboarding.yaml');
const CLINIC = flow('../../flows/clinic-checkin.yaml');
const RECEPTION = flow('../fixtures/languages/reception.yaml');

function load(text: string): LoadedFlow {
  const r = loadFlow(text, 'test.yaml');
  if (!r.loaded) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r.loaded;
}

/** Midday on 15 June 2025, the kiosk's "today" in these tests. */
const JUNE_15: Clock = { now: () => new Date(2025, 5, 15, 12).getTime() };

async function visit(text: string): Promise<AgentLoop> {
  const loop = new AgentLoop(load(text), new OfflineAgent(JUNE_15));
  await loop.start();
  return loop;
}

/** What the kiosk said back to one line, and the tool calls it made. */
async function answer(loop: AgentLoop, said: string): Promise<{ said: string; calls: string[] }> {
  const [captions, calls] = [loop.captions.length, loop.calls.length];
  await loop.say(said);
  return { said: loop.captions.slice(captions).join(' '), calls: loop.calls.slice(calls).map((c) => `${c.name} ${c.arguments}`) };
}

describe('commands and phrases are not names', () => {
  it('"start over" at the name step says where Start over is, and takes no name', async () => {
    for (const [text, question] of [
      [ONBOARDING, "What's your first name?"],
      [CLINIC, "What's your full name?"],
    ] as const) {
      const loop = await visit(text);
      expect(await answer(loop, 'start over')).toEqual({ said: `To start over, tap “Start over”. ${question}`, calls: [] });
      expect(loop.view.pending).toEqual([]);
    }
  });

  it.each(['restart', 'cancel', 'go back', 'help me', 'continue', 'next please', 'I want to check in', 'good morning', 'what?', 'I have a question'])(
    '%j takes no name',
    async (said) => {
      const loop = await visit(CLINIC);
      expect((await answer(loop, said)).calls).toEqual([]);
      expect(loop.view.values['full_name']).toBeUndefined();
    },
  );
});

describe('gibberish is not a name', () => {
  it.each(['x'.repeat(600), 'xxxx', 'asdfgh', 'qwerty', 'zxcvbn', 'bcdfghjk', 'hhhhh hhhh', 'q', 'Maria xxxxxxxx'])('%j takes no name and asks again', async (said) => {
    const loop = await visit(ONBOARDING);
    expect(await answer(loop, said)).toEqual({ said: "Sorry, I didn't catch that. What's your first name?", calls: [] });
  });

  it('a real name of any shape is still one: "Ng", "Nietzsche", "Wolfeschlegelsteinhausenbergerdorff"', async () => {
    for (const name of ['Ng', 'Nietzsche', 'Wolfeschlegelsteinhausenbergerdorff']) {
      const loop = await visit(ONBOARDING);
      expect((await answer(loop, name)).calls).toEqual([`save_name {"first_name":"${name}"}`]);
    }
  });
});

describe('words said before the kiosk asks for them', () => {
  it('"I have chest pain" at the name step is kept, and said back when the visit reason is asked', async () => {
    const loop = await visit(CLINIC);
    expect(await answer(loop, 'I have chest pain')).toEqual({ said: "Thank you, I'll keep that in mind. What's your full name?", calls: [] });
    await answer(loop, "I'm Maria Garcia, born 5 March 1984");
    const reason = await answer(loop, 'yes');
    expect(loop.view.state).toBe('reason');
    // After the step's heading, before its question (the clinic's own words around it may change).
    expect(reason.said).toMatch(/^Thank you, Maria Garcia\..* You told me earlier: “I have chest pain”\. Please choose: /);
    // Said back once, not again at the next step.
    const summary = await answer(loop, 'walk in');
    expect(summary.said).not.toContain('chest pain');
  });

  it('kept words naming a choice are taken when its step comes: "I don\'t have an appointment"', async () => {
    const loop = await visit(CLINIC);
    expect(await answer(loop, "I don't have an appointment")).toEqual({ said: "Thank you, I'll keep that in mind. What's your full name?", calls: [] });
    await answer(loop, "I'm Maria Garcia, born 5 March 1984");
    expect((await answer(loop, 'yes')).calls).toEqual(['confirm_identify {}', 'save_reason {"visit_reason":"walk_in"}']);
    expect(loop.view.state).toBe('summary');
  });

  it('a date of birth said while the name waits for its yes is taken on the same step', async () => {
    const loop = await visit(CLINIC);
    await answer(loop, "I'm Maria Garcia");
    expect(await answer(loop, '5th of march 84')).toEqual({
      said: 'I have Maria Garcia, born March 5, 1984. Is that right?',
      calls: ['save_date_of_birth {"date_of_birth":"1984-03-05"}'],
    });
  });

  it('a date of birth said while the name waits for its yes is kept for the step that asks for it', async () => {
    const loop = await visit(RECEPTION);
    await answer(loop, "I'm Maria Garcia");
    expect(await answer(loop, 'I was born on the 5th of March 1984')).toEqual({ said: "Thank you, I'll keep that in mind. I heard Maria Garcia. Is that right?", calls: [] });
    expect(loop.view.pending).toEqual(['full_name']);
    expect(await answer(loop, 'yes')).toEqual({
      said: "Thanks. I have date of birth: 5 March 1984. What's your phone number?",
      calls: ['confirm_ask_name {}', 'save_birth {"date_of_birth":"1984-03-05"}'],
    });
    expect(loop.view.values['date_of_birth']).toBe('1984-03-05');
  });

  it('an unclear answer to a yes-or-no question is still asked about', async () => {
    const loop = await visit(RECEPTION);
    await answer(loop, "I'm Maria Garcia");
    expect((await answer(loop, 'I think I have a cold')).said).toBe('Sorry, was that a yes or a no? I heard Maria Garcia. Is that right?');
  });
});

describe('typed dates', () => {
  it('follow the visit’s locale: 05/03/1984 is 5 March in an en-GB visit and May 3 in an en-US one', async () => {
    const gb = await visit(RECEPTION);
    await answer(gb, "I'm Maria Garcia");
    await answer(gb, 'yes');
    expect((await answer(gb, '05/03/1984')).calls).toEqual(['save_birth {"date_of_birth":"1984-03-05"}']);

    const us = await visit(CLINIC);
    await answer(us, "I'm Maria Garcia");
    expect(await answer(us, '05/03/1984')).toMatchObject({ said: 'I have Maria Garcia, born May 3, 1984. Is that right?' });
  });

  it.each<[string, boolean, boolean, string]>([
    ['3/5/84', true, true, '1984-03-05'],
    ['3/5/84', false, true, '1984-05-03'],
    ['5th of march 84', true, true, '1984-03-05'],
    ["March 5th '84", true, true, '1984-03-05'],
    ['5/3/24', false, true, '2024-03-05'],
    ['5/3/30', false, true, '1930-03-05'],
    ['5/3/30', false, false, '2030-03-05'],
    ['13/5/1984', true, true, '1984-05-13'],
  ])('%j (month first: %s, a birth: %s) is %s', (said, monthFirst, past, iso) => {
    expect(extractDate(said, undefined, { today: '2025-06-15', monthFirst, past })?.value.iso).toBe(iso);
  });
});
