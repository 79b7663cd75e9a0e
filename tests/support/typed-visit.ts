// A visit typed to the built-in assistant, in Node: the kiosk's own conversation (voice/conversation.ts)
// on the flow engine, with the offline assistant as its model, as the kiosk runs a flow when its
// server has no model (conversation-harness.ts's set-up, on a clock at a fixed "today"). What the
// visitor types goes where the answer box sends it, and the test reads what the kiosk said back,
// the step, the values and the gate, and the step's card as the screen would show it. The browser
// tests keep a typed visit or two for the screen's wiring.

import { readFileSync } from 'node:fs';
import { OfflineAgent } from '../../src/adapters/offline-agent/offline-agent.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import type { FlowStateMessage, UiEventInput } from '../../src/engine/runtime/messages.ts';
import { VirtualClock } from '../../src/ports/clock.ts';
import { setup } from './conversation-harness.ts';

/** Midday on 15 June 2026, the kiosk's "today" in these visits. */
const TODAY = new Date(2026, 5, 15, 12).getTime();

/** One of the bundled example flows (flows/NAME.yaml), as the kiosk loads it by `?flow=NAME`. */
export function exampleFlow(name: string): string {
  return readFileSync(new URL(`../../flows/${name}.yaml`, import.meta.url), 'utf8');
}

export class TypedVisit {
  private readonly harness: ReturnType<typeof setup>;

  constructor(yaml: string) {
    const result = loadFlow(yaml, 'typed-visit.yaml');
    if (!result.loaded) throw new Error(result.diagnostics.map((d) => d.message).join('\n'));
    const clock = new VirtualClock(TODAY);
    this.harness = setup(new OfflineAgent(clock), result.loaded, clock);
  }

  get engine() {
    return this.harness.engine;
  }

  /** every line the kiosk said, in order */
  get said(): readonly string[] {
    return this.harness.log.speech;
  }

  /** Starts the visit (the Start tap): the first step, and what the kiosk says on it. */
  async start(): Promise<this> {
    this.harness.conversation.start();
    await this.harness.conversation.settled();
    return this;
  }

  /** Types `text` into the answer box and sends it; resolves with the last line the kiosk said back (undefined: nothing). */
  async say(text: string): Promise<string | undefined> {
    const before = this.said.length;
    this.harness.conversation.say(text);
    await this.harness.conversation.settled();
    return this.said.length > before ? this.said.at(-1) : undefined;
  }

  /** A tap or a form sent by hand. */
  async tap(event: Omit<UiEventInput, 'type'>): Promise<void> {
    this.harness.conversation.ui({ type: 'ui_event', ...event });
    await this.harness.conversation.settled();
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
    const artifact = this.harness.log.messages.filter((m): m is FlowStateMessage => m.type === 'flow_state').at(-1)?.artifact;
    return [artifact?.title, artifact?.text].filter(Boolean).join('\n');
  }
}

/** A visit of `yaml`, started. */
export function typedVisit(yaml: string): Promise<TypedVisit> {
  return new TypedVisit(yaml).start();
}
