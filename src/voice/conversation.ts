// The conversation loop: the engine decides, this performs. It keeps the LLM's history (system
// prompt replaced at every state entry, `reset` clears the turns), runs one model turn per
// `llm_turn` with its own AbortController, sends the model's tool calls to the engine with the
// turn's epoch, answers every call with its result, falls back to the offline agent when the
// model fails, speaks the engine's cue when the model says nothing, and wakes the engine when a
// deadline falls due. What the engine already knows word for word is said at once, never asked
// of the model: a state's own first words (`agent.say`), and the gate's question after the model
// captured a value (instead of another round); the model finds them in its history as said.
// No DOM: the kiosk screen and the tests drive it alike.

import type { FlowEngine } from '../engine/runtime/engine.ts';
import type { ActionDoneInput, EngineMessage, FlowStateMessage, ToolSpec, UiEventInput } from '../engine/runtime/messages.ts';
import { kioskSentence, type KioskSentence } from '../engine/runtime/kiosk-sentences.ts';
import { languageName } from '../engine/language/localize.ts';
import type { Clock } from '../ports/clock.ts';
import type { ChatMessage, LanguageModel, SceneHint, ToolCallRequest, TurnChunk, TurnRequest } from '../ports/language-model.ts';
import type { Timers } from '../ports/timers.ts';
import type { ConversationContext, ConversationEvents, ConversationOptions } from './conversation-events.ts';
import { questionAfterCapture } from './known-replies.ts';
import { PreparedReply, requestKey } from './prepared-reply.ts';
import { formInputs } from './screen-requests.ts';

export type { ConversationContext, ConversationEvents, ConversationOptions } from './conversation-events.ts';

type FormValue = Extract<TurnChunk, { type: 'form_value' }>;

export class Conversation {
  private history: ChatMessage[] = [];
  private systemPrompt = '';
  private tools: readonly ToolSpec[] = [];
  private scene: FlowStateMessage | null = null;
  /** index in `history` where the current step began */
  private stepStart = 0;
  private turn: AbortController | null = null;
  private turnSeq = 0;
  private running: Promise<void> = Promise.resolve();
  private cue: string | null = null;
  private model: LanguageModel;
  private cancelTick: (() => void) | null = null;
  private stopped = false;
  /** the reply asked for at the visitor's pause, held until their turn is over */
  private prepared: PreparedReply | null = null;

  constructor(
    private readonly engine: FlowEngine,
    model: LanguageModel,
    private readonly fallback: LanguageModel,
    private readonly clock: Clock,
    private readonly timers: Timers,
    private readonly events: ConversationEvents,
    private readonly options: ConversationOptions = {},
  ) {
    this.model = model;
  }

  /** Enters the flow's first state. */
  start(): void {
    this.handle(this.engine.start());
  }

  /**
   * Takes up a kept visit: `messages` (from FlowEngine.restore) show the state again and re-arm
   * its timers, `context` is the model's history as it was. No model turn starts: the visitor
   * speaks or taps next.
   */
  resume(messages: readonly EngineMessage[], context: ConversationContext | null): void {
    this.handle(messages);
    if (!context) return;
    this.history = [...context.history];
    this.stepStart = Math.min(context.stepStart, this.history.length);
  }

  /** The model's history so far, as plain data (for keeping the visit). */
  context(): ConversationContext {
    return { history: [...this.history], stepStart: this.stepStart };
  }

  /** A final transcript, or text the visitor typed. */
  say(text: string): void {
    const clean = text.trim();
    if (!clean || this.stopped) return;
    this.events.visitorSpeech(clean);
    this.history.push({ role: 'user', content: clean });
    if (this.engine.view.ended) {
      // An assistant-mode flow stays a plain assistant after its end: no tools, just talk.
      if (this.engine.loaded.flow.mode !== 'assistant') return this.dropPrepared();
      this.tools = [];
      this.systemPrompt = [this.engine.loaded.flow.basePrompt.trim(), 'The task is complete. Answer briefly; there is nothing more to fill in.']
        .filter(Boolean)
        .join('\n\n');
      this.beginTurn();
      return;
    }
    this.handle(this.engine.send({ type: 'utterance', text: clean }));
  }

  /**
   * The visitor paused and `text` may be their whole turn: the model is asked now for the reply
   * it would give if `say(text)` came with nothing else changed. The reply is held; the turn takes
   * it only when its request is the same in every part, and `dropPrepared` or any other request
   * throws it away. Only for a model on the network (the built-in assistant answers at once).
   */
  prepare(text: string): void {
    this.dropPrepared();
    const clean = text.trim();
    if (!clean || this.stopped || this.engine.view.ended || this.model === this.fallback) return;
    // Only words that would go to the model as they stand: none a rule of the flow takes, none that move it on.
    const preview = this.engine.preview({ type: 'utterance', text: clean });
    if (!preview?.some((m) => m.type === 'llm_turn') || preview.some((m) => m.type !== 'llm_turn')) return;
    this.prepared = new PreparedReply(this.model, this.request([...this.history, { role: 'user', content: clean }]));
    this.events.prepared?.('asked');
  }

