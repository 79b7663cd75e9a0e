// Replies the engine already knows, said without the model (issue 33): a state's own first words
// (`agent.say`, interpolated, in the visit's language; a fixed question, or a read-back of the
// confirmed values), whoever moved the flow there, and the model told what was said; after a
// time-out the model says it differently. `vfdl check` reads `say` like a prompt.

import { describe, expect, it } from 'vitest';
import { FlowEngine } from '../../src/engine/runtime/engine.ts';
import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import type { TurnChunk } from '../../src/ports/language-model.ts';
import { VirtualClock } from '../../src/ports/clock.ts';
import { ScriptedModel, setup } from '../support/conversation-harness.ts';

const text = (delta: string): TurnChunk => ({ type: 'text', delta });
const call = (id: string, name: string, args: unknown): TurnChunk => ({ type: 'tool_call', call: { id, name, arguments: JSON.stringify(args) } });

const CHECK_IN = `
id: check_in
language: en-US
languages: [en-US, de-DE]
variables:
  full_name: { type: string }
  date_of_birth: { type: date }
states:
  identify:
    ui:
      artifact_type: form
      fields:
        - { id: full_name, type: text, label: Your name }
        - { id: date_of_birth, type: date, label: Date of birth }
    agent:
      prompt: Ask for the visitor's name and date of birth.
      say: { en: "Welcome. What is your name, and your date of birth?", de: "Willkommen. Wie heißen Sie, und wann sind Sie geboren?" }
      tools: [save_identity]
    tools:
      save_identity:
        description: Capture the name and date of birth.
        parameters:
          full_name: { type: string, required: true }
          date_of_birth: { type: date, required: true }
    confirmation_gate:
      variables: [full_name, date_of_birth]
      on_confirm: summary
      confirm_phrases: [yes]
    transitions:
      on_timeout: { seconds: 60, target: identify, max_retries: 1, fallback: summary }
  summary:
    ui: { artifact_type: card, title: "Check in" }
    agent:
      prompt: Read back what the visitor gave and offer to check them in.
      say: { en: "You are {full_name}, born {date_of_birth}. Shall I check you in?", de: "Sie sind {full_name}, geboren am {date_of_birth}. Soll ich Sie anmelden?" }
      tools: [finish]
    tools:
      finish: { description: Check in. }
    transitions:
      on_tool_call: { finish: __end__ }
`;

const flow = () => loadFlow(CHECK_IN, 'check-in.yaml').loaded!;

describe("a state's own first words (agent.say)", () => {
  it('are a speech cue on entering, instead of a turn for the model', () => {
    const messages = new FlowEngine(flow(), new VirtualClock()).start();
    expect(messages.filter((m) => m.type === 'llm_turn')).toEqual([]);
    expect(messages.find((m) => m.type === 'speech_cue')).toEqual({ type: 'speech_cue', text: 'Welcome. What is your name, and your date of birth?', reason: 'entered' });
  });

  it("are said in the visit's language, with the values filled in as the visitor reads them (a read-back)", async () => {
    const model = new ScriptedModel([[call('c1', 'save_identity', { full_name: 'Maria Garcia', date_of_birth: '1984-03-05' })], [text('Of course.')]]);
    const { conversation, engine, log } = setup(model, flow());
    conversation.start();
    await conversation.settled();
    expect(model.requests).toHaveLength(0);
    expect(log.speech).toEqual(['Welcome. What is your name, and your date of birth?']);

    conversation.say("I'm Maria Garcia, born on the fifth of March 1984");
    await conversation.settled();
    // the model captured both; the gate's question is the engine's, said at once
    expect(model.requests).toHaveLength(1);
    expect(log.speech.at(-1)).toBe('I heard Maria Garcia and March 5, 1984. Is that right?');

    conversation.say('yes');
    await conversation.settled();
    // the flow's own confirm phrase moved it on; the summary reads the values back without the model
    expect(engine.view.state).toBe('summary');
    expect(model.requests).toHaveLength(1);
    expect(log.speech.at(-1)).toBe('You are Maria Garcia, born March 5, 1984. Shall I check you in?');

    conversation.say('can I also park here?');
    await conversation.settled();
    // the model finds what was said in its history: the conversation stays one
    const history = model.requests.at(-1)!.messages.map((m) => `${m.role}: ${'content' in m ? m.content : ''}`);
    expect(history.slice(-2)).toEqual(['assistant: You are Maria Garcia, born March 5, 1984. Shall I check you in?', 'user: can I also park here?']);
    expect(history).toContain('assistant: Welcome. What is your name, and your date of birth?');
    expect(history).toContain('assistant: I heard Maria Garcia and March 5, 1984. Is that right?');
  });

  it('are said when the model itself moved the flow on, and in German in a German visit', async () => {
    const german = flow().inLanguage('de-DE');
    const model = new ScriptedModel([
      [call('c1', 'save_identity', { full_name: 'Maria Huber', date_of_birth: '1984-03-05' })],
      [text('Danke!'), call('c2', 'confirm_identify', {})],
    ]);
    const { conversation, engine, log } = setup(model, german);
    conversation.start();
    await conversation.settled();
    conversation.say('Maria Huber, fünfter März 1984');
    await conversation.settled();
    conversation.say('Ja, genau so');
    await conversation.settled();
    expect(engine.view.state).toBe('summary');
    expect(log.speech.slice(-2)).toEqual(['Danke!', 'Sie sind Maria Huber, geboren am 5. März 1984. Soll ich Sie anmelden?']);
    expect(model.requests).toHaveLength(2);
  });

  it("leave the model its next round while the form still has a field to ask for, and the built-in assistant its own words", async () => {
    const model = new ScriptedModel([[call('c1', 'save_identity', { full_name: 'Maria Garcia', date_of_birth: '' })], [text('And your date of birth?')]]);
    const partial = loadFlow(CHECK_IN.replace('date_of_birth: { type: date, required: true }', 'date_of_birth: { type: date }'), 'check-in.yaml').loaded!;
    const { conversation, engine, log } = setup(model, partial);
    conversation.start();
    await conversation.settled();
    conversation.say("I'm Maria Garcia");
    await conversation.settled();
    expect(engine.view.pending).toEqual(['full_name']);
    expect(model.requests).toHaveLength(2);
    expect(log.speech.at(-1)).toBe('And your date of birth?');
  });

  it('are left to the model after a time-out, to say it differently', () => {
    const clock = new VirtualClock();
    const engine = new FlowEngine(flow(), clock);
    engine.start();
    clock.advance(61_000);
    const again = engine.tick();
    expect(again.some((m) => m.type === 'llm_turn' && m.reason === 'state_entered')).toBe(true);
    expect(again.some((m) => m.type === 'speech_cue' && m.reason === 'entered')).toBe(false);
  });

  it('are checked like a prompt: an unknown name is an error at its line', () => {
    const diagnostics = loadFlow(CHECK_IN.replace('born {date_of_birth}. Shall', 'born {birthday}. Shall'), 'check-in.yaml').diagnostics.map(formatDiagnostic);
    expect(diagnostics).toEqual([expect.stringMatching(/^check-in\.yaml:35:\d+: error: what "summary" says on entering refers to unknown variable "birthday"/)]);
  });
});
