// The conversation loop between the engine and a language model: turns, tool calls with epochs
// and results, the history the model sees, falling back to the offline agent, speech cues, the
// deadline timer, stopping, a turn cut short (barge-in, a tap that moves the flow on), and one
// caption per model round.

import { describe, expect, it } from 'vitest';
import { FlowEngine } from '../../src/engine/runtime/engine.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import { readFileSync } from 'node:fs';
import { VirtualClock } from '../../src/ports/clock.ts';
import { OfflineAgent } from '../../src/adapters/offline-agent/offline-agent.ts';
import { Conversation } from '../../src/voice/conversation.ts';
import type { EngineInput } from '../../src/engine/runtime/messages.ts';
import type { LanguageModel, TurnChunk, TurnRequest } from '../../src/ports/language-model.ts';
import { type Caption, HeldReply, ManualTimers, onboarding, ScriptedModel, setup } from '../support/conversation-harness.ts';

/** The names of the tool calls sent to `engine` from now on, in order. */
function recordToolCalls(engine: FlowEngine): string[] {
  const names: string[] = [];
  const send = engine.send.bind(engine);
  engine.send = (input: EngineInput | readonly EngineInput[]) => {
    for (const one of Array.isArray(input) ? input : [input]) if (one.type === 'tool_call') names.push(one.name);
    return send(input);
  };
  return names;
}

/** What a screen keeping one caption per reply id would show, oldest first. */
function shownCaptions(captions: readonly Caption[]): string[] {
  const shown = new Map<number, string>();
  for (const { reply, text } of captions) shown.set(reply, text);
  return [...shown.values()];
}

const text = (delta: string): TurnChunk => ({ type: 'text', delta });
const call = (id: string, name: string, args: unknown): TurnChunk => ({ type: 'tool_call', call: { id, name, arguments: JSON.stringify(args) } });

