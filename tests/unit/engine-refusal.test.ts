// "No" means no (seed 004: never confirm for the visitor): when the visitor's last turn is a
// plain refusal, the LLM's confirm_<variable>, confirm_<state> and confirm_action are refused
// (`user_refused`), with or without the flow's own reject_phrases. What counts as a plain refusal
// is one rule (engine/runtime/yes-no.ts), shared with the offline assistant.

import { describe, expect, it } from 'vitest';
import { isRefusal } from '../../src/engine/runtime/yes-no.ts';
import { only, ofType, startFlow } from '../support/engine-harness.ts';

describe('a plain refusal', () => {
  it.each([
    'no', 'No.', 'nope', 'Nah', "that's wrong", 'That’s not right', 'not my name', "That's not my name!", 'um, no',
    'No, it is Alice', 'no, no', 'nope, wrong', "it's not", 'wrong', 'No. My name is Alex.', 'cancel',
  ])('%j is one', (text) => {
    expect(isRefusal(text, 'en-US')).toBe(true);
  });

  it.each([
    'no problem, yes', 'No worries, that is right', 'Nolan', 'Nobody', 'not sure', 'yes', 'yes, no changes', 'no, yes it is',
    "no, that's right", 'no no, that is correct', "that's not a problem", 'I know', 'Nolan Smith', '', 'maybe',
  ])('%j is not', (text) => {
    expect(isRefusal(text, 'en-US')).toBe(false);
  });

  it.each<[string, string, boolean]>([
    ['nein', 'de-DE', true],
    ['Nein, das stimmt nicht', 'de', true],
    ['ja', 'de', false],
    ['kein Problem', 'de', false],
    ['non', 'fr-FR', true],
    ["c'est faux", 'fr', true],
    ['oui', 'fr', false],
    ['no', 'es-ES', true],
    ['no hay problema', 'es', false],
    ['Sí', 'es', false],
  ])('%j in %s: %s', (text, language, refusal) => {
    expect(isRefusal(text, language)).toBe(refusal);
  });

  it('is never heard in a language the engine has no words for', () => {
    expect(isRefusal('no', 'it-IT')).toBe(false);
    expect(isRefusal('nej', 'sv')).toBe(false);
  });
});

const GATED = (language = 'en-US') => `
id: refusal
language: ${language}
tools:
  save_name: { parameters: { first_name: { type: string, required: true } } }
states:
  ask:
    ui: { artifact_type: form, fields: [ { id: first_name, type: text, label: Name } ], actions: [ { event: help, label: Help } ] }
    agent: { prompt: Ask the name., tools: [save_name] }
    confirmation_gate: { variables: [first_name], on_confirm: done }
  done:
    agent: { prompt: Done. }
    transitions: { on_ui_event: { finish: __end__ } }
`;

describe('the LLM confirming a value the visitor has just refused', () => {
  it('is refused as user_refused, the value stays pending, and the model is told to ask what is wrong', () => {
    const h = startFlow(GATED());
    h.call('save_name', { first_name: 'Alec' });
    h.say("No, that's wrong");
    const out = h.call('confirm_first_name');
    const rejected = only(out, 'tool_rejected');
    expect(rejected.reason).toBe('user_refused');
    expect(rejected.detail).toContain('Ask what is wrong and what the right value is');
    expect(only(out, 'tool_result')).toMatchObject({ ok: false, content: { error: 'user_refused' } });
    expect(only(out, 'system_message').text).toContain('must not be confirmed');
    expect(h.engine.view).toMatchObject({ state: 'ask', gate: { first_name: 'pending' } });
  });

  it('the state-wide confirm_<state> too', () => {
    const h = startFlow(GATED());
    h.call('save_name', { first_name: 'Alec' });
    h.say('not my name');
    expect(only(h.call('confirm_ask'), 'tool_rejected').reason).toBe('user_refused');
  });

  it('a yes afterwards lets the model confirm', () => {
    const h = startFlow(GATED());
    h.call('save_name', { first_name: 'Alec' });
    h.say('nope');
    h.call('confirm_first_name');
    h.say('sorry, yes, that is right');
    expect(ofType(h.call('confirm_first_name'), 'tool_rejected')).toEqual([]);
    expect(h.engine.view.state).toBe('done');
  });

  it('"no problem, yes" is not a refusal', () => {
    const h = startFlow(GATED());
    h.call('save_name', { first_name: 'Nolan' });
    h.say('no problem, yes');
    expect(ofType(h.call('confirm_first_name'), 'tool_rejected')).toEqual([]);
    expect(h.engine.view.values).toEqual({ first_name: 'Nolan' });
  });

  it('a tap after the refusal is the visitor’s last turn', () => {
    const h = startFlow(GATED());
    h.call('save_name', { first_name: 'Alec' });
    h.say('no');
    h.ui('help');
    expect(ofType(h.call('confirm_first_name'), 'tool_rejected')).toEqual([]);
  });

  it('the visitor’s own tap on Confirm still confirms after a spoken no', () => {
    const h = startFlow(GATED());
    h.call('save_name', { first_name: 'Alec' });
    h.say('no');
    h.ui('confirm_variable', { variable: 'first_name' });
    expect(h.engine.view.state).toBe('done');
  });

  it('in the flow’s language: "nein" in a German flow', () => {
    const h = startFlow(GATED('de-DE'));
    h.call('save_name', { first_name: 'Alec' });
    h.say('Nein');
    expect(only(h.call('confirm_first_name'), 'tool_rejected').reason).toBe('user_refused');
  });
});

const ACTION = `
id: refusal_action
states:
  book:
    ui: { artifact_type: card, title: Book }
    agent: { prompt: Book., tools: [book_slot] }
    tools:
      book_slot:
        confirm: true
        summary: "Book {time}"
        parameters: { time: { type: string, required: true } }
    transitions: { on_tool_call: { book_slot: booked } }
  booked: { agent: { prompt: Booked. }, transitions: { on_ui_event: { finish: __end__ } } }
`;

describe('the LLM confirming an action the visitor has just refused', () => {
  it('is refused as user_refused; nothing runs, the action stays pending, and reject_action still works', () => {
    const h = startFlow(ACTION);
    h.call('book_slot', { time: '10:00' });
    h.say("no, that's not right");
    const out = h.call('confirm_action');
    const rejected = only(out, 'tool_rejected');
    expect(rejected).toMatchObject({ reason: 'user_refused', tool: 'confirm_action' });
    expect(rejected.detail).toContain('Ask what they would like to change');
    expect(ofType(out, 'action_result')).toEqual([]);
    expect(h.engine.view.pendingAction).toMatchObject({ tool: 'book_slot' });
    expect(only(h.call('reject_action'), 'action_result').status).toBe('rejected');
  });

  it('goes ahead after a yes', () => {
    const h = startFlow(ACTION);
    h.call('book_slot', { time: '10:00' });
    h.say('no');
    h.say('yes, book it');
    expect(only(h.call('confirm_action'), 'action_result').status).toBe('done');
  });
});
