// The offline agent driving the real engine: onboarding with and without the flow's own
// utterance rules, gates over several values, action gates, voice-only steps, flows in Prepatu's
// spelling (Prepatu's real flows: tests/prepatu-real/offline-agent.test.ts), and the
// guarantees (tool calls only when the visitor has spoken or a step must move on, determinism,
// abort).

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { readConversation } from '../../src/adapters/offline-agent/conversation.ts';
import { OfflineAgent, planTurn } from '../../src/adapters/offline-agent/offline-agent.ts';
import { loadFlow, type LoadedFlow } from '../../src/engine/language/load-flow.ts';
import { FlowEngine } from '../../src/engine/runtime/engine.ts';
import { VirtualClock } from '../../src/ports/clock.ts';
import type { ChatMessage, LanguageModel, TurnChunk, TurnRequest } from '../../src/ports/language-model.ts';
import { AgentLoop } from '../support/agent-loop.ts';

const ONBOARDING = readFileSync(new URL('../../flows/onboarding.yaml', import.meta.url), 'utf8');
const PREPATU_DIALECT = new URL('../fixtures/prepatu-dialect/', import.meta.url);

function load(text: string): LoadedFlow {
  const r = loadFlow(text, 'test.yaml');
  if (!r.loaded) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r.loaded;
}

/** Onboarding without its on_utterance rules, so that the agent alone understands the visitor. */
function onboardingWithoutRules(): LoadedFlow {
  const doc = YAML.parse(ONBOARDING) as { states: Record<string, { transitions: Record<string, unknown> }> };
  for (const s of Object.values(doc.states)) delete s.transitions['on_utterance'];
  return load(YAML.stringify(doc));
}

async function started(flow: LoadedFlow, model: LanguageModel = new OfflineAgent()): Promise<AgentLoop> {
  const loop = new AgentLoop(flow, model);
  await loop.start();
  return loop;
}

function callsSince(loop: AgentLoop, from: number): string[] {
  return loop.calls.slice(from).map((c) => `${c.name} ${c.arguments}`);
}

