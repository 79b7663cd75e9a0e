// The offline agent on the example flows, with what visitors really say (issue 8, point 3):
// negation, corrections in one breath, "no" and "change my details" on a summary card, options
// by part of their label or inside a sentence, times, names with particles and titles, what
// comes after a "yes", and dates said one way, refused when they cannot be.

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { OfflineAgent } from '../../src/adapters/offline-agent/offline-agent.ts';
import { loadFlow, type LoadedFlow } from '../../src/engine/language/load-flow.ts';
import type { Clock } from '../../src/ports/clock.ts';
import { AgentLoop } from '../support/agent-loop.ts';

type FlowDoc = { states: Record<string, { transitions?: Record<string, unknown>; confirmation_gate?: Record<string, unknown> }> };

const source = (name: string) => readFileSync(new URL(`../../flows/${name}.yaml`, import.meta.url), 'utf8');

function load(text: string): LoadedFlow {
  const r = loadFlow(text, 'test.yaml');
  if (!r.loaded) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r.loaded;
}

/** What to take out of an example flow, so that the agent alone answers. */
interface Drop {
  /** the states' own utterance rules */
  rules?: boolean;
  /** the gates' confirm and reject phrases */
  phrases?: boolean;
  /** states only those rules lead to */
  states?: string[];
}

/** An example flow, with some of what the engine would answer itself taken out. */
function example(name: string, drop: Drop = {}): LoadedFlow {
  const doc = YAML.parse(source(name)) as FlowDoc;
  for (const s of drop.states ?? []) delete doc.states[s];
  for (const s of Object.values(doc.states)) {
    if (drop.rules) delete s.transitions?.['on_utterance'];
    if (drop.phrases && s.confirmation_gate) {
      delete s.confirmation_gate['confirm_phrases'];
      delete s.confirmation_gate['reject_phrases'];
    }
  }
  return load(YAML.stringify(doc));
}

/** Midday on 15 June 2025, the kiosk's "today" in these tests. */
const JUNE_15: Clock = { now: () => new Date(2025, 5, 15, 12).getTime() };

async function started(flow: LoadedFlow): Promise<AgentLoop> {
  const loop = new AgentLoop(flow, new OfflineAgent(JUNE_15));
  await loop.start();
  return loop;
}

/** Runs the visitor's lines and gives back the tool calls made and the captions said for the last one. */
async function after(loop: AgentLoop, ...lines: string[]): Promise<{ calls: string[]; said: string }> {
  let calls = loop.calls.length;
  let captions = loop.captions.length;
  for (const line of lines) {
    calls = loop.calls.length;
    captions = loop.captions.length;
    await loop.say(line);
  }
  return { calls: loop.calls.slice(calls).map((c) => `${c.name} ${c.arguments}`), said: loop.captions.slice(captions).join(' ') };
}

/** The clinic flow on its summary card, the visitor having come in as a walk-in. */
async function clinicSummary(): Promise<AgentLoop> {
  const loop = await started(example('clinic-checkin'));
  await after(loop, "I'm Maria Garcia, born 5 March 1984", 'yes', 'walk in');
  expect(loop.view.state).toBe('summary');
  return loop;
}

/** The clinic flow on its appointment form. */
async function clinicAppointment(): Promise<AgentLoop> {
  const loop = await started(example('clinic-checkin'));
  await after(loop, "I'm Maria Garcia, born 5 March 1984", 'yes', 'I have an appointment');
  expect(loop.view.state).toBe('appointment');
  return loop;
}

/** The visitor sign-in on its host step. */
async function visitorHost(drop: Drop = {}): Promise<AgentLoop> {
  const loop = await started(example('visitor-signin', drop));
  await after(loop, "I'm Sam Lee", 'yes', 'sam@example.com', 'yes');
  expect(loop.view.state).toBe('host');
  return loop;
}

