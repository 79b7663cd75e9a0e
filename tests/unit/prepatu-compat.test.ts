// Prepatu compatibility at run time (SPEC 1 and 9): Prepatu's spellings, its artifacts, declared
// variables, settings, terminal states, tool extras and guarded transitions, each on a small
// inline flow run by the engine on a virtual clock (and one whole flow written in Prepatu's
// spelling, from tests/fixtures/prepatu-dialect).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ofType, only } from '../support/engine-harness.ts';
import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { FlowEngine } from '../../src/engine/runtime/engine.ts';
import { loadFlow, type LoadedFlow } from '../../src/engine/language/load-flow.ts';
import type { EngineInput, EngineMessage, UiEventInput } from '../../src/engine/runtime/messages.ts';
import { VirtualClock } from '../../src/ports/clock.ts';


/** Loads an inline flow that must have no error. */
function load(yaml: string): LoadedFlow {
  const { loaded, diagnostics } = loadFlow(yaml, 'inline.yaml');
  expect(diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic)).toEqual([]);
  return loaded!;
}

/** Starts an inline flow on a virtual clock; `entered` holds the messages of the start. */
function start(yaml: string) {
  const clock = new VirtualClock();
  const engine = new FlowEngine(load(yaml), clock);
  const entered = engine.start();
  return { engine, clock, entered };
}

/** The LLM calls `name` in the current epoch. */
function call(engine: FlowEngine, name: string, args: unknown = {}): EngineMessage[] {
  return engine.send({ type: 'tool_call', name, args, epoch: engine.view.epoch });
}

/** A UI event from the screen. */
const ui = (event: string, rest: Omit<UiEventInput, 'type' | 'event'> = {}): EngineInput => ({
  type: 'ui_event',
  event,
  ...rest,
});

describe('Prepatu spellings of the document', () => {
  it('starts in initial_state', () => {
    const { engine, entered } = start(`
      id: spellings
      initial_state: second
      states:
        first:
          transitions: { on_ui_event: { next: second } }
        second:
          transitions: { on_ui_event: { done: __end__ } }
    `);
    expect(only(entered, 'flow_state').state).toBe('second');
    expect(engine.view.state).toBe('second');
  });

  it('prepends settings.base_system_prompt to the state prompt in flow_state', () => {
    const { entered } = start(`
      id: spellings
      settings:
        base_system_prompt: |
          You are Aria, a booking assistant.
      variables:
        guest: { type: string, default: Sam }
      states:
        hello:
          agent: { prompt: "Greet {guest} by name." }
          transitions: { on_ui_event: { done: __end__ } }
    `);
    const prompt = only(entered, 'flow_state').agent.system_prompt;
    expect(prompt.startsWith('You are Aria, a booking assistant.')).toBe(true);
    expect(prompt).toContain('Greet Sam by name.');
  });

  it('accepts version and description without a diagnostic', () => {
    const { loaded, diagnostics } = loadFlow(`
      id: spellings
      version: "1.2.0"
      description: "A two-line flow"
      states:
        hello:
          transitions: { on_ui_event: { done: __end__ } }
    `);
    expect(diagnostics.map(formatDiagnostic)).toEqual([]);
    expect(loaded?.flow.version).toBe('1.2.0');
    expect(loaded?.flow.description).toBe('A two-line flow');
  });
});