describe('onboarding, understood by the agent alone', () => {
  it('asks for the name, reads it back, confirms on yes, and takes the colour', async () => {
    const loop = await started(onboardingWithoutRules());
    expect(loop.lastCaption).toBe("Welcome! What's your first name?");

    await loop.say('My name is Alex');
    expect(callsSince(loop, 0)).toEqual(['save_name {"first_name":"Alex"}']);
    expect(loop.view.pending).toEqual(['first_name']);
    expect(loop.lastCaption).toBe('I heard Alex. Is that right?');

    await loop.say('yes');
    expect(callsSince(loop, 1)).toEqual(['confirm_ask_name {}']);
    expect(loop.view.state).toBe('choose_color');
    expect(loop.view.values).toEqual({ first_name: 'Alex' });
    expect(loop.lastCaption).toBe('Nice to meet you, Alex! Pick a colour. Please choose: red, green, blue or yellow.');

    await loop.say('blue');
    expect(callsSince(loop, 2)).toEqual(['save_color {"color":"blue"}']);
    expect(loop.view.ended).toBe(true);
    const end = loop.emitted.find((m) => m.type === 'flow_end');
    expect(end?.type === 'flow_end' && end.variables).toEqual({ first_name: 'Alex', color: 'blue' });
  });

  it('clears the name on no and asks again', async () => {
    const loop = await started(onboardingWithoutRules());
    await loop.say('My name is Alex');
    await loop.say('no');
    expect(callsSince(loop, 1)).toEqual(['reject_first_name {}']);
    expect(loop.view.state).toBe('ask_name');
    expect(loop.view.values['first_name']).toBeUndefined();
    expect(loop.view.pending).toEqual([]);
    expect(loop.lastCaption).toBe("Sorry about that. What's your first name?");
  });

  it('rejects on "no, it\'s Alice" and takes Alice when the step asks again', async () => {
    const loop = await started(onboardingWithoutRules());
    await loop.say("I'm Alex");
    await loop.say("No, it's Alice");
    expect(callsSince(loop, 1)).toEqual(['reject_first_name {}', 'save_name {"first_name":"Alice"}']);
    expect(loop.view.values['first_name']).toBe('Alice');
    expect(loop.view.pending).toEqual(['first_name']);
    expect(loop.lastCaption).toBe('I heard Alice. Is that right?');
  });

  it('takes a bare name, re-reads a corrected one, and asks again when it hears nothing useful', async () => {
    const loop = await started(onboardingWithoutRules());
    await loop.say('hmm');
    expect(loop.calls).toEqual([]);
    expect(loop.lastCaption).toBe("Sorry, I didn't catch that. What's your first name?");
    await loop.say('alex');
    expect(loop.lastCaption).toBe('I heard Alex. Is that right?');
    await loop.say('maybe');
    expect(loop.lastCaption).toBe('Sorry, was that a yes or a no? I heard Alex. Is that right?');
    await loop.say("it's Alexander");
    expect(loop.view.values['first_name']).toBe('Alexander');
    expect(loop.lastCaption).toBe('I heard Alexander. Is that right?');
    await loop.say('Sasha');
    expect(loop.view.values['first_name']).toBe('Sasha');
    expect(loop.view.pending).toEqual(['first_name']);
  });

  it('asks again for a colour it does not know', async () => {
    const loop = await started(onboardingWithoutRules());
    await loop.say('Alex');
    await loop.say('yes');
    await loop.say('purple');
    expect(loop.view.state).toBe('choose_color');
    expect(loop.lastCaption).toBe("Sorry, I didn't catch that. Please choose: red, green, blue or yellow.");
  });

  it('asks "are you still there?" when a timeout follows a rejection', async () => {
    const loop = await started(onboardingWithoutRules());
    await loop.say('Alex');
    await loop.say('no');
    await loop.wait(61);
    expect(loop.lastCaption).toBe("Are you still there? What's your first name? You can also use the screen.");
  });

  it('rephrases after a timeout re-entry and keeps what is pending', async () => {
    const loop = await started(onboardingWithoutRules());
    await loop.wait(61);
    expect(loop.lastCaption).toBe("Are you still there? What's your first name? You can also use the screen.");
    await loop.say('Alex');
    await loop.wait(61);
    expect(loop.view.pending).toEqual(['first_name']);
    expect(loop.lastCaption).toBe('Are you still there? I heard Alex. Is that right? You can also use the screen.');
  });
});

describe('turns read from a history written by hand', () => {
  /** The agent's plan in ask_name with "Alex" pending, for a history ending in `tail`. */
  function planWithAlexPending(tail: ChatMessage[]) {
    const engine = new FlowEngine(onboardingWithoutRules(), new VirtualClock());
    const state = engine.start().find((m) => m.type === 'flow_state');
    if (state?.type !== 'flow_state') throw new Error('no flow_state');
    engine.send({ type: 'utterance', text: 'Alex' });
    engine.send({ type: 'tool_call', name: 'save_name', args: { first_name: 'Alex' }, epoch: engine.view.epoch });
    const scene = { state, values: engine.view.values, pending: engine.view.pending };
    return planTurn({ messages: [{ role: 'system', content: state.agent.system_prompt }, ...tail], tools: state.agent.tools, scene });
  }
  const calling = (name: string): ChatMessage => ({ role: 'assistant', content: '', tool_calls: [{ id: 'c1', name, arguments: '{}' }] });
  const answer = (content: Record<string, unknown>): ChatMessage => ({ role: 'tool', tool_call_id: 'c1', content: JSON.stringify(content) });

  it('asks the gate question after a confirm refused for want of a visitor turn', () => {
    const plan = planWithAlexPending([{ role: 'user', content: 'Alex' }, calling('confirm_first_name'), answer({ error: 'no_user_turn', detail: '…' })]);
    expect(plan).toEqual({ say: 'I heard Alex. Is that right?', calls: [] });
  });

  it('says so when a call was refused, and asks on', () => {
    const plan = planWithAlexPending([{ role: 'user', content: 'Alex' }, calling('save_color'), answer({ error: 'not_in_state', detail: '…' })]);
    expect(plan).toEqual({ say: "Sorry, I couldn't do that. I heard Alex. Is that right?", calls: [] });
  });

  it('skips engine notes after the results and waits for an HTTP action to run', () => {
    const plan = planWithAlexPending([
      { role: 'user', content: 'book it' },
      calling('book'),
      answer({ status: 'running', action_id: 'action_1', captured: {} }),
      { role: 'system', content: '[flow engine] a note' },
    ]);
    expect(plan).toEqual({ say: 'One moment, please.', calls: [] });
  });

  it('treats malformed results as done and never calls a tool after them', () => {
    const plan = planWithAlexPending([{ role: 'user', content: 'Alex' }, calling('save_name'), { role: 'tool', tool_call_id: 'c1', content: 'not json' }]);
    expect(plan.calls).toEqual([]);
    expect(plan.say).toBe('I heard Alex. Is that right?');
  });
});

