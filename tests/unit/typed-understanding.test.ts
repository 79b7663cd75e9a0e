// What visitors really type into "Type your answer" on the bundled flows, understood by the
// built-in assistant (issue 8, point 3; issue 21, point 7), on the kiosk's own conversation and
// engine: negation, corrections in one breath, a "no" on a summary, options by part of their label,
// times, names with particles and titles, what comes after a "yes", dates said one way and dates
// refused with a reason, commands and gibberish that are no name, words said before they are asked
// for, typed dates in the visit's locale, and a flow's ways out taken only when asked for. The
// browser keeps a typed visit of each kind for the screen (tests/e2e/offline-understanding.spec.ts).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exampleFlow, typedVisit, type TypedVisit } from '../support/typed-visit.ts';

const ONBOARDING = exampleFlow('onboarding');
const CLINIC = exampleFlow('clinic-checkin');
const SIGN_IN = exampleFlow('visitor-signin');
const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');

/** The clinic flow with Maria Garcia identified, after `reason` said at its reason step: on `step`. */
async function clinicAfter(reason: string, step: string): Promise<TypedVisit> {
  const visit = await typedVisit(CLINIC);
  await visit.say("I'm Maria Garcia, born 5 March 1984");
  await visit.say('yes');
  expect(visit.state).toBe('reason');
  await visit.say(reason);
  expect(visit.state).toBe(step);
  return visit;
}

/** The clinic flow on its summary card, having come in as a walk-in. */
const clinicSummary = () => clinicAfter("I don't have an appointment", 'summary');

/** Visitor sign-in on its host step, the details sent by hand. */
async function signInAtHost(): Promise<TypedVisit> {
  const visit = await typedVisit(SIGN_IN);
  await visit.tap({ event: 'form_submit', values: { full_name: 'Sam Lee', email: 'sam@example.com' } });
  expect(visit.state).toBe('host');
  return visit;
}

describe('negation', () => {
  it('"I don\'t like blue" saves nothing and says so; "not red, green" saves green', async () => {
    const visit = await typedVisit(ONBOARDING);
    await visit.say('maria');
    await visit.say('yes');
    expect(visit.state).toBe('choose_color');
    expect(await visit.say("I don't like blue")).toBe('All right, not blue. Please choose: red, green, blue or yellow.');
    expect(visit.state).toBe('choose_color');
    expect(visit.values['color']).toBeUndefined();
    await visit.say('not red, green');
    expect(visit.ended).toBe(true);
    expect(visit.values).toMatchObject({ first_name: 'Maria', color: 'green' });
  });

  it('"I don\'t have an appointment" is a walk-in, not the appointment form', async () => {
    const visit = await clinicSummary();
    expect(visit.card).toContain('Visit: Walk-in visit');
  });
});

describe('a correction in one breath', () => {
  it('"no, it\'s Marta" takes Marta in place of the name heard, still waiting for a yes', async () => {
    const visit = await typedVisit(ONBOARDING);
    expect(await visit.say('maria')).toBe('I heard Maria. Is that right?');
    expect(await visit.say("no, it's Marta")).toBe('I heard Marta. Is that right?');
    expect(visit.values['first_name']).toBe('Marta');
    expect(visit.engine.view.pending).toEqual(['first_name']);
  });
});

describe('on the summary, a "no" says how to change the details; asking to change them taps “Change my details”', () => {
  it('"no"', async () => {
    const visit = await clinicSummary();
    expect(await visit.say('no')).toBe('All right. To make changes, tap “Change my details”.');
    expect(visit.state).toBe('summary');
  });

  it('"no, my date of birth is wrong": back at the details, the date of birth asked for again', async () => {
    const visit = await clinicSummary();
    expect(await visit.say('no, my date of birth is wrong')).toBe("Sorry about that. What's your date of birth?");
    expect(visit.state).toBe('identify');
    expect(visit.values['full_name']).toBe('Maria Garcia');
    expect(visit.values['date_of_birth'] ?? '').toBe('');
  });
});

describe('options by part of their label, or inside a sentence', () => {
  for (const [said, host] of [
    ['Tom', 'Tom Becker'],
    ['Priya Shah please', 'Priya Shah'],
  ] as const) {
    it(`the host "${said}" is ${host}`, async () => {
      const visit = await signInAtHost();
      await visit.say(said);
      expect(visit.state).toBe('rules');
      expect(visit.card).toContain(`Stay with ${host} or a member of staff.`);
    });
  }

  it('"doctor lindqvist at half past ten" gives the doctor and the time', async () => {
    const visit = await clinicAfter('I have an appointment', 'appointment');
    await visit.say('doctor lindqvist at half past ten');
    expect(visit.state).toBe('appointment_summary');
    expect(visit.card).toContain('Appointment: Dr. Lindqvist at 10:30');
  });

  it('a time said first is put in its field, and the doctor asked for', async () => {
    const visit = await clinicAfter('I have an appointment', 'appointment');
    expect(await visit.say('10:30')).toBe('Thanks. I have appointment time: 10:30. Which doctor are you seeing? You can say Dr. Okafor, Dr. Lindqvist or Dr. Moreau.');
    expect(visit.values['appointment_time']).toBe('10:30');
    expect(visit.state).toBe('appointment');
  });
});

