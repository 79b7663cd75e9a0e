// Flow authors, round two (issue 30): what three new flows (a hotel check-in in English and French,
// a pharmacy pick-up, a survey) could not write, or wrote and then met silently at run time. Each
// describe is one point of the issue; the diagnostics of the checker are in the golden fixtures
// (tests/fixtures/diagnostics) and the whole flows in tests/fixtures/authoring with their
// conversation tests.

import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { noonOf } from '../../src/engine/language/dates.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import { FlowEngine } from '../../src/engine/runtime/engine.ts';
import { VirtualClock } from '../../src/ports/clock.ts';
import { takeAwayLines } from '../../src/engine/runtime/shown-values.ts';
import { OfflineAgent } from '../../src/adapters/offline-agent/offline-agent.ts';
import { AgentLoop } from '../support/agent-loop.ts';
import { ScriptedModel, setup } from '../support/conversation-harness.ts';
import { only, startFlow } from '../support/engine-harness.ts';
import type { EngineMessage } from '../../src/engine/runtime/messages.ts';
import type { TurnRequest } from '../../src/ports/language-model.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('card labels in several languages (point 4)', () => {
  const card = `
id: hotel
language: en
languages: [en, fr]
variables:
  room_number: { type: string, default: "214" }
states:
  room:
    ui:
      artifact_type: card
      title: { en: Welcome, fr: Bienvenue }
      params:
        - { label: { en: Room, fr: Chambre }, value: "{room_number}" }
        - { label: { en: Breakfast, fr: Petit-déjeuner }, value: "7:00-10:00" }
    transitions: { on_ui_event: { done: __end__ } }
`;

  it('shows each label in the visit language, in the order written', () => {
    const h = startFlow(card);
    expect(only(h.started, 'flow_state').artifact?.params).toEqual({ Room: '214', Breakfast: '7:00-10:00' });
    const shown = only(h.engine.setLanguage('fr-FR'), 'flow_state');
    expect(Object.entries(shown.artifact?.params ?? {})).toEqual([
      ['Chambre', '214'],
      ['Petit-déjeuner', '7:00-10:00'],
    ]);
  });

  it('refuses a text map as a mapping key, saying so as a diagnostic and not on stderr', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const result = loadFlow(card.replace(/params:\n[\s\S]*?(?=    transitions)/, 'params:\n        { en: Room, fr: Chambre }: "{room_number}"\n'), 'hotel.yaml');
    expect(result.loaded).toBeUndefined();
    expect(result.diagnostics.map((d) => [d.code, d.line])).toEqual([['wrong-type', 13]]);
    expect(warn).not.toHaveBeenCalled();
    expect(consoleWarn).not.toHaveBeenCalled();
  });
});

describe('true and false read as words in the visit language (point 6)', () => {
  it('shows a boolean on a card, in the summary and on the end list as yes or no', () => {
    const h = startFlow(`
id: pharmacy
language: en
languages: [en, de, fr, es, ar]
variables:
  needs_advice: { type: boolean, default: true, label: Advice wanted, show_at_end: true }
  bag: { type: boolean, default: false }
states:
  summary:
    ui:
      artifact_type: card
      title: Summary
      params: { Advice: "{needs_advice}", Bag: "{bag}", Both: "{needs_advice} / {bag}" }
    transitions: { on_ui_event: { done: __end__ } }
`);
    expect(only(h.started, 'flow_state').artifact?.params).toEqual({ Advice: 'Yes', Bag: 'No', Both: 'Yes / No' });
    const words = (tag: string) => only(h.engine.setLanguage(tag), 'flow_state').artifact?.params;
    expect(words('de')).toEqual({ Advice: 'Ja', Bag: 'Nein', Both: 'Ja / Nein' });
    expect(words('fr')).toEqual({ Advice: 'Oui', Bag: 'Non', Both: 'Oui / Non' });
    expect(words('es')).toEqual({ Advice: 'Sí', Bag: 'No', Both: 'Sí / No' });
    expect(words('ar')).toEqual({ Advice: 'نعم', Bag: 'لا', Both: 'نعم / لا' });
    const loaded = h.engine.loaded;
    expect(takeAwayLines(loaded.flow, loaded.catalog, h.engine.view.values)).toEqual([{ name: 'needs_advice', label: 'Advice wanted', value: 'نعم' }]);
  });
});