describe('onboarding with its own utterance rules', () => {
  it('lets the engine capture "My name is Alex", and confirms and moves on with the agent', async () => {
    const loop = await started(load(ONBOARDING));
    await loop.say('My name is Alex');
    expect(loop.calls).toEqual([]);
    expect(loop.view.pending).toEqual(['first_name']);
    expect(loop.lastCaption).toBe('I heard Alex. Is that right?');
    await loop.say('yes');
    expect(callsSince(loop, 0)).toEqual(['confirm_ask_name {}']);
    expect(loop.view.state).toBe('choose_color');
    await loop.say('blue');
    expect(loop.view.ended).toBe(true);
    expect(loop.view.values['color']).toBe('blue');
  });

  it('captures a bare name that no rule matches', async () => {
    const loop = await started(load(ONBOARDING));
    await loop.say('Alex');
    expect(callsSince(loop, 0)).toEqual(['save_name {"first_name":"Alex"}']);
    expect(loop.lastCaption).toBe('I heard Alex. Is that right?');
  });
});

const DETAILS = `
id: details
states:
  details:
    ui:
      artifact_type: form
      title: Your details
      fields:
        - { id: email, type: email, label: Email address, required: true }
        - { id: birth_date, type: date, label: Date of birth, required: true }
    agent:
      prompt: Ask for the email and the date of birth.
      tools: [save_email, save_birth_date]
    tools:
      save_email:
        description: Capture the email.
        parameters: { email: { type: email, required: true } }
      save_birth_date:
        description: Capture the date of birth.
        parameters: { birth_date: { type: date, required: true } }
    confirmation_gate:
      variables: [email, birth_date]
      prompt: "Is {email}, born {birth_date}, right?"
      on_confirm: done
    transitions:
      on_timeout: { seconds: 30, target: details }
  done:
    ui: { artifact_type: card, title: Thank you }
    transitions: {}
`;

describe('a gate over two values', () => {
  it('confirms each value as it comes, then the whole step', async () => {
    const loop = await started(load(DETAILS));
    expect(loop.lastCaption).toBe("Your details. What's your email address?");
    await loop.say('it is alex at example dot com');
    expect(loop.lastCaption).toBe('I heard alex@example.com. Is that right?');
    await loop.say('yes');
    expect(callsSince(loop, 1)).toEqual(['confirm_email {}']);
    expect(loop.lastCaption).toBe("Thank you. What's your date of birth?");
    await loop.say('the third of May two thousand and one');
    expect(callsSince(loop, 2)).toEqual(['save_birth_date {"birth_date":"2001-05-03"}']);
    await loop.say('yes');
    expect(callsSince(loop, 3)).toEqual(['confirm_details {}']);
    expect(loop.view.ended).toBe(true);
    expect(loop.view.values).toEqual({ email: 'alex@example.com', birth_date: '2001-05-03' });
  });

  it('captures both values from one answer, asks the flow\'s question when it is current, rejects both on no', async () => {
    const loop = await started(load(DETAILS));
    await loop.say('alex@example.com, born 15/03/1995');
    expect(callsSince(loop, 0)).toEqual(['save_email {"email":"alex@example.com"}', 'save_birth_date {"birth_date":"1995-03-15"}']);
    // Both values are heard, so the flow's own question is asked.
    expect(loop.lastCaption).toBe('Is alex@example.com, born March 15, 1995, right?');
    await loop.wait(30);
    expect(loop.lastCaption).toBe('Are you still there? Is alex@example.com, born March 15, 1995, right? You can also use the screen.');
    await loop.say('no');
    expect(callsSince(loop, 2)).toEqual(['reject_details {}']);
    expect(loop.view.values).toEqual({});
    expect(loop.lastCaption).toBe("Sorry about that. What's your email address?");
  });
});