describe('Prepatu tools', () => {
  const overriding = `
    id: overriding
    tools:
      save:
        description: Shared save
        parameters:
          colour: { type: string, required: true }
    states:
      own:
        agent: { tools: [save] }
        tools:
          save:
            description: Own save
            parameters:
              size: { type: number, required: true }
        transitions:
          on_tool_call: { save: shared }
      shared:
        agent: { tools: [save] }
        transitions:
          on_tool_call: { save: __end__ }
  `;

  it('lets a state-level tool override a top-level tool of the same name', () => {
    const { engine, entered } = start(overriding);
    const own = only(entered, 'flow_state').agent.tools.find((t) => t.function.name === 'save');
    expect(own?.function.description).toBe('Own save');
    expect(Object.keys(own?.function.parameters.properties ?? {})).toEqual(['size']);

    const wrong = call(engine, 'save', { colour: 'red' });
    expect(only(wrong, 'tool_rejected')).toMatchObject({ reason: 'invalid_arguments', field: 'size' });
    expect(engine.view.state).toBe('own');

    const moved = call(engine, 'save', { size: 3 });
    expect(engine.view.values['size']).toBe(3);
    const shared = only(moved, 'flow_state').agent.tools.find((t) => t.function.name === 'save');
    expect(shared?.function.description).toBe('Shared save');
    expect(shared?.function.parameters.required).toEqual(['colour']);
  });

  it.each([
    ['missing', 'go_on', {}],
    ['missing', 'go_on', '{}'],
    ['{}', 'skip', {}],
    ['{}', 'skip', ''],
  ])('offers and accepts a tool whose parameters are %s (called with %j)', (_how, name, args) => {
    const { engine, entered } = start(`
      id: no_arguments
      states:
        ask:
          agent: { tools: [go_on, skip] }
          tools:
            go_on: { description: Continue }
            skip:
              description: Skip this step
              parameters: {}
          transitions:
            on_tool_call: { go_on: done, skip: done }
        done:
          transitions: { on_ui_event: { finish: __end__ } }
    `);
    const spec = only(entered, 'flow_state').agent.tools.find((t) => t.function.name === name);
    expect(spec?.function.parameters).toEqual({ type: 'object', properties: {}, required: [], additionalProperties: false });

    const out = call(engine, name, args);
    expect(only(out, 'tool_result').ok).toBe(true);
    expect(engine.view.state).toBe('done');
  });

  const contactForm = `
    id: contact
    states:
      collect_contact:
        ui:
          artifact_type: form
          prompt: Your contact details
          fields:
            - { id: full_name, type: text, label: Full Name }
            - { id: email, type: email, label: Email Address }
            - { id: phone, type: tel, label: "Phone number:" }
        agent: { tools: [capture_name, capture_email, save_contact] }
        tools:
          capture_name:
            speech_cue: "Got it, {full_name}! Now your email, please."
            parameters:
              full_name: { type: string, required: true }
          capture_email:
            parameters:
              email: { type: email, required: true }
          save_contact:
            description: Move on
        transitions:
          on_tool_call: { save_contact: done }
      done:
        transitions: {}
  `;

  it('emits the tool\'s speech_cue, interpolated, when it is handled without a transition', () => {
    const { engine } = start(contactForm);
    const out = call(engine, 'capture_name', { full_name: 'Jane Smith' });
    expect(only(out, 'speech_cue')).toEqual({ type: 'speech_cue', text: 'Got it, Jane Smith! Now your email, please.', reason: 'tool_handled' });
    expect(engine.view.state).toBe('collect_contact');
  });

  it('without a speech_cue, offers a cue naming the form fields still empty', () => {
    const { engine } = start(contactForm);
    call(engine, 'capture_name', { full_name: 'Jane Smith' });
    const cue = only(call(engine, 'capture_email', { email: 'jane@example.com' }), 'speech_cue');
    expect(cue.reason).toBe('tool_handled');
    const text = cue.text.toLowerCase();
    expect(text).toContain('phone number');
    expect(text).not.toContain('full name');
    expect(text).not.toContain('email address');
  });

  const autoExtract = `
    id: extract
    states:
      ask_email:
        agent: { tools: [save_email] }
        tools:
          save_email:
            parameters:
              email: { type: email, required: true }
            auto_extract:
              email: { patterns: ['([a-z0-9.]+@[a-z0-9.]+)'] }
        transitions:
          on_tool_call: { save_email: thanks }
      thanks:
        transitions: {}
  `;

  it.each([
    ['missing', {}],
    ['invalid', { email: 'jo bloggs at example' }],
  ])('auto_extract fills a %s argument from the latest utterance before the call is judged', (_how, args) => {
    const { engine } = start(autoExtract);
    engine.send({ type: 'utterance', text: 'It is jo.bloggs@example.com thanks' });
    const out = call(engine, 'save_email', args);
    expect(ofType(out, 'tool_rejected')).toEqual([]);
    expect(only(out, 'tool_result').ok).toBe(true);
    expect(only(out, 'flow_variable')).toMatchObject({ name: 'email', value: 'jo.bloggs@example.com' });
    expect(engine.view.state).toBe('thanks');
  });

  it.each([
    ['missing', {}],
    ['invalid', { email: 'jo bloggs at example' }],
  ])('rejects a call whose %s argument the patterns cannot fill either', (_how, args) => {
    const { engine } = start(autoExtract);
    engine.send({ type: 'utterance', text: 'I would rather not say' });
    const out = call(engine, 'save_email', args);
    expect(only(out, 'tool_rejected')).toMatchObject({ reason: 'invalid_arguments', field: 'email' });
    expect(ofType(out, 'flow_variable')).toEqual([]);
    expect(engine.view.values['email']).toBeUndefined();
    expect(engine.view.state).toBe('ask_email');
  });
});