describe('negation', () => {
  it('does not save a colour the visitor said they do not like', async () => {
    const loop = await started(example('onboarding', { rules: true }));
    await after(loop, 'maria', 'yes');
    const heard = await after(loop, "I don't like blue");
    expect(heard.calls).toEqual([]);
    expect(loop.view.state).toBe('choose_color');
    expect(heard.said).toBe('All right, not blue. Please choose: red, green, blue or yellow.');
  });

  it('saves the colour after "not red,"', async () => {
    const loop = await started(example('onboarding', { rules: true }));
    await after(loop, 'maria', 'yes');
    const heard = await after(loop, 'not red, green');
    expect(heard.calls).toEqual(['save_color {"color":"green"}']);
    expect(loop.view.values['color']).toBe('green');
  });

  it('takes "I don\'t have an appointment" as a walk-in, in either spelling', async () => {
    for (const said of ["I don't have an appointment", 'I do not have an appointment, no']) {
      const loop = await started(example('clinic-checkin'));
      await after(loop, "I'm Maria Garcia, born 5 March 1984", 'yes');
      const heard = await after(loop, said);
      expect(heard.calls).toEqual(['save_reason {"visit_reason":"walk_in"}']);
      expect(loop.view.state).toBe('summary');
    }
  });
});

describe('corrections in one breath', () => {
  it('rejects the name waiting for a yes and captures the one said with the no', async () => {
    for (const flow of [example('onboarding'), example('onboarding', { rules: true })]) {
      const loop = await started(flow);
      await after(loop, 'maria');
      const heard = await after(loop, "no, it's Marta");
      expect(heard.calls).toEqual(['reject_first_name {}', 'save_name {"first_name":"Marta"}']);
      expect(loop.view.values['first_name']).toBe('Marta');
      expect(loop.view.pending).toEqual(['first_name']);
      expect(heard.said).toBe('I heard Marta. Is that right?');
    }
  });

  it('rejects only the value the visitor says is wrong, and asks for it', async () => {
    const loop = await started(example('clinic-checkin'));
    await after(loop, "I'm Maria Garcia, born 5 March 1984");
    const heard = await after(loop, 'no, my date of birth is wrong');
    expect(heard.calls).toEqual(['reject_date_of_birth {}']);
    expect(loop.view.values).toEqual({ full_name: 'Maria Garcia' });
    expect(heard.said).toBe("Sorry about that. What's your date of birth?");
  });

  it('rejects only the value given anew, and keeps the other waiting', async () => {
    const loop = await started(example('clinic-checkin'));
    await after(loop, "I'm Maria Garcia, born 5 March 1984");
    const heard = await after(loop, "no, it's the 6th of March 1984");
    expect(heard.calls).toEqual(['reject_date_of_birth {}', 'save_date_of_birth {"date_of_birth":"1984-03-06"}']);
    expect(loop.view.pending).toEqual(['full_name', 'date_of_birth']);
    expect(heard.said).toBe('I have Maria Garcia, born March 6, 1984. Is that right?');
  });

  it('asks again for a confirmed value the visitor says is wrong', async () => {
    const loop = await started(example('clinic-checkin'));
    await after(loop, 'born 5 March 1984', 'yes');
    const heard = await after(loop, 'no, my date of birth is wrong');
    expect(heard.calls).toEqual([]);
    expect(heard.said).toBe("All right. What's your date of birth?");
  });
});