const ACTION = `
id: visit
states:
  book:
    ui:
      artifact_type: form
      title: Book a visit
      fields:
        - { id: day, type: date, label: Visit date, required: true }
        - { id: guests, type: number, label: Number of guests, required: true }
    agent:
      prompt: Book the visit with book_visit.
      tools: [book_visit]
    tools:
      book_visit:
        description: Book a visit.
        confirm: true
        summary: "Book a visit on {day} for {guests} guests"
        parameters:
          day: { type: date, required: true }
          guests: { type: integer, required: true, min: 1, max: 8 }
    transitions:
      on_tool_call: { book_visit: __end__ }
`;

describe('an action gate', () => {
  it('gathers the arguments over two answers, reads the summary and books on yes', async () => {
    const loop = await started(load(ACTION));
    expect(loop.lastCaption).toBe("Book a visit. What's your visit date?");
    await loop.say('for two guests');
    expect(loop.calls).toEqual([]);
    expect(loop.lastCaption).toBe("Thanks. I have number of guests: 2. What's your visit date?");
    await loop.say('on the 3rd of May 2031');
    expect(callsSince(loop, 0)).toEqual(['book_visit {"day":"2031-05-03","guests":2}']);
    expect(loop.lastCaption).toBe('Book a visit on May 3, 2031 for 2 guests. Shall I go ahead?');
    await loop.say('yes please');
    expect(callsSince(loop, 1)).toEqual(['confirm_action {}']);
    expect(loop.view.ended).toBe(true);
  });

  it('cancels on no, and asks again for a value the engine refuses', async () => {
    const loop = await started(load(ACTION));
    await loop.say('the 3rd of May 2031 for 2 guests');
    await loop.say('no');
    expect(callsSince(loop, 1)).toEqual(['reject_action {}']);
    expect(loop.view.pendingAction).toBeNull();
    expect(loop.lastCaption).toBe("All right, I won't do that. What's your visit date?");
    await loop.say('the 3rd of May 2031 for twelve guests');
    expect(loop.emitted.some((m) => m.type === 'tool_rejected' && m.reason === 'invalid_arguments')).toBe(true);
    expect(loop.lastCaption).toBe("Sorry, that doesn't look right. How many guests?");
  });
});

describe('the clinic check-in, by voice alone', () => {
  it('takes a yes on the summary as "check me in", then confirms the check-in on the second yes, which sends it', async () => {
    const clinic = load(readFileSync(new URL('../../flows/clinic-checkin.yaml', import.meta.url), 'utf8'));
    const loop = await started(clinic);
    await loop.say("I'm Maria Garcia, born on 15 March 1990");
    expect(loop.view.pending).toEqual(['full_name', 'date_of_birth']);
    await loop.say('yes');
    expect(loop.view.state).toBe('reason');
    await loop.say("I'm a walk-in");
    expect(loop.view.state).toBe('summary');
    const before = loop.calls.length;
    await loop.say('yes');
    expect(callsSince(loop, before)).toEqual(['check_in {}']);
    expect(loop.view.pendingAction?.summary).toBe('Check in Maria Garcia for: Walk-in visit');
    await loop.say('yes');
    expect(callsSince(loop, before + 1)).toEqual(['confirm_action {}']);
    // Confirmed: the check-in is handed to the runtime, and the flow waits for the clinic's answer.
    expect(loop.emitted.filter((m) => m.type === 'action_run').map((m) => m.tool)).toEqual(['check_in']);
    expect(loop.view.pendingAction).toBeNull();
    expect(loop.view.state).toBe('summary');
  });
});