  /** The visitor went on speaking: the prepared reply is of no use. */
  dropPrepared(): void {
    if (!this.prepared) return;
    this.prepared.drop();
    this.prepared = null;
    this.events.prepared?.('dropped');
  }

  /** A tap or a form submit. */
  ui(event: UiEventInput): void {
    if (this.stopped) return;
    this.handle(this.engine.send(event));
  }

  /**
   * The visitor chose another of the flow's languages on screen. The engine shows the step again
   * in it (values, pending confirmations and the pending action kept); the model keeps the
   * conversation so far, is told of the choice, and takes a turn to go on in the new language.
   * False when nothing changed (the same language, or the visit is over).
   */
  setLanguage(language: string): boolean {
    if (this.stopped) return false;
    const messages = this.engine.setLanguage(language);
    const shown = messages.find((m): m is FlowStateMessage => m.type === 'flow_state');
    if (!shown) return false;
    this.turn?.abort();
    this.dropPrepared();
    this.scene = shown;
    this.systemPrompt = shown.agent.system_prompt;
    this.tools = shown.agent.tools;
    const name = languageName(shown.language);
    this.history.push({ role: 'system', content: `[kiosk] The visitor chose ${name} on the screen. From now on speak ${name} only; say again, in ${name}, what this step still needs.` });
    // The step is taken up afresh in the new language (the offline assistant asks its question again).
    this.stepStart = this.history.length;
    this.events.engine(messages);
    this.beginTurn();
    return true;
  }

  /** The runtime's answer to one of the engine's `action_run`s. */
  actionDone(done: ActionDoneInput): void {
    if (this.stopped) return;
    this.handle(this.engine.send(done));
  }

  /** Stops everything: the running turn, the timer. Nothing is sent to the engine afterwards. */
  stop(): void {
    this.stopped = true;
    this.dropPrepared();
    this.turn?.abort();
    this.cancelTick?.();
    this.cancelTick = null;
  }

  /**
   * The visitor spoke over the kiosk: the model turn in flight is aborted, and what it had not
   * yet said is dropped. The engine is not told; the visitor's words will be.
   */
  interrupt(): void {
    this.turn?.abort();
  }

  /** Resolves when no model turn is running (for tests and orderly shutdown). */
  async settled(): Promise<void> {
    let current: Promise<void>;
    do {
      current = this.running;
      await current;
    } while (current !== this.running);
  }

  get modelName(): string {
    return this.model.name;
  }

  private handle(messages: readonly EngineMessage[], inTurn = false): void {
    let wantsTurn = false;
    let cue: string | null = null;
    /** a state's own first words, said as soon as it is entered, whoever moved the flow there */
    let entered: string | null = null;
    /** an action that did not go through is always said, even when the model speaks next */
    let failure: string | null = null;
    for (const m of messages) {
      // A tap that moves the flow on (or ends it) makes the turn in flight pointless.
      if (!inTurn && (m.type === 'flow_state' || m.type === 'flow_end')) this.turn?.abort();
      switch (m.type) {
        case 'flow_state':
          this.scene = m;
          this.systemPrompt = m.agent.system_prompt;
          this.tools = m.agent.tools;
          if (m.agent.context === 'reset') this.history = [];
          this.stepStart = this.history.length;
          break;
        case 'system_message':
          this.history.push({ role: 'system', content: m.text });
          break;
        case 'speech_cue':
          if (m.reason === 'entered') entered = m.text;
          else cue = m.text;
          if (m.reason === 'action_failed') failure = m.text;
          break;
        case 'llm_turn':
          wantsTurn = true;
          break;
        default:
          break;
      }
    }
    this.events.engine(messages);
    // Whatever the engine did without a model turn (a rule took the words, a tap, a tick) leaves a prepared reply stale.
    if (!wantsTurn && !inTurn) this.dropPrepared();
    if (entered !== null && !this.stopped) this.speakNow(entered);
    if (wantsTurn && !this.stopped) {
      if (failure !== null && !inTurn) this.speakNow(failure);
      this.beginTurn();
    }
    else if (cue !== null) {
      if (inTurn) this.cue = cue;
      else this.speakNow(cue);
    }
    this.scheduleTick();
  }

  /** One of the kiosk's own sentences, in the visit's language. */
  private sentence(name: KioskSentence): string {
    return kioskSentence(name, this.engine.loaded.flow.language);
  }

  private speakNow(text: string): void {
    const id = ++this.turnSeq;
    this.history.push({ role: 'assistant', content: text });
    this.events.agentSpeech(id, text, true);
  }

  private scheduleTick(): void {
    this.cancelTick?.();
    this.cancelTick = null;
    const due = this.engine.view.nextDeadline;
    if (due === null || this.stopped) return;
    this.cancelTick = this.timers.schedule(due - this.clock.now(), () => {
      this.cancelTick = null;
      if (!this.stopped) this.handle(this.engine.tick());
    });
  }