describe("the kiosk's own words in the visit language (point 7)", () => {
  const form = (language: string) => `
id: anmeldung
language: ${language}
states:
  name:
    ui:
      artifact_type: form
      title: Name
      fields: [ { id: full_name, label: Name, required: true } ]
    transitions: { on_ui_event: { form_submit: __end__ } }
`;

  it("gives a form without submit_label the kiosk's word for Continue in the flow's language", () => {
    const label = (language: string) => only(startFlow(form(language)).started, 'flow_state').artifact?.submitLabel;
    expect([label('de-DE'), label('fr'), label('es-US'), label('ar'), label('en-GB'), label('nl')]).toEqual(['Weiter', 'Continuer', 'Continuar', 'متابعة', 'Continue', 'Continue']);
  });

  it('gives the example clinic its Continue in each visit language, and keeps a label the flow gives', () => {
    const clinic = loadFlow(readFileSync('flows/clinic-checkin.yaml', 'utf8'), 'clinic.yaml').loaded!;
    const engine = new FlowEngine(clinic, new VirtualClock(0));
    const first = only(engine.start(), 'flow_state');
    expect(first.artifact?.submitLabel).toBe('Continue');
    expect(only(engine.setLanguage('de-DE'), 'flow_state').artifact?.submitLabel).toBe('Weiter');
    expect(only(engine.setLanguage('es-US'), 'flow_state').artifact?.submitLabel).toBe('Continuar');
    const given = startFlow(form('de-DE').replace('title: Name', 'title: Name\n      submit_label: Anmelden'));
    expect(only(given.started, 'flow_state').artifact?.submitLabel).toBe('Anmelden');
  });

  it("shows the built-in error card in the visit's language", () => {
    const h = startFlow(form('fr-FR'));
    const shown = only(h.send({ type: 'fatal_error', message: 'the model is gone' }), 'flow_state');
    expect(shown.state).toBe('__error__');
    expect(shown.artifact?.title).toBe('Désolé, un problème est survenu');
    expect(shown.artifact?.actions).toEqual([{ event: 'start_over', label: 'Recommencer' }]);
  });
});

describe('a guard comparing a variable with another (point 11)', () => {
  const stay = `
id: stay
variables:
  arrival_date: { type: date }
  departure_date: { type: date }
  nights: { type: integer }
  max_nights: { type: integer, default: 14 }
states:
  dates:
    ui:
      artifact_type: form
      fields:
        - { id: arrival_date, type: date, label: Arrival }
        - { id: departure_date, type: date, label: Departure }
        - { id: nights, type: number, label: Nights }
    transitions:
      on_ui_event:
        form_submit:
          - target: too_long
            guard: { all: [ { variable: nights, operator: gt, value: "{max_nights}" } ] }
          - target: booked
            guard: { all: [ { variable: departure_date, operator: gt, value: "{arrival_date}" } ] }
          - dates
  too_long:
    ui: { artifact_type: card, title: Please ask at the desk }
  booked:
    ui: { artifact_type: card, title: Booked }
`;
  const submit = (values: Record<string, unknown>) => {
    const h = startFlow(stay);
    h.ui('form_submit', { values });
    return h.engine.view.state;
  };

  it('holds when departure is after arrival, as dates', () => {
    expect(submit({ arrival_date: '2025-06-14', departure_date: '2025-06-16', nights: '2' })).toBe('booked');
    expect(submit({ arrival_date: '2025-06-14', departure_date: '2025-06-14', nights: '0' })).toBe('dates');
    // As dates, not as texts of different lengths or as numbers: 2025-12-01 is after 2025-09-30.
    expect(submit({ arrival_date: '2025-09-30', departure_date: '2025-12-01', nights: '62' })).toBe('too_long');
    expect(submit({ arrival_date: '2025-09-30', departure_date: '2025-10-01', nights: '1' })).toBe('booked');
  });

  it('compares numbers as numbers, and does not hold against a value never given', () => {
    expect(submit({ arrival_date: '2025-06-14', departure_date: '2025-07-14', nights: '30' })).toBe('too_long');
    expect(submit({ departure_date: '2025-06-16', nights: '2' })).toBe('dates');
  });
});