describe('Conversation', () => {
  it('asks the model for a turn at state entry with the state prompt and tools, and captions its words', async () => {
    const model = new ScriptedModel([[text('Hi! '), text('What is your first name?')]]);
    const { conversation, log } = setup(model);
    conversation.start();
    await conversation.settled();
    expect(model.requests).toHaveLength(1);
    const [req] = model.requests;
    expect(req!.messages[0]).toMatchObject({ role: 'system' });
    expect((req!.messages[0] as { content: string }).content).toContain('Ask the visitor for their first name');
    expect(req!.tools.map((t) => t.function.name)).toEqual(['save_name', 'confirm_first_name', 'reject_first_name', 'confirm_ask_name', 'reject_ask_name', 'set_language']);
    expect(req!.scene?.state.state).toBe('ask_name');
    expect(log.speech).toEqual(['Hi! What is your first name?']);
  });

  it("sends tool calls with the turn epoch, answers each in the history, and says the gate's question itself, not another round of the model", async () => {
    const model = new ScriptedModel([
      [text('Hello!')],
      [call('c1', 'save_name', { first_name: 'Alex' })],
      [text('Take your time.')],
    ]);
    const { conversation, engine, log } = setup(model);
    conversation.start();
    await conversation.settled();
    conversation.say('Hello, I would like to sign up, I am Alex Smith');
    await conversation.settled();
    expect(engine.view.pending).toEqual(['first_name']);
    // The engine knows the question: said at once, and the model asked nothing more for this turn.
    expect(log.speech.at(-1)).toBe('I heard Alex. Is that right?');
    expect(model.requests).toHaveLength(2);
    // The model finds all of it in its history at the visitor's next words.
    conversation.say('hmm, let me think');
    await conversation.settled();
    const third = model.requests[2]!.messages;
    const assistant = third.at(-4) as { role: string; tool_calls?: { id: string }[] };
    expect(assistant.role).toBe('assistant');
    expect(assistant.tool_calls?.[0]?.id).toBe('c1');
    expect(third.at(-3)).toMatchObject({ role: 'tool', tool_call_id: 'c1' });
    expect(JSON.parse((third.at(-3) as { content: string }).content)).toMatchObject({ ok: true, captured: { first_name: 'Alex' } });
    expect(third.slice(-2)).toEqual([
      { role: 'assistant', content: 'I heard Alex. Is that right?' },
      { role: 'user', content: 'hmm, let me think' },
    ]);
    expect(log.visitor).toEqual(['Hello, I would like to sign up, I am Alex Smith', 'hmm, let me think']);
  });

  it('lets the model ask its own question when it captured a value and asked one (no second question)', async () => {
    const model = new ScriptedModel([[text('Hello!')], [text('Alex, is that your name?'), call('c1', 'save_name', { first_name: 'Alex' })]]);
    const { conversation, log } = setup(model);
    conversation.start();
    await conversation.settled();
    conversation.say('Alex');
    await conversation.settled();
    expect(log.speech.slice(-1)).toEqual(['Alex, is that your name?']);
    expect(model.requests).toHaveLength(2);
  });

  it('stops a turn when its tool moves the flow, and the next state starts a fresh turn with its own prompt', async () => {
    const model = new ScriptedModel([
      [text('Hello!')],
      [call('c1', 'save_name', { first_name: 'Alex' })],
      [call('c2', 'confirm_first_name', {}), call('c3', 'save_name', { first_name: 'Al' })],
      [text('Pick a colour!')],
    ]);
    const { conversation, engine, log } = setup(model);
    conversation.start();
    await conversation.settled();
    conversation.say('Alex');
    await conversation.settled();
    conversation.say('yes');
    await conversation.settled();
    expect(engine.view.state).toBe('choose_color');
    const last = model.requests.at(-1)!;
    expect((last.messages[0] as { content: string }).content).toContain('pick a colour');
    expect(last.tools.map((t) => t.function.name)).toEqual(['save_color', 'go_back', 'set_language']);
    // The call after the transition was answered as stale, so the history stays well formed.
    const results = last.messages.filter((m) => m.role === 'tool').map((m) => JSON.parse((m as { content: string }).content));
    expect(results.at(-1)).toMatchObject({ ok: false, error: 'stale' });
    expect(log.messages.filter((m) => m.type === 'tool_rejected').map((m) => (m as { reason: string }).reason)).toEqual(['stale']);
    expect(log.speech.at(-1)).toBe('Pick a colour!');
  });

  it('falls back to the offline agent when the model fails, and says so', async () => {
    const model = new ScriptedModel([new Error('network down')]);
    const { conversation, log } = setup(model);
    conversation.start();
    await conversation.settled();
    expect(log.notices[0]).toBe('The online assistant is not answering. The kiosk carries on with its built-in assistant. [network down]');
    expect(log.speech).toHaveLength(1);
    expect(log.speech[0]).toMatch(/first name/i);
    expect(conversation.modelName).toBe('offline');
  });

  it('speaks the engine cue when an utterance rule handled the turn without the model', async () => {
    const model = new ScriptedModel([[text('Hello!')]]);
    const { conversation, log, engine } = setup(model);
    conversation.start();
    await conversation.settled();
    conversation.say('My name is Sam');
    await conversation.settled();
    expect(model.requests).toHaveLength(1);
    expect(engine.view.pending).toEqual(['first_name']);
    expect(log.speech.at(-1)).toBe('I heard Sam. Is that right?');
  });

  it('wakes the engine when the state timeout falls due', async () => {
    const model = new ScriptedModel([[text('Hello!')], [text('Are you there?')]]);
    const { conversation, timers, clock, engine, log } = setup(model);
    conversation.start();
    await conversation.settled();
    expect(timers.live).toHaveLength(1);
    expect(timers.live[0]!.delay).toBe(60_000);
    clock.advance(60_000);
    timers.live[0]!.fn();
    await conversation.settled();
    expect(engine.view.epoch).toBe(2);
    const retryNote = log.messages.find((m) => m.type === 'system_message');
    expect(retryNote).toBeDefined();
    expect(model.requests.at(-1)!.messages.some((m) => m.role === 'system' && m.content.includes('retry 1'))).toBe(true);
  });

  it('after stop, sends nothing more to the engine and cancels its timer', async () => {
    const model = new ScriptedModel([[text('Hello!')]]);
    const { conversation, timers, engine } = setup(model);
    conversation.start();
    await conversation.settled();
    conversation.stop();
    conversation.say('My name is Sam');
    conversation.ui({ type: 'ui_event', event: 'form_submit', values: { first_name: 'Sam' } });
    expect(engine.view.state).toBe('ask_name');
    expect(engine.view.values).toEqual({});
    expect(timers.live).toHaveLength(0);
  });

  it('a newer turn aborts the one still streaming (barge-in)', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let streaming!: () => void;
    const started = new Promise<void>((r) => (streaming = r));
    const signals: AbortSignal[] = [];
    const model: LanguageModel = {
      name: 'slow',
      async *generate(request) {
        signals.push(request.signal!);
        if (signals.length === 1) {
          yield text('Hello and wel');
          streaming();
          await held;
          if (request.signal?.aborted) throw new DOMException('aborted', 'AbortError');
          yield text('come');
          return;
        }
        yield text('Sure.');
      },
    };
    const { conversation, log } = setup(model);
    conversation.start();
    await started;
    expect(signals).toHaveLength(1);
    conversation.say('Hi');
    expect(signals[0]!.aborted).toBe(true);
    release();
    await conversation.settled();
    expect(signals).toHaveLength(2);
    expect(signals[1]!.aborted).toBe(false);
    expect(log.speech).toEqual(['Sure.']);
  });

  it('tells the agent where the step starts, so a step entered by a confirm phrase is asked anew', async () => {
    const visitor = loadFlow(readFileSync(new URL('../../flows/visitor-signin.yaml', import.meta.url), 'utf8'), 'visitor.yaml').loaded!;
    const clock = new VirtualClock(0);
    const engine = new FlowEngine(visitor, clock);
    const speech: string[] = [];
    const agent = new OfflineAgent();
    const conversation = new Conversation(engine, agent, agent, clock, new ManualTimers(), {
      engine: () => undefined,
      agentSpeech: (_t, text, final) => final && speech.push(text),
      visitorSpeech: () => undefined,
      notice: () => undefined,
      busy: () => undefined,
    });
    conversation.start();
    await conversation.settled();
    conversation.say('My name is Jordan Lee');
    await conversation.settled();
    conversation.say('jordan.lee@example.org');
    await conversation.settled();
    expect(engine.view.pending).toEqual(['full_name', 'email']);
    conversation.say("Yes, that's right!");
    await conversation.settled();
    expect(engine.view.state).toBe('host');
    expect(speech.at(-1)).toMatch(/visiting/i);
  });

  it('a turn that fails unexpectedly says sorry and does not stop the turns after it', async () => {
    const model = new ScriptedModel([[text('Hello!')], [call('c1', 'save_name', { first_name: 'Alex' })], [text('Got it.')], [text('Still here.')]]);
    const { conversation, engine, log } = setup(model);
    conversation.start();
    await conversation.settled();
    const send = engine.send.bind(engine);
    let broken = true;
    engine.send = (input) => {
      if (broken && !Array.isArray(input) && (input as { type: string }).type === 'tool_call') {
        broken = false;
        throw new Error('engine fault');
      }
      return send(input);
    };
    conversation.say('Alex');
    await conversation.settled();
    expect(log.notices.at(-1)).toMatch(/engine fault/);
    expect(log.speech.at(-1)).toMatch(/Sorry/);
    conversation.say('Are you there?');
    await conversation.settled();
    expect(log.speech.at(-1)).toBe('Got it.');
  });

  it('an assistant-mode flow keeps talking after its end, with no tools; a kiosk-mode one does not', async () => {
    const source = readFileSync(new URL('../../flows/onboarding.yaml', import.meta.url), 'utf8');
    for (const mode of ['assistant', 'kiosk'] as const) {
      const flow = loadFlow(source.replace('mode: kiosk', `mode: ${mode}`), 'onboarding.yaml').loaded!;
      const model = new ScriptedModel([[text('Hello!')], [text('Bye!')], [text('You are welcome.')]]);
      const clock = new VirtualClock(0);
      const engine = new FlowEngine(flow, clock);
      const conversation = new Conversation(engine, model, new OfflineAgent(), clock, new ManualTimers(), {
        engine: () => undefined,
        agentSpeech: () => undefined,
        visitorSpeech: () => undefined,
        notice: () => undefined,
        busy: () => undefined,
      });
      conversation.start();
      conversation.ui({ type: 'ui_event', event: 'form_submit', values: { first_name: 'Alex' } });
      conversation.ui({ type: 'ui_event', event: 'option_select', value: 'red' });
      await conversation.settled();
      expect(engine.view.ended).toBe(true);
      const asked = model.requests.length;
      conversation.say('Thanks!');
      await conversation.settled();
      if (mode === 'kiosk') {
        expect(model.requests).toHaveLength(asked);
      } else {
        expect(model.requests).toHaveLength(asked + 1);
        expect(model.requests.at(-1)!.tools).toEqual([]);
        expect(model.requests.at(-1)!.messages.at(-1)).toEqual({ role: 'user', content: 'Thanks!' });
      }
    }
  });
});