describe('a summary card', () => {
  const HINT = 'To make changes, tap “Change my details”.';

  it('answers a plain "no" with the way to change them, not "Sorry"', async () => {
    const loop = await clinicSummary();
    const heard = await after(loop, 'no');
    expect(heard.calls).toEqual([]);
    expect(heard.said).toBe(`All right. ${HINT}`);
  });

  it('goes back by “Change my details” for "change my details" (the engine\'s go_back): the details wait for a yes again', async () => {
    const loop = await clinicSummary();
    const heard = await after(loop, 'change my details');
    expect(heard.calls).toEqual(['go_back {"button":"edit"}']);
    expect(loop.view.state).toBe('identify');
    expect(loop.view.pending).toEqual(['full_name', 'date_of_birth']);
    expect(heard.said).toBe('I have Maria Garcia, born March 5, 1984. Is that right?');
  });

  it('goes back by “Change my details” for "no, my date of birth is wrong", and asks for the date of birth', async () => {
    const loop = await clinicSummary();
    const heard = await after(loop, 'no, my date of birth is wrong');
    expect(heard.calls).toEqual(['go_back {"button":"edit"}', 'reject_date_of_birth {}']);
    expect(loop.view.values).toEqual({ full_name: 'Maria Garcia', visit_reason: 'walk_in' });
    expect(heard.said).toBe("Sorry about that. What's your date of birth?");
  });

  it('cancels a check-in waiting for a yes, and says how to change the details', async () => {
    const loop = await clinicSummary();
    expect((await after(loop, 'yes')).calls).toEqual(['check_in {}']);
    const heard = await after(loop, 'no, my date of birth is wrong');
    expect(heard.calls).toEqual(['reject_action {}']);
    expect(loop.view.pendingAction).toBeNull();
    expect(heard.said).toBe(`All right, I won't do that. ${HINT}`);
  });

  it('takes "change my details" as the review\'s own tool for going back', async () => {
    const wizard = load(`
id: wizard
initial_state: review
states:
  review:
    ui: { artifact_type: card, prompt: "Name: Jane" }
    agent:
      prompt: Call confirm_booking if they confirm, restart_booking if they want changes.
      tools: [confirm_booking, restart_booking]
    tools:
      confirm_booking: { description: Book it. }
      restart_booking: { description: Start again. }
    transitions:
      on_tool_call: { confirm_booking: done, restart_booking: start }
  start:
    ui: { artifact_type: card, prompt: Start }
    transitions: {}
  done:
    ui: { artifact_type: card, prompt: Done }
    transitions: {}
`);
    const loop = await started(wizard);
    const heard = await after(loop, 'change my details');
    expect(heard.calls).toEqual(['restart_booking {}']);
    expect(loop.view.state).toBe('start');
  });
});

describe('options by part of their label, inside a sentence', () => {
  it.each([
    ['Tom', 'Tom Becker'],
    ['Priya Shah please', 'Priya Shah'],
    ["I'm here to see Ana", 'Ana Souza'],
    ['not Tom, Priya', 'Priya Shah'],
  ])('the host step takes %j as %j, with the flow\'s own rules and without', async (said, host) => {
    for (const drop of [{}, { rules: true, states: ['host_by_name'] }]) {
      const loop = await visitorHost(drop);
      await after(loop, said);
      expect(loop.calls.map((c) => `${c.name} ${c.arguments}`)).toContain(`save_host ${JSON.stringify({ host })}`);
      expect(loop.view.state).toBe('rules');
    }
  });

  it.each(['Dr Lindqvist', 'doctor lindqvist', 'Lindqvist please'])('the appointment step takes %j as Dr. Lindqvist, and asks the time', async (said) => {
    const loop = await clinicAppointment();
    const heard = await after(loop, said);
    expect(heard.calls).toEqual([]);
    expect(heard.said).toMatch(/^Thanks\. I have doctor: Dr\. Lindqvist\. .*appointment time/i);
    const time = await after(loop, '10:30');
    expect(time.calls).toEqual(['save_appointment {"appointment_time":"10:30","doctor":"Dr. Lindqvist"}']);
    expect(loop.view.state).toBe('appointment_summary');
  });

  it('takes the doctor and the time from one sentence', async () => {
    const loop = await clinicAppointment();
    const heard = await after(loop, 'doctor lindqvist at half past ten');
    expect(heard.calls).toEqual(['save_appointment {"appointment_time":"10:30","doctor":"Dr. Lindqvist"}']);
    expect(loop.view.values['appointment_time']).toBe('10:30');
  });

  it('keeps a time said first, says it has it, and saves it with the doctor', async () => {
    const loop = await clinicAppointment();
    const first = await after(loop, '10:30');
    expect(first.calls).toEqual([]);
    expect(first.said).toBe('Thanks. I have appointment time: 10:30. Which doctor are you seeing? You can say Dr. Okafor, Dr. Lindqvist or Dr. Moreau.');
    const second = await after(loop, 'Dr Moreau');
    expect(second.calls).toEqual(['save_appointment {"doctor":"Dr. Moreau","appointment_time":"10:30"}']);
    expect(loop.view.values['appointment_time']).toBe('10:30');
  });

  it('goes on from the reason to the appointment with the doctor and time said in the same breath', async () => {
    const loop = await started(example('clinic-checkin'));
    await after(loop, "I'm Maria Garcia, born 5 March 1984", 'yes');
    const heard = await after(loop, 'I have an appointment with Dr Lindqvist at 10:30');
    expect(heard.calls).toEqual(['save_reason {"visit_reason":"appointment"}', 'save_appointment {"appointment_time":"10:30","doctor":"Dr. Lindqvist"}']);
    expect(loop.view.state).toBe('appointment_summary');
  });
});