describe('names', () => {
  for (const [said, written] of [
    ['van der berg', 'van der Berg'],
    ['Dr Smith', 'Smith'],
    ['maria garcia', 'Maria Garcia'],
  ] as const) {
    it(`"${said}" is written "${written}"`, async () => {
      const visit = await typedVisit(SIGN_IN);
      expect(await visit.say(said)).toBe(`I heard ${written}. Is that right?`);
      expect(visit.values['full_name']).toBe(written);
    });
  }

  it("a name the flow's own rule takes in lower case is written with a capital", async () => {
    const visit = await typedVisit(ONBOARDING);
    expect(await visit.say('my name is maria')).toBe('I heard Maria. Is that right?');
    expect(visit.values['first_name']).toBe('Maria');
  });
});

it('after a "yes" confirms a value, the kiosk says what comes next', async () => {
  const visit = await typedVisit(SIGN_IN);
  expect(await visit.say("I'm Sam Lee")).toBe('I heard Sam Lee. Is that right?');
  // "yes" is the flow's own confirm phrase: the engine answers it, and names the next field.
  expect(await visit.say('yes')).toBe('Thank you. Next: email address.');
  expect(visit.engine.view.gate['full_name']).toBe('confirmed');
  expect(await visit.say('sam@example.com')).toBe('I have Sam Lee, email sam@example.com. Is that right?');
  await visit.say('yes');
  expect(visit.state).toBe('host');
});

describe('dates', () => {
  it('a date of birth is said one way, in the question and on the summary', async () => {
    const visit = await typedVisit(CLINIC);
    expect(await visit.say('born 5 March 1984')).toBe('I heard March 5, 1984. Is that right?');
    expect(await visit.say("I'm Maria Garcia")).toBe('I have Maria Garcia, born March 5, 1984. Is that right?');
    await visit.say('yes');
    const summary = await visit.say('walk in');
    expect(visit.state).toBe('summary');
    expect(visit.card).toContain('Date of birth: March 5, 1984');
    expect(summary).toContain('Date of birth: March 5, 1984.');
  });

  for (const [said, answer] of [
    ['I was born on 5 March 2090', "Sorry, March 5, 2090 is in the future. What's your date of birth?"],
    ['31 February 1990', "Sorry, February 1990 has only 28 days. What's your date of birth?"],
  ] as const) {
    it(`"${said}" is refused with the reason`, async () => {
      const visit = await typedVisit(CLINIC);
      expect(await visit.say(said)).toBe(answer);
      expect(visit.values['date_of_birth'] ?? '').toBe('');
    });
  }
});

describe('what a newcomer typed (issue 21, point 7)', () => {
  it('"start over" at the name step says where Start over is, and 600 x\'s are not a name', async () => {
    const visit = await typedVisit(ONBOARDING);
    expect(await visit.say('start over')).toBe("To start over, tap “Start over”. What's your first name?");
    expect(visit.values['first_name'] ?? '').toBe('');
    expect(await visit.say('x'.repeat(600))).toBe("Sorry, I didn't catch that. What's your first name?");
    expect(visit.values['first_name'] ?? '').toBe('');
    expect(visit.engine.view.pending).toEqual([]);
  });

  it('"I have chest pain" said first is kept, and said back when the visit reason is asked', async () => {
    const visit = await typedVisit(CLINIC);
    expect(await visit.say('I have chest pain')).toBe("Thank you, I'll keep that in mind. What's your full name?");
    await visit.say("I'm Maria Garcia");
    // A date of birth said while the name waits for its yes is taken, two-digit year and all.
    expect(await visit.say('5th of march 84')).toBe('I have Maria Garcia, born March 5, 1984. Is that right?');
    const asked = await visit.say('yes');
    expect(visit.state).toBe('reason');
    expect(asked).toContain('You told me earlier: “I have chest pain”.');
  });

  it("typed dates follow the visit's locale: 3/5/84 is March 5 in en-US", async () => {
    const visit = await typedVisit(CLINIC);
    await visit.say("I'm Maria Garcia");
    expect(await visit.say('3/5/84')).toBe('I have Maria Garcia, born March 5, 1984. Is that right?');
  });

  it('in an en-GB visit 05/03/1984 is 5 March, and a date said while the name waits is kept for its step', async () => {
    const visit = await typedVisit(fixture('languages/reception.yaml'));
    expect(await visit.say("I'm Maria Garcia")).toBe('I heard Maria Garcia. Is that right?');
    expect(await visit.say('05/03/1984')).toBe("Thank you, I'll keep that in mind. I heard Maria Garcia. Is that right?");
    const before = visit.said.length;
    await visit.say('yes');
    expect(visit.state).toBe('contact');
    expect(visit.said.slice(before)).toEqual(expect.arrayContaining(['Thanks. I have date of birth: 5 March 1984.', "What's your phone number?"]));
  });
});

it('a way out of every step is called only when asked for: a "yes" or an unsure answer never takes it', async () => {
  const visit = await typedVisit(fixture('assistant/ways-out.yaml'));
  expect(await visit.say('yes')).toBe('To go on, tap “I agree”.');
  expect(visit.state).toBe('rules');
  await visit.tap({ event: 'agree' });
  expect(visit.state).toBe('when');
  expect(await visit.say("I'm not sure")).toBe("Sorry, I didn't catch that. What's your visit date?");
  expect(visit.state).toBe('when');
  await visit.say("I'd like to talk to a person, please");
  expect(visit.ended).toBe(true);
  expect(visit.card).toContain('Please see the front desk');
});