describe('Conversation: a turn cut short, and one caption per model round', () => {
  it('interrupt() aborts the turn in flight: its unsaid words and tool calls are dropped, the engine is not told, the next turn runs', async () => {
    const held = new HeldReply([text('Hello! What is')], [text(' your first name?'), call('c1', 'save_name', { first_name: 'Alex' })]);
    const model = new ScriptedModel([held, [text('Go ahead.')]]);
    const { conversation, engine, log } = setup(model);
    const toolCalls = recordToolCalls(engine);
    conversation.start();
    await held.reached;
    expect(log.captions).toEqual([{ reply: expect.any(Number), text: 'Hello! What is', final: false }]);
    const cut = log.captions[0]!.reply;
    const told = log.messages.length;
    const { state, epoch } = engine.view;

    conversation.interrupt();
    expect(model.requests[0]!.signal?.aborted).toBe(true);
    held.release();
    await conversation.settled();

    expect(log.captions.filter((c) => c.reply === cut)).toHaveLength(1);
    expect(log.speech).toEqual([]);
    expect(toolCalls).toEqual([]);
    expect(log.messages).toHaveLength(told);
    expect(engine.view).toMatchObject({ state, epoch, values: {}, pending: [] });
    expect(log.busy.at(-1)).toBe(false);

    conversation.say('Sorry, go on');
    await conversation.settled();
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]!.signal?.aborted).toBe(false);
    expect(JSON.stringify(model.requests[1]!.messages)).not.toContain('your first name?');
    expect(log.speech).toEqual(['Go ahead.']);
  });

  it('a tap that moves the flow on aborts the turn in flight, and the new state’s own turn runs', async () => {
    const held = new HeldReply([text('Hello! What is')], [text(' your first name?'), call('c1', 'save_name', { first_name: 'Sam' })]);
    const model = new ScriptedModel([held, [text('Pick a colour, Alex!')]]);
    const { conversation, engine, log } = setup(model);
    const toolCalls = recordToolCalls(engine);
    conversation.start();
    await held.reached;
    const cut = log.captions[0]!.reply;

    conversation.ui({ type: 'ui_event', event: 'form_submit', values: { first_name: 'Alex' } });
    expect(engine.view.state).toBe('choose_color');
    expect(model.requests[0]!.signal?.aborted).toBe(true);
    held.release();
    await conversation.settled();

    expect(log.captions.filter((c) => c.reply === cut)).toHaveLength(1);
    expect(toolCalls).toEqual([]);
    expect(engine.view.values).toEqual({ first_name: 'Alex' });
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]!.signal?.aborted).toBe(false);
    expect(model.requests[1]!.tools.map((t) => t.function.name)).toEqual(['save_color', 'go_back', 'set_language']);
    expect(log.speech).toEqual(['Pick a colour, Alex!']);
  });

  it('a tap that ends the flow aborts the turn in flight, and its later tool call never reaches the engine', async () => {
    const held = new HeldReply([text('Which colour, Al')], [text('ex?'), call('c2', 'save_color', { color: 'blue' })]);
    const model = new ScriptedModel([[text('Hello!')], held]);
    const { conversation, engine, log } = setup(model);
    conversation.start();
    await conversation.settled();
    conversation.ui({ type: 'ui_event', event: 'form_submit', values: { first_name: 'Alex' } });
    await held.reached;
    const toolCalls = recordToolCalls(engine);
    const cut = log.captions.at(-1)!.reply;

    conversation.ui({ type: 'ui_event', event: 'option_select', value: 'red' });
    expect(engine.view.ended).toBe(true);
    expect(model.requests[1]!.signal?.aborted).toBe(true);
    held.release();
    await conversation.settled();

    expect(log.captions.filter((c) => c.reply === cut)).toEqual([{ reply: cut, text: 'Which colour, Al', final: false }]);
    expect(toolCalls).toEqual([]);
    expect(log.messages.some((m) => m.type === 'tool_rejected' || m.type === 'tool_result')).toBe(false);
    expect(engine.view.values).toEqual({ first_name: 'Alex', color: 'red' });
    expect(log.busy.at(-1)).toBe(false);
  });

  it('a state change from the model’s own tool call does not abort the next state’s turn', async () => {
    const entry = new HeldReply([text('Pick a colour')], [text(', Alex!'), call('c3', 'save_color', { color: 'green' })]);
    const model = new ScriptedModel([
      [text('Hello!')],
      [call('c1', 'save_name', { first_name: 'Alex' })],
      [call('c2', 'confirm_first_name', {})],
      entry,
    ]);
    const { conversation, engine, log } = setup(model);
    conversation.start();
    await conversation.settled();
    conversation.say('Alex');
    await conversation.settled();
    const toolCalls = recordToolCalls(engine);

    conversation.say('yes');
    await entry.reached;
    expect(engine.view.state).toBe('choose_color');
    const turn = model.requests.at(-1)!;
    expect(turn.tools.map((t) => t.function.name)).toEqual(['save_color', 'go_back', 'set_language']);
    expect(turn.signal?.aborted).toBe(false);
    entry.release();
    await conversation.settled();

    expect(toolCalls).toEqual(['confirm_first_name', 'save_color']);
    expect(engine.view.ended).toBe(true);
    expect(engine.view.values).toEqual({ first_name: 'Alex', color: 'green' });
    expect(log.speech.at(-1)).toBe('Pick a colour, Alex!');
  });

  it('gives each reply its own id, so the gate’s question after a round does not replace that round’s caption', async () => {
    const model = new ScriptedModel([
      [text('Hello!')],
      [text('Nice to meet you.'), call('c1', 'save_name', { first_name: 'Alex' })],
    ]);
    const { conversation, log } = setup(model);
    conversation.start();
    await conversation.settled();
    const before = log.captions.length;
    conversation.say('I am here to sign up');
    await conversation.settled();

    const turn = log.captions.slice(before);
    const replies = [...new Set(turn.map((c) => c.reply))];
    expect(replies).toHaveLength(2);
    expect(replies).not.toContain(log.captions[0]!.reply);
    expect(turn.filter((c) => c.reply === replies[0])).toEqual([
      { reply: replies[0], text: 'Nice to meet you.', final: false },
      { reply: replies[0], text: 'Nice to meet you.', final: true },
    ]);
    expect(turn.filter((c) => c.reply === replies[1]).map((c) => [c.text, c.final])).toEqual([['I heard Alex. Is that right?', true]]);
    expect(shownCaptions(log.captions)).toEqual(['Hello!', 'Nice to meet you.', 'I heard Alex. Is that right?']);
  });
});