const CALLBACK = `
id: callback
states:
  ask:
    agent:
      prompt: Ask for a phone number and call save_phone.
      tools: [save_phone]
    tools:
      save_phone:
        description: Save the phone number.
        parameters: { phone: { type: phone, required: true } }
    transitions:
      on_tool_call: { save_phone: __end__ }
`;

describe('a step with nothing on screen', () => {
  it("asks from the tool's parameters and takes a number said digit by digit", async () => {
    const loop = await started(load(CALLBACK));
    expect(loop.lastCaption).toBe("What's your phone number?");
    await loop.say('sure, it is oh seven seven double nine, one two three, four five six');
    expect(callsSince(loop, 0)).toEqual(['save_phone {"phone":"07799123456"}']);
    expect(loop.view.ended).toBe(true);
  });
});

describe("flows in Prepatu's spelling", () => {
  const prepatu = (name: string) => load(readFileSync(new URL(name, PREPATU_DIALECT), 'utf8'));

  it('walks the drop-off wizard: name, email, day, time and repair, then books on yes', async () => {
    const loop = await started(prepatu('bike_dropoff.yaml'));
    expect(loop.lastCaption).toBe("Welcome to the workshop! First, who is dropping the bike off? What's your full name?");
    await loop.say('Hi, I am Omar Haddad');
    expect(callsSince(loop, 0)).toEqual(['take_name {"customer_name":"Omar Haddad"}']);
    expect(loop.lastCaption).toBe("Got it. What's your email address?");
    await loop.say('omar dot haddad at example dot com');
    expect(callsSince(loop, 1)).toEqual(['save_details {"customer_email":"omar.haddad@example.com","customer_name":"Omar Haddad"}']);
    expect(loop.view.state).toBe('pick_slot');
    await loop.say('June 3rd at 9 am');
    expect(loop.lastCaption).toBe("Thanks. I have drop-off day: June 3rd, drop-off time: 9 AM. What's your repair type? You can say puncture, brakes or gears.");
    await loop.say('the brakes please');
    expect(callsSince(loop, 2)).toEqual(['save_slot {"repair_type":"brakes","dropoff_day":"June 3rd","dropoff_time":"9 AM"}']);
    expect(loop.view.state).toBe('check_booking');
    expect(loop.lastCaption).toMatch(/Rider: Omar Haddad\. .*Is that all correct\?$/);
    await loop.say('yes');
    expect(callsSince(loop, 3)).toEqual(['book_dropoff {}']);
    expect(loop.view.ended).toBe(true);
  });

  it('says the farewell the last step asks for, in place of silence', async () => {
    const loop = await started(prepatu('lobby_greeter.yaml'));
    await loop.say('Leeds');
    expect(callsSince(loop, 0)).toEqual(['note_home_town {"home_town":"Leeds"}']);
    expect(loop.view.ended).toBe(true);
    expect(loop.lastCaption).toBe('I hope the trip from Leeds went well. Have a pleasant stay!');

    const greeting = await started(
      load(`
id: greeting_like
initial_state: hello
states:
  hello:
    agent: { prompt: Ask their name and call save_name., tools: [save_name] }
    tools:
      save_name: { description: Save it., parameters: { first_name: { type: string, required: true } } }
    transitions: { on_tool_call: { save_name: farewell } }
  farewell:
    agent: { prompt: "Say goodbye to {first_name} warmly.", tools: [] }
    transitions: {}
`),
    );
    await greeting.say('My name is Alex');
    expect(greeting.view.ended).toBe(true);
    expect(greeting.lastCaption).toBe('Goodbye, Alex!');
  });

  it('moves through the library sign-up: greeting, two captures in one answer, read-back, a choice, finish', async () => {
    const loop = await started(prepatu('library_signup.yaml'));
    expect(callsSince(loop, 0)).toEqual(['start_signup {}']);
    expect(loop.view.state).toBe('reader_details');
    expect(loop.lastCaption).toBe("What's your given name?");
    await loop.say('My name is Alex and I was born on fifteen march nineteen ninety five');
    expect(callsSince(loop, 1)).toEqual(['save_given_name {"given_name":"Alex"}', 'save_birthday {"birthday":"15 March 1995"}']);
    expect(loop.lastCaption).toBe('Got it. I have given name: Alex, birthday: 15 March 1995. Is that all correct?');
    await loop.say("yes that's right");
    expect(callsSince(loop, 3)).toEqual(['complete_profile {}']);
    expect(loop.view.state).toBe('choose_reading');
    expect(loop.lastCaption).toBe('What do you like to read, Alex? Please choose: Novels, Comics or Audiobooks.');
    await loop.say('comics please');
    expect(callsSince(loop, 4)).toEqual(['save_reading_taste {"reading_taste":"comics"}', 'finish_signup {}']);
    expect(loop.view.ended).toBe(true);
  });
});