describe('today as a value (point 12)', () => {
  const hotel = `
id: stay
variables:
  arrival_date: { type: date, default: today }
  check_out_by: { default: today + 1 day }
  booking_ref: { type: string, default: HV4821 }
tools:
  check_in:
    description: Check the guest in.
    http:
      method: POST
      url: "{origin:HOTEL}/stays/{booking_ref}/check-in?on={today}"
      body: { booking: "{booking_ref}", arrived: "{today}", note: "arrived on {today}" }
states:
  welcome:
    on_enter:
      - set: { departure_date: today + 2 days, greeting: "Checked in on {today}" }
    ui:
      artifact_type: card
      title: "Today is {today}"
      actions: [ { event: check_in, label: Check in, tool: check_in } ]
    transitions:
      on_tool_call: { check_in: __end__ }
`;

  it('takes the day on the kiosk clock for a default, a set and {today} in a body, a url and a text', () => {
    const h = startFlow(hotel, noonOf('2025-06-14'));
    expect(h.engine.view.values).toMatchObject({ arrival_date: '2025-06-14', check_out_by: '2025-06-15', departure_date: '2025-06-16', greeting: 'Checked in on 2025-06-14' });
    expect(only(h.started, 'flow_state').artifact?.title).toBe('Today is June 14, 2025');
    const run = only(h.ui('check_in'), 'action_run');
    expect(run.url).toBe('{origin:HOTEL}/stays/HV4821/check-in?on=2025-06-14');
    expect(run.body).toEqual({ booking: 'HV4821', arrived: '2025-06-14', note: 'arrived on 2025-06-14' });
    expect(run.values).toEqual({ booking_ref: 'HV4821', today: '2025-06-14' });
  });

  it('reads the day again on a later day, and is checked like any value', () => {
    const h = startFlow(hotel, noonOf('2024-02-28'));
    expect(h.engine.view.values).toMatchObject({ arrival_date: '2024-02-28', check_out_by: '2024-02-29', departure_date: '2024-03-01' });
    const typo = loadFlow(hotel.replace('arrived: "{today}"', 'arrived: "{todya}"').replace('default: today }', 'default: tomorrow }'), 'stay.yaml');
    expect(typo.diagnostics.map((d) => d.message)).toEqual([
      '"arrival_date" is a date, so its default cannot be "tomorrow": expected a date as YYYY-MM-DD',
      'the body of check_in refers to unknown variable "todya" (did you mean "today"?)',
    ]);
  });
});

describe('a decision step and a self target (point 13)', () => {
  const survey = `
id: survey
settings: { allow_back: true }
tools:
  save_q3:
    description: Whether the visitor used the spa.
    parameters:
      q3: { enum: ["yes", "no"], required: true }
states:
  q3:
    ui: { artifact_type: options, title: Did you use the spa?, variable: q3, options: ["yes", "no"] }
    agent: { prompt: Ask whether they used the spa., tools: [save_q3] }
    transitions:
      on_ui_event: { option_select: after_q3, again: self }
      on_tool_call: { save_q3: after_q3 }
      on_utterance:
        - { pattern: "^(yes|no)$", capture_to: q3, target: after_q3 }
      on_timeout: { seconds: 30, target: self, max_retries: 1, fallback: __end__ }
  after_q3:
    on_enter:
      - set: { asked: "{q3}" }
    decide:
      - { target: q5, guard: { all: [ { variable: q3, operator: eq, value: "no" } ] }, set: { q4: skipped } }
      - q4
  q4:
    ui: { artifact_type: options, title: How was the spa?, variable: q4, options: [good, poor] }
    transitions: { on_ui_event: { option_select: q5 } }
  q5:
    ui: { artifact_type: card, title: Thank you }
`;

  it('takes its branch on entering, by tap, tool and spoken rule alike, and is never shown', () => {
    const viaTap = startFlow(survey);
    const tapped = viaTap.ui('option_select', { value: 'no' });
    expect(viaTap.engine.view.state).toBe('q5');
    expect(viaTap.engine.view.values).toMatchObject({ q3: 'no', q4: 'skipped', asked: 'no' });
    expect(tapped.filter((m) => m.type === 'flow_state').map((m) => (m as { state: string }).state)).toEqual(['q5']);
    expect(tapped.filter((m) => m.type === 'llm_turn')).toHaveLength(1);

    const viaTool = startFlow(survey);
    viaTool.call('save_q3', { q3: 'yes' });
    expect(viaTool.engine.view.state).toBe('q4');
    const viaVoice = startFlow(survey);
    viaVoice.say('no');
    expect(viaVoice.engine.view.state).toBe('q5');
  });

  it('is passed over by Back, which returns to the step before it', () => {
    const h = startFlow(survey);
    h.ui('option_select', { value: 'yes' });
    expect(h.engine.view.state).toBe('q4');
    h.ui('back');
    expect(h.engine.view.state).toBe('q3');
  });

  it('reads self as the state it is written in: a tap or a time-out asks again', () => {
    const h = startFlow(survey);
    const again = h.ui('again');
    expect(only(again, 'flow_state').state).toBe('q3');
    expect(only(again, 'flow_state').epoch).toBe(2);
    h.wait(30);
    expect(h.engine.view.state).toBe('q3');
    expect(h.engine.view.epoch).toBe(3);
    h.wait(30);
    expect(h.engine.view.ended).toBe(true);
  });
});