describe('an action that did not go through', () => {
  const booking = loadFlow(`
id: booking
states:
  offer:
    ui: { artifact_type: card, title: Book, actions: [ { event: book, label: Book, tool: book } ] }
    agent: { prompt: Offer to book., tools: [book] }
    tools:
      book:
        description: Book it.
        confirm: true
        summary: Book a visit
        http: { method: POST, url: "https://clinic.example/bookings" }
    transitions:
      on_tool_call: { book: booked }
      on_action_failed: { book: desk }
  booked: { agent: { prompt: Say it is booked. } }
  desk: { agent: { prompt: Send them to the desk. } }
`).loaded!;

  it('is said in a plain sentence even when the next state\'s turn follows, and the model gets the reason', async () => {
    const model = new ScriptedModel([[text('Shall I book?')], [text('Please see the desk.')]]);
    const { conversation, log } = setup(model, booking);
    conversation.start();
    await conversation.settled();
    conversation.ui({ type: 'ui_event', event: 'book' });
    conversation.ui({ type: 'ui_event', event: 'confirm_action' });
    const run = log.messages.find((m) => m.type === 'action_run')!;
    expect(run).toMatchObject({ type: 'action_run', method: 'POST' });
    conversation.actionDone({ type: 'action_done', action_id: (run as { action_id: string }).action_id, ok: false, error: 'http: the service answered 503' });
    await conversation.settled();
    expect(log.speech.slice(-2)).toEqual(['Sorry, that did not go through. Nothing was done.', 'Please see the desk.']);
    const told = model.requests[1]!.messages.filter((m) => m.role === 'system').map((m) => String(m.content));
    expect(told.some((t) => t.includes('http: the service answered 503') && t.includes('never tell the visitor it was'))).toBe(true);
  });
});