describe('guarantees', () => {
  /** Wraps the agent and records each request with what it answered. */
  class Recording implements LanguageModel {
    readonly name = 'recording';
    readonly turns: { request: TurnRequest; chunks: TurnChunk[] }[] = [];
    private readonly agent = new OfflineAgent();
    async *generate(request: TurnRequest): AsyncIterable<TurnChunk> {
      const chunks: TurnChunk[] = [];
      for await (const c of this.agent.generate(request)) chunks.push(c);
      this.turns.push({ request, chunks });
      yield* chunks;
    }
  }

  const UTTERANCES = ['yes', 'no', 'Alex', 'My name is Alex', "no, it's Alice", 'blue', 'purple', 'hmm', '', 'red please', 'call me Sam', 'ok'];

  it('never calls a tool in the turn after tool results, never loops, and enters a step with words or a call', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(fc.constantFrom(...UTTERANCES), { maxLength: 12 }), async (withRules, said) => {
        const model = new Recording();
        const loop = await started(withRules ? load(ONBOARDING) : onboardingWithoutRules(), model);
        for (const text of said) if (!loop.view.ended) await loop.say(text);
        for (const t of model.turns) {
          const kind = readConversation(t.request.messages, t.request.scene?.state.agent.system_prompt).kind;
          if (kind === 'results') expect(t.chunks.filter((c) => c.type === 'tool_call')).toEqual([]);
          // An entry turn speaks, or acts on what the visitor said just before (the results turn speaks then).
          if (kind === 'entry') expect(t.chunks.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('answers the same request the same way', async () => {
    const model = new Recording();
    const loop = await started(onboardingWithoutRules(), model);
    await loop.say('my name is Alex');
    const agent = new OfflineAgent();
    for (const t of model.turns) {
      const again: TurnChunk[] = [];
      for await (const c of agent.generate(t.request)) again.push(c);
      expect(again).toEqual(t.chunks);
    }
  });

  it('stops when the request is aborted', async () => {
    const model = new Recording();
    await started(onboardingWithoutRules(), model);
    const request = model.turns[0]!.request;
    const controller = new AbortController();
    controller.abort();
    const chunks: TurnChunk[] = [];
    for await (const c of new OfflineAgent().generate({ ...request, signal: controller.signal })) chunks.push(c);
    expect(chunks).toEqual([]);
  });

  it('streams its caption sentence by sentence', async () => {
    const model = new Recording();
    await started(onboardingWithoutRules(), model);
    expect(model.turns[0]!.chunks).toEqual([
      { type: 'text', delta: 'Welcome! ' },
      { type: 'text', delta: "What's your first name?" },
    ]);
  });
});