describe('names', () => {
  it.each([
    ['maria', 'Maria'],
    ['van der berg', 'van der Berg'],
    ['maria van der berg', 'Maria van der Berg'],
    ['MARIA GARCIA', 'Maria Garcia'],
    ['my name is Dr. Jane Smith', 'Jane Smith'],
    ['Dr Smith', 'Smith'],
  ])('the sign-in stores %j as %j', async (said, stored) => {
    const loop = await started(example('visitor-signin'));
    const heard = await after(loop, said);
    expect(heard.calls).toEqual([`save_name ${JSON.stringify({ full_name: stored })}`]);
    expect(heard.said).toBe(`I heard ${stored}. Is that right?`);
  });

  it('does not take a title and a surname for a first name', async () => {
    const loop = await started(example('onboarding', { rules: true }));
    const heard = await after(loop, 'Dr Smith');
    expect(heard.calls).toEqual([]);
    expect(heard.said).toBe("Sorry, I didn't catch that. What's your first name?");
  });
});

describe('after a yes', () => {
  it('says what comes next once a value is confirmed', async () => {
    const loop = await started(example('visitor-signin', { phrases: true }));
    await after(loop, "I'm Sam Lee");
    const heard = await after(loop, 'yes');
    expect(heard.calls).toEqual(['confirm_full_name {}']);
    expect(heard.said).toBe("Thank you. What's your email address?");
  });

  it("says what comes next when the flow's own confirm phrase confirms a value", async () => {
    const loop = await started(example('visitor-signin'));
    await after(loop, "I'm Sam Lee");
    const heard = await after(loop, 'yes');
    expect(heard.calls).toEqual([]);
    expect(loop.view.gate['full_name']).toBe('confirmed');
    expect(heard.said).toBe('Thank you. Next: email address.');
  });

  it("asks the next question itself when the engine's phrase leaves nothing on the form to name", async () => {
    const loop = await started(
      load(`
id: voice_only
tools:
  save_name: { description: Name., parameters: { full_name: { type: string, required: true } } }
  save_email: { description: Email., parameters: { email: { type: email, required: true } } }
states:
  ask:
    agent: { prompt: Ask the name and email., tools: [save_name, save_email] }
    confirmation_gate:
      variables: [full_name, email]
      on_confirm: __end__
      confirm_phrases: [yes]
`),
    );
    await after(loop, "I'm Sam Lee");
    const heard = await after(loop, 'yes');
    expect(heard.calls).toEqual([]);
    expect(heard.said).toBe("Thank you. What's your email?");
  });

  it('is never silent after the visitor speaks', async () => {
    const flows = {
      onboarding: [example('onboarding'), ['maria', 'yes', 'no', "no, it's Marta", 'blue', 'not red, green', 'hmm']],
      clinic: [example('clinic-checkin'), ['Maria Garcia', 'yes', 'no', 'born 5 March 1984', '31 February 1990', 'walk in', 'change my details', 'Dr Lindqvist', '10:30']],
      visitor: [example('visitor-signin', { phrases: true }), ["I'm Sam Lee", 'yes', 'no', 'sam@example.com', 'Tom', 'I agree', 'no, it\'s Marta']],
      visitorPhrases: [example('visitor-signin'), ["I'm Sam Lee", 'yes', 'no', 'sam@example.com', 'Tom', 'I agree', 'correct']],
    } as const;
    for (const [flow, lines] of Object.values(flows)) {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.constantFrom(...lines), { maxLength: 10 }), async (said) => {
          const loop = await started(flow);
          for (const line of said) {
            if (loop.view.ended) break;
            const heard = await after(loop, line);
            // The end screen speaks for itself; every other answer gets words.
            if (!loop.view.ended) expect(heard.said, `after ${JSON.stringify(said)}`).not.toBe('');
          }
        }),
        { numRuns: 60 },
      );
    }
  });
});