describe('Prepatu artifacts', () => {
  const booking = `
    id: booking
    variables:
      full_name: { type: string, default: Jane }
    states:
      contact:
        ui:
          artifact_type: form
          prompt: "Great, {full_name}! Now your email."
          fields:
            - id: email
              type: email
              label: Email Address
              placeholder: "jane@example.com"
              required: true
        transitions:
          on_ui_event: { form_submit: review }
      review:
        ui:
          artifact_type: card
          prompt: "Booking for {full_name}, {email}"
        transitions:
          on_ui_event: { done: __end__ }
  `;

  it('uses ui.prompt as the heading of a form, interpolated', () => {
    const { entered } = start(booking);
    const artifact = only(entered, 'flow_state').artifact;
    expect(artifact?.type).toBe('form');
    expect(artifact?.title).toBe('Great, Jane! Now your email.');
    expect(artifact?.text).toBeUndefined();
  });

  it('keeps a field\'s placeholder and enforces required on submit', () => {
    const { engine, entered } = start(booking);
    expect(only(entered, 'flow_state').artifact?.fields[0]).toMatchObject({ id: 'email', placeholder: 'jane@example.com', required: true });

    const blocked = engine.send(ui('form_submit', { values: { email: '' } }));
    expect(only(blocked, 'transition_blocked')).toMatchObject({ reason: 'not_captured', variables: { email: null } });
    expect(engine.view.state).toBe('contact');

    engine.send(ui('form_submit', { values: { email: 'jane@example.com' } }));
    expect(engine.view.state).toBe('review');
  });

  it('uses ui.prompt as the body of a card, interpolated', () => {
    const { engine } = start(booking);
    const out = engine.send(ui('form_submit', { values: { email: 'jane@example.com' } }));
    const artifact = only(out, 'flow_state').artifact;
    expect(artifact?.type).toBe('card');
    expect(artifact?.text).toBe('Booking for Jane, jane@example.com');
    expect(artifact?.title).toBeUndefined();
  });

  const plans = `
    id: plans
    states:
      pick:
        ui:
          artifact_type: options
          prompt: Which plan?
          variable: plan
          options:
            - { id: basic, label: Basic, description: "Free, with ads" }
            - { id: pro, label: Pro, description: "No ads" }
        transitions:
          on_ui_event: { option_select: thanks }
      thanks:
        ui: { artifact_type: card, prompt: "You chose {plan}." }
        transitions:
          on_ui_event: { done: __end__ }
  `;

  it('shows options given as {id, label, description}', () => {
    const { entered } = start(plans);
    const artifact = only(entered, 'flow_state').artifact;
    expect(artifact?.title).toBe('Which plan?');
    expect(artifact?.options).toEqual([
      { id: 'basic', label: 'Basic', description: 'Free, with ads' },
      { id: 'pro', label: 'Pro', description: 'No ads' },
    ]);
  });

  it('sets the options variable from a tap\'s selected_id', () => {
    const { engine } = start(plans);
    const out = engine.send(ui('option_select', { selected_id: 'pro' }));
    expect(only(out, 'flow_variable')).toMatchObject({ name: 'plan', value: 'pro', source: 'ui' });
    expect(engine.view.values['plan']).toBe('pro');
    // The stored value is the id; the screen reads the choice by its label.
    expect(only(out, 'flow_state').artifact?.text).toBe('You chose Pro.');
  });

  it('carries a card\'s title, content and params', () => {
    const { entered } = start(`
      id: card
      variables:
        guest: { type: string, default: Sam }
        time: { type: string, default: "10:00" }
      states:
        summary:
          ui:
            artifact_type: card
            title: "Thanks, {guest}"
            content: "See you at {time}."
            params: { room: 4, floor: second }
          transitions:
            on_ui_event: { done: __end__ }
    `);
    const artifact = only(entered, 'flow_state').artifact;
    expect(artifact).toMatchObject({ type: 'card', title: 'Thanks, Sam', text: 'See you at 10:00.', params: { room: 4, floor: 'second' } });
  });

  it.each(['orb_layout', 'navigate', 'feedback', 'dismiss', 'custom'])('runs a state whose artifact is %s, not rendered', (type) => {
    const { engine, entered } = start(`
      id: other_artifact
      states:
        show:
          ui: { artifact_type: ${type}, position: center_bottom, screen: Home }
          transitions:
            on_ui_event: { done: __end__ }
    `);
    expect(only(entered, 'flow_state').artifact).toMatchObject({ type: 'other', declaredType: type });
    engine.send(ui('done'));
    expect(engine.view.ended).toBe(true);
  });
});

