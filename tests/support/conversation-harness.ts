// What the conversation tests share: a scripted model that records what it was asked (and can
// hold a reply half way), timers the test fires by hand, and a conversation on the onboarding
// flow with a log of everything it tells the screen.

import { readFileSync } from 'node:fs';
import { FlowEngine } from '../../src/engine/runtime/engine.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import type { EngineMessage } from '../../src/engine/runtime/messages.ts';
import { VirtualClock } from '../../src/ports/clock.ts';
import type { LanguageModel, TurnChunk, TurnRequest } from '../../src/ports/language-model.ts';
import type { Timers } from '../../src/ports/timers.ts';
import { OfflineAgent } from '../../src/adapters/offline-agent/offline-agent.ts';
import { Conversation, type ConversationEvents } from '../../src/voice/conversation.ts';

export const onboarding = loadFlow(readFileSync(new URL('../../flows/onboarding.yaml', import.meta.url), 'utf8'), 'onboarding.yaml').loaded!;

/**
 * A reply that stops half way, so that a turn is in flight: it streams `before`, then waits until
 * the test calls `release()` or the turn's signal aborts. Aborted, it ends there (as a model that
 * honours its signal does); released, it goes on with `after`.
 */
export class HeldReply {
  /** resolves once `before` has been streamed and the reply is waiting */
  readonly reached: Promise<void>;
  readonly released: Promise<void>;
  private arrive!: () => void;
  private letGo!: () => void;
  constructor(
    readonly before: TurnChunk[],
    readonly after: TurnChunk[],
  ) {
    this.reached = new Promise((resolve) => (this.arrive = resolve));
    this.released = new Promise((resolve) => (this.letGo = resolve));
  }
  /** called by the model when it starts waiting */
  waiting(): void {
    this.arrive();
  }
  release(): void {
    this.letGo();
  }
}

/** Resolves when `signal` aborts (never without one). */
export function whenAborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) resolve();
    else signal?.addEventListener('abort', () => resolve(), { once: true });
  });
}

/** A model that plays back one scripted reply per call and records what it was asked. */
export class ScriptedModel implements LanguageModel {
  readonly name = 'scripted';
  readonly requests: TurnRequest[] = [];
  constructor(private readonly replies: (TurnChunk[] | Error | HeldReply | ((r: TurnRequest) => TurnChunk[]))[]) {}
  async *generate(request: TurnRequest): AsyncIterable<TurnChunk> {
    this.requests.push({ ...request, messages: [...request.messages] });
    const next = this.replies.shift() ?? [];
    if (next instanceof Error) throw next;
    if (next instanceof HeldReply) {
      yield* next.before;
      next.waiting();
      await Promise.race([next.released, whenAborted(request.signal)]);
      if (request.signal?.aborted) return;
      yield* next.after;
      return;
    }
    for (const chunk of typeof next === 'function' ? next(request) : next) yield chunk;
  }
}

export class ManualTimers implements Timers {
  pending: { delay: number; fn: () => void; live: boolean }[] = [];
  schedule(delay: number, fn: () => void) {
    const t = { delay, fn, live: true };
    this.pending.push(t);
    return () => {
      t.live = false;
    };
  }
  get live() {
    return this.pending.filter((t) => t.live);
  }
}

export interface Caption {
  reply: number;
  text: string;
  final: boolean;
}

/** A conversation on `flow` (the onboarding example by default) with `model`, on `clock` (the epoch by default). */
export function setup(model: LanguageModel, flow = onboarding, clock = new VirtualClock(0)) {
  const timers = new ManualTimers();
  const engine = new FlowEngine(flow, clock);
  const log = {
    messages: [] as EngineMessage[],
    speech: [] as string[],
    /** every agentSpeech call, streamed and final */
    captions: [] as Caption[],
    visitor: [] as string[],
    notices: [] as string[],
    busy: [] as boolean[],
    prepared: [] as string[],
  };
  const events: ConversationEvents = {
    prepared: (outcome) => log.prepared.push(outcome),
    engine: (ms) => log.messages.push(...ms),
    agentSpeech: (reply, text, final) => {
      log.captions.push({ reply, text, final });
      if (final) log.speech.push(text);
    },
    visitorSpeech: (text) => log.visitor.push(text),
    notice: (_kind, text, detail) => log.notices.push(detail ? `${text} [${detail}]` : text),
    busy: (busy) => log.busy.push(busy),
  };
  const conversation = new Conversation(engine, model, new OfflineAgent(), clock, timers, events);
  return { clock, timers, engine, conversation, log };
}