describe('the visitor chooses another language on screen', () => {
  const frontDesk = loadFlow(readFileSync(new URL('../fixtures/languages/front-desk.yaml', import.meta.url), 'utf8')).loaded!;

  it('shows the step again in it with the value waiting for its yes, keeps the history, tells the model and lets it speak', async () => {
    const model = new ScriptedModel([
      [text("What's your first name?")],
      [call('c1', 'save_name', { first_name: 'Ana' })],
      [text('He entendido Ana. ¿Es correcto?')],
    ]);
    const { conversation, engine, log } = setup(model, frontDesk);
    conversation.start();
    await conversation.settled();
    conversation.say('Ana');
    await conversation.settled();
    log.messages.length = 0;

    expect(conversation.setLanguage('es-ES')).toBe(true);
    await conversation.settled();

    const shown = log.messages.find((m) => m.type === 'flow_state');
    expect(shown).toMatchObject({ type: 'flow_state', state: 'ask_name', language: 'es-ES' });
    expect(engine.view.pending).toEqual(['first_name']);
    expect(engine.loaded.flow.language).toBe('es-ES');
    const asked = model.requests.at(-1)!;
    expect(asked.messages.some((m) => m.role === 'user' && m.content === 'Ana')).toBe(true);
    expect(asked.messages.at(-1)).toMatchObject({ role: 'system', content: expect.stringContaining('The visitor chose Spanish on the screen') });
    expect((asked.messages[0] as { content: string }).content).toContain('Spanish');
    expect(log.speech.at(-1)).toBe('He entendido Ana. ¿Es correcto?');
    // The same language again changes nothing, and asks the model nothing.
    expect(conversation.setLanguage('es-ES')).toBe(false);
    expect(model.requests).toHaveLength(3);
  });

  it("says its own sentences in the visit's language", async () => {
    const failing: LanguageModel = { name: 'down', generate: () => { throw new Error('down'); } };
    const { conversation, log } = setup(failing, frontDesk.inLanguage('de-DE'));
    conversation.start();
    await conversation.settled();
    expect(log.notices).toEqual(['Der Online-Assistent antwortet nicht. Das Terminal macht mit seinem eingebauten Assistenten weiter. [down]']);
  });
});
