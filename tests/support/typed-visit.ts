// A visit typed to the built-in assistant, in Node: the kiosk's own conversation (voice/conversation.ts)
// on the flow engine, with the offline assistant as its model, as the kiosk runs a flow when its
// server has no model. What the visitor types goes where the answer box sends it, and the test
// reads what the kiosk said back, the step, the values and the gate, and the step's card as the
// screen would show it. The browser tests keep a typed visit or two for the screen's wiring.

import { readFileSync } from 'node:fs';
import { OfflineAgent } from '../../src/adapters/offline-agent/offline-agent.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import { FlowEngine } from '../../src/engine/runtime/engine.ts';
import type { EngineMessage, FlowStateMessage, UiEventInput } from '../../src/engine/runtime/messages.ts';
import { VirtualClock } from '../../src/ports/clock.ts';
import { Conversation } from '../../src/voice/conversation.ts';
import { ManualTimers } from './conversation-harness.ts';

/** Midday on 15 June 2026, the kiosk's "today" in these visits. */
const TODAY = new Date(2026, 5, 15, 12).getTime();

/** One of the bundled example flows (flows/NAME.yaml), as the kiosk loads it by `?flow=NAME`. */
export function exampleFlow(name: string): string {
  return readFileSync(new URL(`../../flows/${name}.yaml`, import.meta.url), 'utf8');
}

export class TypedVisit {
  readonly clock = new VirtualClock(TODAY);
  readonly timers = new ManualTimers();
  readonly engine: FlowEngine;
  readonly conversation: Conversation;
  /** every line the kiosk said, in order */
  readonly said: string[] = [];
  /** every engine message, in order */
  readonly messages: EngineMessage[] = [];

  constructor(yaml: string) {
    const result = loadFlow(yaml, 'typed-visit.yaml');
    if (!result.loaded) throw new Error(result.diagnostics.map((d) => d.message).join('\n'));
    this.engine = new FlowEngine(result.loaded, this.clock);
    const assistant = new OfflineAgent(this.clock);
    this.conversation = new Conversation(this.engine, assistant, assistant, this.clock, this.timers, {
      engine: (ms) => this.messages.push(...ms),
      agentSpeech: (_reply, text, final) => {
        if (final) this.said.push(text);
      },
      visitorSpeech: () => undefined,
      notice: () => undefined,
      busy: () => undefined,
    });
  }

  /** Starts the visit (the Start tap): the first step, and what the kiosk says on it. */
  async start(): Promise<this> {
    this.conversation.start();
    await this.conversation.settled();
    return this;
  }

  /** Types `text` into the answer box and sends it; resolves with the last line the kiosk said back (undefined: nothing). */
  async say(text: string): Promise<string | undefined> {
    const before = this.said.length;
    this.conversation.say(text);
    await this.conversation.settled();
    return this.said.length > before ? this.said[this.said.length - 1] : undefined;
  }

  /** A tap or a form sent by hand. */
  async tap(event: Omit<UiEventInput, 'type'>): Promise<void> {
    this.conversation.ui({ type: 'ui_event', ...event });
    await this.conversation.settled();
  }

  get state(): string {
    return this.engine.view.state;
  }

  get ended(): boolean {
    return this.engine.view.ended;
  }

  get values(): Readonly<Record<string, unknown>> {
    return this.engine.view.values;
  }

  /** The step's title and text as the screen shows them, the values put in. */
  get card(): string {
    const artifact = this.messages.filter((m): m is FlowStateMessage => m.type === 'flow_state').at(-1)?.artifact;
    return [artifact?.title, artifact?.text].filter(Boolean).join('\n');
  }
}

/** A visit of `yaml`, started. */
export function typedVisit(yaml: string): Promise<TypedVisit> {
  return new TypedVisit(yaml).start();
}