describe('a field that asks for upper case (point 14)', () => {
  const booking = `
id: hotel
tools:
  find_booking:
    description: Look up the booking by its reference.
    parameters:
      booking_ref: { type: string, required: true, pattern: "^[A-Z]{2}[0-9]{4}$" }
states:
  lookup:
    ui:
      artifact_type: form
      fields:
        - { id: booking_ref, label: Booking reference, pattern: "^[A-Z]{2}[0-9]{4}$", case: upper, message: "Two letters and four digits, as on your confirmation." }
    agent: { prompt: Ask for the booking reference., tools: [find_booking] }
    transitions:
      on_ui_event: { form_submit: found }
      on_tool_call: { find_booking: found }
      on_utterance:
        - { pattern: "^(?:it's )?([a-z]{2}\\\\d{4})$", capture_to: booking_ref, target: found }
  found:
    ui: { artifact_type: card, title: "Booking {booking_ref}" }
`;

  it('writes the value in upper case however it comes: typed, said, sent by the LLM', () => {
    const typed = startFlow(booking);
    typed.ui('form_submit', { values: { booking_ref: 'hv4821' } });
    expect([typed.engine.view.state, typed.engine.view.values['booking_ref']]).toEqual(['found', 'HV4821']);
    const said = startFlow(booking);
    said.say("it's hv4821");
    expect([said.engine.view.state, said.engine.view.values['booking_ref']]).toEqual(['found', 'HV4821']);
    const sent = startFlow(booking);
    const out = sent.call('find_booking', { booking_ref: 'hv4821' });
    expect(out.filter((m) => m.type === 'tool_rejected')).toEqual([]);
    expect([sent.engine.view.state, sent.engine.view.values['booking_ref']]).toEqual(['found', 'HV4821']);
  });

  it('still holds the value to its pattern', () => {
    const h = startFlow(booking);
    const blocked = only(h.ui('form_submit', { values: { booking_ref: 'hv48' } }), 'transition_blocked');
    expect(blocked.problems?.['booking_ref']).toMatchObject({ rule: 'pattern', message: 'Two letters and four digits, as on your confirmation.' });
  });
});