// The flow as it ships, its own utterance rules answering first in the engine.
describe('the onboarding flow as written', () => {
  it('does not save a colour the visitor said they do not like, and takes one said plainly', async () => {
    const loop = await started(example('onboarding'));
    await after(loop, 'maria', 'yes');
    const declined = await after(loop, "I don't like blue");
    expect(loop.view.values['color']).toBeUndefined();
    expect(declined.said).toBe('All right, not blue. Please choose: red, green, blue or yellow.');
    const corrected = await after(loop, 'not red, green');
    expect(corrected.calls).toEqual(['save_color {"color":"green"}']);
    expect(loop.view.ended).toBe(true);
    for (const [said, color] of [['Blue, please.', 'blue'], ["I'd like yellow", 'yellow']]) {
      const plain = await started(example('onboarding'));
      await after(plain, 'maria', 'yes');
      expect((await after(plain, said!)).calls).toEqual([]); // the flow's rule took it
      expect(plain.view.values['color']).toBe(color);
      expect(plain.view.ended).toBe(true);
    }
  });

  it('writes a name introduced in lower case with capitals, whether its rule or the assistant took it', async () => {
    for (const [said, calls] of [['my name is maria', []], ['maria', ['save_name {"first_name":"Maria"}']]] as const) {
      const loop = await started(example('onboarding'));
      const heard = await after(loop, said);
      expect(heard.calls).toEqual(calls);
      expect(loop.view.values['first_name']).toBe('Maria');
      expect(heard.said).toBe('I heard Maria. Is that right?');
    }
  });

  it('writes a name typed into the form in lower case with capitals', async () => {
    const loop = await started(example('visitor-signin'));
    await loop.tap({ event: 'form_submit', values: { full_name: 'maria van der berg', email: 'Maria@Example.com' } });
    expect(loop.view.values).toMatchObject({ full_name: 'Maria van der Berg', email: 'maria@example.com' });
  });
});

describe('dates', () => {
  it('says a date of birth in words, the way the summary shows it', async () => {
    const loop = await started(example('clinic-checkin'));
    expect((await after(loop, 'born 5 March 1984')).said).toBe('I heard March 5, 1984. Is that right?');
    expect((await after(loop, "I'm Maria Garcia")).said).toBe('I have Maria Garcia, born March 5, 1984. Is that right?');
    await after(loop, 'yes', 'walk in');
    expect(loop.lastCaption).toContain('Date of birth: March 5, 1984.');
  });

  it('refuses a date of birth in the future', async () => {
    const loop = await started(example('clinic-checkin'));
    const heard = await after(loop, 'I was born on 5 March 2090');
    expect(heard.calls).toEqual([]);
    expect(heard.said).toBe("Sorry, March 5, 2090 is in the future. What's your date of birth?");
  });

  it.each([
    ['31 February 1990', 'February 1990 has only 28 days'],
    ['31/02/1990', 'February 1990 has only 28 days'],
    ['the thirtieth of February', 'February has only 29 days'],
    ['April 31st 1990', 'April has only 30 days'],
  ])('refuses %j clearly', async (said, why) => {
    const loop = await started(example('clinic-checkin'));
    const heard = await after(loop, said);
    expect(heard.calls).toEqual([]);
    expect(heard.said).toBe(`Sorry, ${why}. What's your date of birth?`);
  });
});