describe('declared variables', () => {
  it('sets every default when the flow starts', () => {
    const { engine } = start(`
      id: defaults
      variables:
        guest: { type: string, default: Sam }
        party: { type: number, default: 2 }
        vip: { type: boolean, default: false }
        seating: { type: enum, enum: [indoor, outdoor], default: outdoor }
        prefs: { type: object, default: { quiet: true } }
        note: { type: string }
      states:
        hello:
          agent: { prompt: "Welcome {guest}, table for {party}." }
          transitions: { on_ui_event: { done: __end__ } }
    `);
    expect(engine.view.values).toEqual({ guest: 'Sam', party: 2, vip: false, seating: 'outdoor', prefs: { quiet: true } });
  });

  const required = `
    id: required
    variables:
      full_name: { type: string, required: true }
      email: { type: string, required: true }
      note: { type: string, required: false }
    states:
      ask:
        agent: { tools: [save_name, save_email] }
        tools:
          save_name:
            parameters: { full_name: { type: string, required: true } }
          save_email:
            parameters: { email: { type: string, required: true } }
        transitions:
          on_ui_event: { finish: __end__ }
  `;

  it('notes a required variable still unset at the end in analytics, by name only', () => {
    const { engine } = start(required);
    call(engine, 'save_name', { full_name: 'Jane Smith' });
    const out = engine.send(ui('finish'));
    const note = only(out, 'analytics');
    expect(note).toEqual({ type: 'analytics', event: 'required_variables_unset', state: 'ask', data: { variables: ['email'] } });
    expect(JSON.stringify(note)).not.toContain('Jane');
    expect(out.map((m) => m.type)).toContain('flow_end');
  });

  it('makes no such note when every required variable is set', () => {
    const { engine } = start(required);
    call(engine, 'save_name', { full_name: 'Jane Smith' });
    call(engine, 'save_email', { email: 'jane@example.com' });
    const out = engine.send(ui('finish'));
    expect(ofType(out, 'analytics')).toEqual([]);
    expect(only(out, 'flow_end').variables).toEqual({ full_name: 'Jane Smith', email: 'jane@example.com' });
  });
});