describe('a required checkbox must be ticked (point 1)', () => {
  const rules = `
id: hotel
global:
  actions: [ { event: desk, label: Talk to the desk } ]
  on_ui_event: { desk: desk }
tools:
  save_terms:
    description: The guest accepts or declines the house rules.
    parameters:
      terms_accepted: { type: boolean, required: true }
states:
  rules:
    ui:
      artifact_type: form
      title: House rules
      fields:
        - { id: terms_accepted, type: checkbox, label: I accept the house rules, required: true }
    agent: { prompt: Ask the guest to accept the house rules., tools: [save_terms] }
    transitions:
      on_ui_event: { form_submit: summary }
      on_tool_call: { save_terms: summary }
  summary:
    ui: { artifact_type: card, title: "Thank you" }
  desk:
    ui: { artifact_type: card, title: Please ask at the desk }
`;

  it('blocks Continue by touch while the box is unticked, and stores nothing', () => {
    const h = startFlow(rules);
    for (const values of [{ terms_accepted: false }, {}, { terms_accepted: 'false' }]) {
      const blocked = only(h.ui('form_submit', { values }), 'transition_blocked');
      expect(blocked).toMatchObject({ reason: 'not_captured', variables: { terms_accepted: null } });
    }
    expect(h.engine.view.state).toBe('rules');
    expect(h.engine.view.values).toEqual({});
    h.ui('form_submit', { values: { terms_accepted: true } });
    expect([h.engine.view.state, h.engine.view.values['terms_accepted']]).toEqual(['summary', true]);
  });

  it("blocks the LLM's tool that moves on with the box unticked, and says why aloud in the visit's language", () => {
    const h = startFlow(rules);
    const out = h.call('save_terms', { terms_accepted: false });
    expect(h.engine.view.state).toBe('rules');
    expect(only(out, 'transition_blocked')).toMatchObject({ reason: 'not_captured', attempted_target: 'summary' });
    expect(only(out, 'speech_cue')).toEqual({ type: 'speech_cue', text: 'Please tick “I accept the house rules” on the screen to go on.', reason: 'not_ticked' });
    expect(out.filter((m) => m.type === 'system_message').map((m) => (m as { text: string }).text).join(' ')).toContain('terms_accepted is a box the visitor must tick on the screen (a consent)');
    h.call('save_terms', { terms_accepted: true });
    expect(h.engine.view.state).toBe('summary');
  });

  it('lets a way out of every step go without the tick', () => {
    const h = startFlow(rules);
    h.ui('desk');
    expect(h.engine.view.state).toBe('desk');
  });

  it('holds back a confirmed gate too, and the built-in assistant asks for the tick', async () => {
    const gated = rules
      .replace('    transitions:\n      on_ui_event: { form_submit: summary }', '    confirmation_gate: { variables: [guest_name], on_confirm: summary }\n    transitions:\n      on_ui_event: { form_submit: summary }')
      .replace('- { id: terms_accepted', '- { id: guest_name, label: Your name }\n        - { id: terms_accepted')
      .replace('tools: [save_terms]', 'tools: [save_terms, save_name]')
      .replace('tools:\n', 'tools:\n  save_name:\n    description: The guest name.\n    parameters: { guest_name: { type: string, required: true } }\n');
    const h = startFlow(gated);
    h.call('save_name', { guest_name: 'Ada' });
    expect(h.engine.view.pending).toEqual(['guest_name']);
    const out = h.ui('confirm_variable', { variable: 'guest_name' });
    expect(h.engine.view.state).toBe('rules');
    expect(only(out, 'transition_blocked').reason).toBe('not_captured');

    const loop = new AgentLoop(loadFlow(rules, 'rules.yaml').loaded!, new OfflineAgent());
    await loop.start();
    expect(loop.lastCaption).toContain('Please tick “I accept the house rules” on the screen to go on.');
    const de = new AgentLoop(loadFlow(rules.replace('id: hotel', 'id: hotel\nlanguage: de-DE'), 'rules.yaml').loaded!, new OfflineAgent());
    await de.start();
    expect(de.lastCaption).toContain('Bitte kreuzen Sie „I accept the house rules“ auf dem Bildschirm an, um fortzufahren.');
  });
});

