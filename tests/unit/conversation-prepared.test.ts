// The early start in the conversation: a reply asked for at the visitor's pause is held (nothing
// shown, spoken or sent to the engine), given to the turn only when its request is the same in
// every part, and dropped when the visitor went on, said something else, or the flow moved.

import { describe, expect, it } from 'vitest';
import type { TurnChunk } from '../../src/ports/language-model.ts';
import { HeldReply, ScriptedModel, setup } from '../support/conversation-harness.ts';

const text = (delta: string): TurnChunk => ({ type: 'text', delta });
const call = (id: string, name: string, args: unknown): TurnChunk => ({ type: 'tool_call', call: { id, name, arguments: JSON.stringify(args) } });

/** A started conversation whose first turn is over, with `replies` scripted after the greeting. */
async function greeted(replies: ConstructorParameters<typeof ScriptedModel>[0]) {
  const model = new ScriptedModel([[text('Hi! What is your first name?')], ...replies]);
  const harness = setup(model);
  harness.conversation.start();
  await harness.conversation.settled();
  return { model, ...harness };
}

describe('a reply prepared at the pause', () => {
  it('is held, then taken by the turn with the same words: one request, said once', async () => {
    const held = new HeldReply([call('c1', 'save_name', { first_name: 'Alex' })], []);
    const { model, conversation, log, engine } = await greeted([held]);
    const before = { captions: log.captions.length, messages: log.messages.length, epoch: engine.view.epoch };

    conversation.prepare('Alex, please');
    await held.reached;
    // asked, and nothing of it shown or sent
    expect(model.requests).toHaveLength(2);
    expect(log.captions).toHaveLength(before.captions);
    expect(log.messages).toHaveLength(before.messages);
    expect(log.visitor).toEqual([]);

    conversation.say('Alex, please');
    held.release();
    await conversation.settled();
    // no second request for the visitor's words, nor a round after the tool's result: the gate asks its own question
    expect(model.requests).toHaveLength(2);
    expect(log.prepared).toEqual(['asked', 'taken']);
    expect(log.visitor).toEqual(['Alex, please']);
    expect(log.speech.at(-1)).toBe('I heard Alex. Is that right?');
    expect(engine.view.values['first_name']).toBe('Alex');
    expect(engine.view.pending).toContain('first_name');
  });

  it('is dropped when the turn turned out to have other words, and the model is asked afresh', async () => {
    const held = new HeldReply([text('Nice to meet you, Alex.')], []);
    const { model, conversation, log } = await greeted([held, [text('Nice to meet you, Alexandra.')]]);
    conversation.prepare('Alex, please');
    await held.reached;
    conversation.say('Alexandra, please');
    await conversation.settled();
    expect(model.requests).toHaveLength(3);
    expect(model.requests[1]!.signal!.aborted).toBe(true);
    expect(model.requests[2]!.messages.at(-1)).toEqual({ role: 'user', content: 'Alexandra, please' });
    expect(log.prepared).toEqual(['asked', 'dropped']);
    expect(log.speech).not.toContain('Nice to meet you, Alex.');
    expect(log.captions.some((c) => c.text.includes('Alex.'))).toBe(false);
  });

  it('is not asked for words a rule of the flow takes without the model', async () => {
    const { model, conversation, log, engine } = await greeted([[text('never asked')]]);
    conversation.prepare('My name is Alex');
    expect(model.requests).toHaveLength(1);
    expect(log.prepared).toEqual([]);
    expect(engine.view.values['first_name']).toBeUndefined(); // the look ahead changed nothing
    conversation.say('My name is Alex');
    await conversation.settled();
    expect(model.requests).toHaveLength(1);
    expect(engine.view.pending).toContain('first_name');
    expect(log.speech.at(-1)).toBe('I heard Alex. Is that right?');
  });

  it('is dropped when the visitor went on speaking', async () => {
    const held = new HeldReply([call('c1', 'save_name', { first_name: 'Al' })], []);
    const { model, conversation, log, engine } = await greeted([held]);
    conversation.prepare('Al');
    await held.reached;
    conversation.dropPrepared();
    expect(model.requests[1]!.signal!.aborted).toBe(true);
    await conversation.settled();
    expect(log.prepared).toEqual(['asked', 'dropped']);
    expect(engine.view.values['first_name']).toBeUndefined();
  });

  it('is dropped when a tap moved the flow on before the turn ended', async () => {
    const held = new HeldReply([text('Nice to meet you, Alex.')], []);
    const { model, conversation, log } = await greeted([held, [text('Pick a colour.')], [text('Noted.')]]);
    conversation.prepare('Alex');
    await held.reached;
    conversation.ui({ type: 'ui_event', event: 'form_submit', values: { first_name: 'Alex' } });
    await conversation.settled();
    conversation.say('Alex');
    await conversation.settled();
    expect(log.prepared).toEqual(['asked', 'dropped']);
    expect(model.requests.at(-1)!.messages[0]!.content).not.toBe(model.requests[1]!.messages[0]!.content);
    expect(log.speech).not.toContain('Nice to meet you, Alex.');
  });

  it('is not asked of the built-in assistant, which answers at once anyway', async () => {
    const { conversation, log } = await greeted([new Error('the model is down')]);
    conversation.say('Alex'); // falls back to the offline agent for the rest of the visit
    await conversation.settled();
    conversation.prepare('Blue');
    expect(log.prepared).toEqual([]);
  });
});