describe('Prepatu settings', () => {
  const withError = (settings: string) => `
    id: errors
    ${settings}
    states:
      ask:
        transitions: { on_ui_event: { done: __end__ } }
      sorry:
        ui: { artifact_type: card, prompt: "Sorry, let us start again." }
        transitions: { on_ui_event: { start_over: ask } }
  `;

  it('goes to settings.on_error on an unrecoverable error', () => {
    const { engine } = start(withError('settings: { on_error: sorry }'));
    const out = engine.send({ type: 'fatal_error', message: 'the language model is gone' });
    expect(only(out, 'flow_state').state).toBe('sorry');
    expect(engine.view.state).toBe('sorry');
  });

  it('goes to __error__ on an unrecoverable error when on_error is not given', () => {
    const { engine } = start(withError(''));
    engine.send({ type: 'fatal_error', message: 'the language model is gone' });
    expect(engine.view.state).toBe('__error__');
  });

  it('accepts settings.llm_required', () => {
    const { loaded, diagnostics } = loadFlow(`
      id: needs_llm
      settings: { llm_required: true }
      states:
        ask:
          transitions: { on_ui_event: { done: __end__ } }
    `);
    expect(diagnostics.map(formatDiagnostic)).toEqual([]);
    expect(loaded?.flow.settings.llmRequired).toBe(true);
  });

  const wizard = (settings: string) => `
    id: wizard
    ${settings}
    states:
      name:
        ui:
          artifact_type: form
          fields: [ { id: first_name, label: First name } ]
        transitions: { on_ui_event: { form_submit: colour } }
      colour:
        ui:
          artifact_type: form
          fields: [ { id: colour, label: Colour } ]
        transitions: { on_ui_event: { form_submit: __end__ } }
  `;

  it('with settings.allow_back, a back event returns to the previous state with values kept', () => {
    const { engine, entered } = start(wizard('settings: { allow_back: true }'));
    expect(only(entered, 'flow_state').can_go_back).toBe(false);

    const second = engine.send(ui('form_submit', { values: { first_name: 'Ana' } }));
    expect(only(second, 'flow_state')).toMatchObject({ state: 'colour', can_go_back: true });
    engine.send(ui('field_change', { variable: 'colour', value: 'blue' }));

    const back = engine.send(ui('back'));
    expect(only(back, 'flow_state')).toMatchObject({ state: 'name', values: { first_name: 'Ana' }, can_go_back: false });
    expect(engine.view.values).toEqual({ first_name: 'Ana', colour: 'blue' });
  });

  it('without settings.allow_back, a back event does nothing', () => {
    const { engine } = start(wizard(''));
    const second = engine.send(ui('form_submit', { values: { first_name: 'Ana' } }));
    expect(only(second, 'flow_state').can_go_back).toBe(false);
    expect(engine.send(ui('back'))).toEqual([]);
    expect(engine.view.state).toBe('colour');
  });

  const capped = (settings: string) => `
    id: capped
    settings: { max_duration_secs: 120${settings} }
    states:
      ask:
        transitions: { on_ui_event: { done: __end__ } }
      time_up:
        ui: { artifact_type: card, prompt: "Time is up." }
        transitions: {}
  `;

  it('goes to settings.on_timeout when settings.max_duration_secs has passed', () => {
    const { engine, clock } = start(capped(', on_timeout: time_up'));
    clock.advance(119_000);
    expect(engine.tick()).toEqual([]);
    expect(engine.view.state).toBe('ask');

    clock.advance(1_000);
    const out = engine.tick();
    expect(only(out, 'flow_state').state).toBe('time_up');
    expect(only(out, 'flow_end')).toMatchObject({ last_state: 'time_up', reason: 'max_duration' });
  });

  it('ends the flow when settings.max_duration_secs has passed and on_timeout is not given', () => {
    const { engine, clock } = start(capped(''));
    clock.advance(120_000);
    const out = engine.tick();
    expect(ofType(out, 'flow_state')).toEqual([]);
    expect(only(out, 'flow_end')).toMatchObject({ last_state: 'ask', reason: 'max_duration' });
    expect(engine.view.ended).toBe(true);
  });
});