  private beginTurn(): void {
    this.turn?.abort();
    const controller = new AbortController();
    this.turn = controller;
    this.cue = null;
    const epoch = this.engine.view.epoch;
    // Turns run one after another; a turn that fails unexpectedly must not stop the next ones.
    this.running = this.running
      .then(() => this.runTurn(epoch, controller.signal))
      .catch((error: unknown) => {
        this.events.busy(false);
        this.events.notice('model_failed', this.sentence('trouble'), (error as Error).message);
        this.speakNow(this.sentence('trouble'));
      });
  }

  private sceneHint(): SceneHint | undefined {
    if (!this.scene) return undefined;
    const view = this.engine.view;
    return {
      state: this.scene,
      values: view.values,
      pending: view.pending,
      stepStart: this.stepStart + 1, // the system prompt comes first
      ...(view.pendingAction ? { pendingAction: view.pendingAction.summary } : {}),
      ...(view.running.length ? { running: view.running } : {}),
    };
  }

  private async runTurn(epoch: number, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    this.events.busy(true);
    try {
      let spoke = false;
      const maxRounds = this.options.maxRounds ?? 4;
      for (let round = 0; round < maxRounds && !signal.aborted; round++) {
        const reply = await this.generate(signal);
        if (signal.aborted || reply === null) return;
        this.history.push({ role: 'assistant', content: reply.text, ...(reply.calls.length ? { tool_calls: reply.calls } : {}) });
        if (reply.text) {
          spoke = true;
          this.events.agentSpeech(reply.id, reply.text, true);
        }
        if (reply.calls.length === 0) break;
        // The whole batch settles before any transition is acted on: every call gets its result.
        const produced: EngineMessage[] = [];
        for (const call of reply.calls) {
          const out = this.engine.send({ type: 'tool_call', name: call.name, args: call.arguments, epoch, call_id: call.id });
          for (const m of out) {
            if (m.type === 'tool_result') this.history.push({ role: 'tool', tool_call_id: m.call_id, content: JSON.stringify({ ok: m.ok, ...m.content }) });
          }
          produced.push(...out);
        }
        this.handle(produced, true);
        if (this.engine.view.epoch !== epoch || this.engine.view.ended) return;
        // Said instead of another round of a model on the network (the built-in assistant answers at once, in its own words).
        const question = this.model === this.fallback ? null : questionAfterCapture(produced, this.scene?.artifact?.fields ?? [], this.engine.view.values);
        if (question !== null) {
          if (!reply.text.includes('?')) this.speakNow(question);
          return;
        }
      }
      if (!spoke && this.cue !== null && !signal.aborted) this.speakNow(this.cue);
    } finally {
      if (this.turn?.signal === signal) this.events.busy(false);
    }
  }

  /** What the model is asked for a reply after `history`, in the step on screen. */
  private request(history: readonly ChatMessage[]): Omit<TurnRequest, 'signal'> {
    const scene = this.sceneHint();
    const constraint = this.scene?.agent.response_constraint;
    // A tool whose action is running for this step, or a write done in it, is not offered again (FlowEngine.view.tools).
    const view = this.engine.view;
    const tools = view.ended ? this.tools : this.tools.filter((t) => view.tools.includes(t.function.name));
    return {
      messages: [{ role: 'system', content: this.systemPrompt }, ...history],
      tools,
      ...(scene ? { scene } : {}),
      ...(constraint ? { responseConstraint: constraint } : {}),
    };
  }

  /** The model's reply to `request`: the one prepared at the pause when it is for this very request. */
  private reply(request: Omit<TurnRequest, 'signal'>, signal: AbortSignal): AsyncIterable<TurnChunk> {
    const prepared = this.prepared;
    this.prepared = null;
    if (prepared && prepared.key === requestKey(request) && this.model !== this.fallback) {
      this.events.prepared?.('taken');
      return prepared.take(signal);
    }
    if (prepared) {
      prepared.drop();
      this.events.prepared?.('dropped');
    }
    return this.model.generate({ ...request, signal });
  }

  /** One model round (one reply), falling back to the offline agent once if the model fails. */
  private async generate(signal: AbortSignal): Promise<{ id: number; text: string; calls: ToolCallRequest[] } | null> {
    const id = ++this.turnSeq;
    for (;;) {
      let text = '';
      const calls: ToolCallRequest[] = [];
      const formValues: FormValue[] = [];
      try {
        for await (const chunk of this.reply(this.request(this.history), signal)) {
          if (signal.aborted) return null;
          if (chunk.type === 'text') {
            text += chunk.delta;
            this.events.agentSpeech(id, text, false);
          } else if (chunk.type === 'tool_call') calls.push(chunk.call);
          else formValues.push(chunk);
        }
        for (const input of formInputs(this.scene, formValues)) this.handle(this.engine.send(input), true);
        return { id, text: text.trim(), calls };
      } catch (error) {
        if (signal.aborted) return null;
        if (this.model !== this.fallback) {
          this.events.notice('model_fallback', this.sentence('model_fallback'), (error as Error).message);
          this.model = this.fallback;
          continue;
        }
        this.events.notice('model_failed', this.sentence('trouble'));
        this.speakNow(this.sentence('trouble'));
        return null;
      }
    }
  }
}