describe('an action in flight is not proposed again (point 2, by voice)', () => {
  const hotel = `
id: hotel
tools:
  check_in:
    description: Check the guest in.
    confirm: true
    summary: Check in Ada Lovelace for two nights
    http: { method: POST, url: "{origin:HOTEL}/check-ins", body: { guest: Ada } }
states:
  summary:
    ui:
      artifact_type: card
      title: Your stay
      actions: [ { event: check_in, label: Check me in, tool: check_in } ]
    agent: { prompt: "Ask whether to check the guest in, and call check_in when they agree.", tools: [check_in] }
    transitions:
      on_action_done: { check_in: welcome }
      on_timeout: { seconds: 120, target: __end__ }
  welcome:
    ui: { artifact_type: card, title: Welcome }
`;
  const runs = (messages: readonly EngineMessage[]) => messages.filter((m) => m.type === 'action_run').length;

  it('refuses a second call while the first is sent, and a write done in the step, telling the LLM why', () => {
    const h = startFlow(hotel.replace('on_action_done: { check_in: welcome }', 'on_action_failed: { check_in: __end__ }'));
    h.call('check_in');
    h.say('yes');
    const sent = h.call('confirm_action');
    const run = only(sent, 'action_run');
    expect(h.engine.view.tools).toEqual(['confirm_action', 'reject_action']);
    const again = h.call('check_in');
    expect(only(again, 'tool_rejected')).toMatchObject({ reason: 'action_running', detail: expect.stringContaining('do not call check_in again') });
    expect(again.filter((m) => m.type === 'action_pending')).toEqual([]);
    h.send({ type: 'action_done', action_id: run.action_id, ok: true, data: {} });
    expect(h.engine.view.state).toBe('summary');
    expect(only(h.call('check_in'), 'tool_rejected').reason).toBe('already_done');
    expect(only(h.ui('check_in'), 'speech_cue')).toMatchObject({ reason: 'action_busy', text: 'That has been done already.' });
    expect(runs(h.log)).toBe(1);
  });

  it('may try again after a failure, and after the visitor left and came back', () => {
    const h = startFlow(hotel);
    h.ui('check_in');
    const run = only(h.ui('confirm_action'), 'action_run');
    h.send({ type: 'action_done', action_id: run.action_id, ok: false, error: 'http: the service answered 503', status: 503 });
    expect(only(h.ui('check_in'), 'action_pending').tool).toBe('check_in');
  });

  it('leaves the tool out of what the model is sent while it runs, and the built-in assistant does not propose it again', async () => {
    const loaded = loadFlow(hotel, 'hotel.yaml').loaded!;
    const model = new ScriptedModel([
      [{ type: 'text', delta: 'Shall I check you in?' }],
      [{ type: 'tool_call', call: { id: 'c1', name: 'check_in', arguments: '{}' } }],
      [{ type: 'text', delta: 'Check in Ada Lovelace for two nights. Shall I go ahead?' }],
      [{ type: 'tool_call', call: { id: 'c2', name: 'confirm_action', arguments: '{}' } }],
      [{ type: 'text', delta: 'Checking you in now.' }],
      [{ type: 'tool_call', call: { id: 'c3', name: 'check_in', arguments: '{}' } }],
      [{ type: 'text', delta: 'It is on its way.' }],
    ]);
    const { conversation, log } = setup(model, loaded);
    conversation.start();
    await conversation.settled();
    for (const said of ['yes please', 'yes', 'yes, check me in']) {
      conversation.say(said);
      await conversation.settled();
    }
    const names = (r: TurnRequest) => r.tools.map((t) => t.function.name);
    expect(names(model.requests[1]!)).toContain('check_in');
    expect(names(model.requests[5]!)).toEqual(['confirm_action', 'reject_action']);
    expect(log.messages.filter((m) => m.type === 'tool_rejected').map((m) => (m as { reason: string }).reason)).toEqual(['action_running']);
    expect(runs(log.messages)).toBe(1);

    const offline = setup(new OfflineAgent(), loaded);
    offline.conversation.start();
    await offline.conversation.settled();
    for (const said of ['yes', 'yes', 'yes', 'check me in']) {
      offline.conversation.say(said);
      await offline.conversation.settled();
    }
    expect(offline.log.messages.filter((m) => m.type === 'action_pending')).toHaveLength(1);
    expect(runs(offline.log.messages)).toBe(1);
  });
});

describe("the three authors' flows (issue 30)", () => {
  it.each(['hotel-checkin.yaml', 'pharmacy-pickup.yaml', 'survey.yaml'])('%s passes vfdl check with nothing to say', (name) => {
    const file = `tests/fixtures/authoring/${name}`;
    const result = loadFlow(readFileSync(file, 'utf8'), file);
    expect(result.diagnostics).toEqual([]);
    expect(result.loaded).toBeDefined();
  });
});
