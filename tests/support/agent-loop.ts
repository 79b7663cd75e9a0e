// A small agent loop for tests: drives a FlowEngine with a LanguageModel the way the kiosk's
// runtime does. It keeps the OpenAI-style history, asks the model for a turn on each llm_turn,
// sends its tool calls to the engine with the generation's epoch, appends the results and asks
// again until the model answers in words only.

import { FlowEngine } from '../../src/engine/runtime/engine.ts';
import type { LoadedFlow } from '../../src/engine/language/load-flow.ts';
import type { EngineMessage, FlowStateMessage, UiEventInput } from '../../src/engine/runtime/messages.ts';
import { VirtualClock } from '../../src/ports/clock.ts';
import type { ChatMessage, LanguageModel, SceneHint, ToolCallRequest } from '../../src/ports/language-model.ts';

/** Tool rounds allowed in one turn, and turns chained by state entries, before the loop gives up. */
const MAX_ROUNDS = 4;
const MAX_CHAINED_TURNS = 12;

export class AgentLoop {
  readonly clock = new VirtualClock();
  readonly engine: FlowEngine;
  /** the history handed to the model: a system message at each state entry, then the turns */
  readonly messages: ChatMessage[] = [];
  /** what the kiosk said, in order: the model's words, and the engine's cue when it answered itself */
  readonly captions: string[] = [];
  /** every tool call the model made */
  readonly calls: ToolCallRequest[] = [];
  /** every form value the model put in, in order */
  readonly formValues: { field: string; value: string }[] = [];
  /** every engine message, in order */
  readonly emitted: EngineMessage[] = [];
  private flowState: FlowStateMessage | undefined;
  private turnEpoch: number | null = null;

  constructor(
    loaded: LoadedFlow,
    readonly model: LanguageModel,
  ) {
    this.engine = new FlowEngine(loaded, this.clock);
  }

  get view() {
    return this.engine.view;
  }

  get lastCaption(): string | undefined {
    return this.captions[this.captions.length - 1];
  }

  async start(): Promise<void> {
    await this.input(() => this.engine.start());
  }

  /** The visitor says something (a final transcript). */
  async say(text: string): Promise<void> {
    this.messages.push({ role: 'user', content: text });
    await this.input(() => this.engine.send({ type: 'utterance', text }));
  }

  /** The visitor taps something on screen. */
  async tap(event: Omit<UiEventInput, 'type'>): Promise<void> {
    await this.input(() => this.engine.send({ type: 'ui_event', ...event }));
  }

  /**
   * The visitor picks another of the flow's languages on screen: the step is shown again in it, the
   * model is told and takes a turn, as the kiosk's runtime does (voice/conversation.ts).
   */
  async setLanguage(language: string): Promise<void> {
    const out = this.engine.setLanguage(language);
    this.absorb(out);
    if (!out.some((m) => m.type === 'flow_state')) return;
    this.messages.push({ role: 'system', content: `[kiosk] The visitor chose ${language} on the screen.` });
    this.turnEpoch = this.engine.view.epoch;
    await this.runTurns();
  }

  /** Time passes. */
  async wait(seconds: number): Promise<void> {
    this.clock.advance(seconds * 1000);
    await this.input(() => this.engine.tick());
  }

  /** One input from outside the model; the engine's cue is said when the model is not asked. */
  private async input(send: () => EngineMessage[]): Promise<void> {
    const out = send();
    this.absorb(out);
    if (this.turnEpoch === null) {
      const cues = out.flatMap((m) => (m.type === 'speech_cue' ? [m.text] : []));
      if (cues.length > 0) {
        const text = cues.join(' ');
        this.captions.push(text);
        this.messages.push({ role: 'assistant', content: text });
      }
    }
    await this.runTurns();
  }

  private absorb(out: readonly EngineMessage[]): void {
    for (const m of out) {
      this.emitted.push(m);
      if (m.type === 'flow_state') {
        this.flowState = m;
        if (m.agent.context === 'reset') this.messages.length = 0;
        this.messages.push({ role: 'system', content: m.agent.system_prompt });
      } else if (m.type === 'system_message') {
        this.messages.push({ role: 'system', content: m.text });
      } else if (m.type === 'llm_turn') {
        this.turnEpoch = m.epoch;
      }
    }
  }

  private scene(): SceneHint {
    const view = this.engine.view;
    return {
      state: this.flowState!,
      values: view.values,
      pending: view.pending,
      ...(view.pendingAction ? { pendingAction: view.pendingAction.summary } : {}),
    };
  }

  private async runTurns(): Promise<void> {
    for (let chained = 0; this.turnEpoch !== null; chained++) {
      if (chained >= MAX_CHAINED_TURNS) throw new Error(`agent loop: more than ${MAX_CHAINED_TURNS} turns in a row`);
      const epoch = this.turnEpoch;
      this.turnEpoch = null;
      // A terminal state's entry gives the model its last turn; nothing after the end does.
      if (this.engine.view.ended && epoch !== this.engine.view.epoch) return;
      await this.runTurn(epoch);
    }
  }

  /** A value the model heard for a field of the form on screen: put in as typed, as the kiosk does (never a gated field). */
  private fillForm(field: string, value: string): void {
    const scene = this.flowState;
    if (!scene?.artifact?.fields.some((f) => f.id === field) || (scene.gate && field in scene.gate)) return;
    this.formValues.push({ field, value });
    this.absorb(this.engine.send({ type: 'ui_event', event: 'field_change', variable: field, value }));
  }

  private async runTurn(epoch: number): Promise<void> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      let text = '';
      const calls: ToolCallRequest[] = [];
      const tools = this.flowState?.agent.tools ?? [];
      for await (const chunk of this.model.generate({ messages: [...this.messages], tools, scene: this.scene() })) {
        if (chunk.type === 'text') text += chunk.delta;
        else if (chunk.type === 'tool_call') calls.push(chunk.call);
        else this.fillForm(chunk.field, chunk.value);
      }
      this.messages.push({ role: 'assistant', content: text, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
      if (text !== '') this.captions.push(text);
      if (calls.length === 0) return;
      this.calls.push(...calls);
      const rest: EngineMessage[] = [];
      for (const c of calls) {
        const out = this.engine.send({ type: 'tool_call', name: c.name, args: c.arguments, epoch, call_id: c.id });
        const result = out.find((m) => m.type === 'tool_result' && m.call_id === c.id);
        const content = result?.type === 'tool_result' ? result.content : { error: 'no_result' };
        this.messages.push({ role: 'tool', tool_call_id: c.id, content: JSON.stringify(content) });
        rest.push(...out);
      }
      this.absorb(rest);
      // A new state was entered (or the flow ended): this generation is over; the entry's own turn follows.
      if (this.engine.view.epoch !== epoch || this.engine.view.ended) return;
    }
    throw new Error(`agent loop: the model was still calling tools after ${MAX_ROUNDS} rounds`);
  }
}