describe('terminal states', () => {
  const farewell = (transitions: string) => `
    id: terminal
    states:
      hello:
        agent: { tools: [save_name] }
        tools:
          save_name:
            parameters: { first_name: { type: string, required: true } }
        transitions:
          on_tool_call: { save_name: farewell }
      farewell:
        on_enter: [ { emit: farewell_shown } ]
        ui: { artifact_type: card, prompt: "Goodbye, {first_name}!" }
        agent: { prompt: "Say goodbye to {first_name}." }
        ${transitions}
  `;

  it.each([
    ['no transitions key', ''],
    ['transitions: {}', 'transitions: {}'],
    ['only empty maps', 'transitions: { on_tool_call: {}, on_ui_event: {}, on_action: {} }'],
  ])('ends the flow after the entry sequence of a state with %s', (_how, transitions) => {
    const { engine } = start(farewell(transitions));
    const out = call(engine, 'save_name', { first_name: 'Ana' });
    const types = out.map((m) => m.type);
    const state = only(out, 'flow_state');
    expect(state).toMatchObject({ state: 'farewell', terminal: true });
    expect(state.artifact?.text).toBe('Goodbye, Ana!');
    expect(state.agent.system_prompt).toContain('Say goodbye to Ana.');
    expect(only(out, 'analytics').event).toBe('farewell_shown');
    expect(only(out, 'flow_end')).toMatchObject({ last_state: 'farewell', variables: { first_name: 'Ana' } });
    expect(types.indexOf('analytics')).toBeLessThan(types.indexOf('flow_state'));
    expect(types.indexOf('flow_state')).toBeLessThan(types.indexOf('llm_turn'));
    expect(types.indexOf('llm_turn')).toBeLessThan(types.indexOf('flow_end'));
    expect(engine.view.ended).toBe(true);
    expect(engine.send(ui('anything'))).toEqual([]);
  });

  it('runs the Prepatu-dialect lobby_greeter.yaml from welcome to its terminal send_off', () => {
    const text = readFileSync(new URL('../fixtures/prepatu-dialect/lobby_greeter.yaml', import.meta.url), 'utf8');
    const engine = new FlowEngine(load(text), new VirtualClock());
    const entered = engine.start();
    expect(only(entered, 'flow_state').agent.system_prompt).toContain('You greet guests in a hotel lobby.');
    const out = call(engine, 'note_home_town', { home_town: 'Lisbon' });
    expect(only(out, 'flow_state').agent.system_prompt).toContain('Hope that the trip from Lisbon went well');
    expect(only(out, 'flow_end')).toMatchObject({ flow_id: 'lobby_greeter', last_state: 'send_off', variables: { home_town: 'Lisbon' } });
  });
});

describe('agent.response_constraint', () => {
  it('is passed in flow_state.agent.response_constraint of its state only', () => {
    const { engine, entered } = start(`
      id: constrained
      states:
        brief:
          agent:
            prompt: Answer in a few words.
            response_constraint: { max_tokens: 60, temperature: 0.2, stop_phrases: [goodbye, see you] }
          transitions: { on_ui_event: { next: free } }
        free:
          agent: { prompt: Talk freely. }
          transitions: { on_ui_event: { done: __end__ } }
    `);
    expect(only(entered, 'flow_state').agent.response_constraint).toEqual({ max_tokens: 60, temperature: 0.2, stop_phrases: ['goodbye', 'see you'] });
    const next = engine.send(ui('next'));
    expect(only(next, 'flow_state').agent.response_constraint).toBeUndefined();
  });
});

describe('guarded transitions', () => {
  const ages = `
    id: ages
    states:
      ask_age:
        agent: { tools: [save_age] }
        tools:
          save_age:
            parameters: { age: { type: integer, required: true } }
        transitions:
          on_tool_call:
            save_age:
              - { target: minor, guard: { all: [ { variable: age, operator: lt, value: 18 } ] } }
              - { target: senior, guard: { all: [ { variable: age, operator: gte, value: 65 } ] } }
      minor:
        transitions: {}
      senior:
        transitions: {}
  `;

  it('reports guard_failed when every guarded branch fails', () => {
    const { engine } = start(ages);
    const out = call(engine, 'save_age', { age: 30 });
    expect(only(out, 'transition_blocked')).toMatchObject({ from_state: 'ask_age', attempted_target: 'minor', reason: 'guard_failed' });
    expect(engine.view.state).toBe('ask_age');
    expect(engine.view.values['age']).toBe(30);
  });

  it('takes the first branch whose guard holds', () => {
    const { engine } = start(ages);
    const out = call(engine, 'save_age', { age: 70 });
    expect(ofType(out, 'transition_blocked')).toEqual([]);
    expect(engine.view.state).toBe('senior');
  });
});
