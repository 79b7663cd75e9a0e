// A small driver for engine unit tests: loads an inline flow, starts a FlowEngine on a
// VirtualClock, and gives short ways to speak, tap, call tools and let time pass.

import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { FlowEngine } from '../../src/engine/runtime/engine.ts';
import { loadFlow } from '../../src/engine/language/load-flow.ts';
import type { EngineInput, EngineMessage, EngineMessageType, UiEventInput } from '../../src/engine/runtime/messages.ts';
import { VirtualClock } from '../../src/ports/clock.ts';

/** The message of one type, narrowed. */
export type MessageOf<T extends EngineMessageType> = Extract<EngineMessage, { type: T }>;

/** The messages of one type, in the order they were emitted. */
export function ofType<T extends EngineMessageType>(messages: readonly EngineMessage[], type: T): MessageOf<T>[] {
  return messages.filter((m): m is MessageOf<T> => m.type === type);
}

/** The only message of one type; throws when there is none or more than one. */
export function only<T extends EngineMessageType>(messages: readonly EngineMessage[], type: T): MessageOf<T> {
  const found = ofType(messages, type);
  if (found.length !== 1) throw new Error(`expected exactly one ${type}, got ${found.length}: ${types(messages).join(', ')}`);
  return found[0]!;
}

/** The message types, in order: handy for asserting sequences. */
export function types(messages: readonly EngineMessage[]): EngineMessageType[] {
  return messages.map((m) => m.type);
}

/** A tool call in the engine's current epoch unless `epoch` says otherwise. */
export interface CallOptions {
  epoch?: number;
  call_id?: string;
}

export interface Harness {
  engine: FlowEngine;
  clock: VirtualClock;
  /** what `start()` emitted */
  started: EngineMessage[];
  /** every message since the start, in order */
  log: EngineMessage[];
  send(input: EngineInput | readonly EngineInput[]): EngineMessage[];
  /** a final transcript from the visitor */
  say(text: string): EngineMessage[];
  /** a tool call from the LLM */
  call(name: string, args?: unknown, options?: CallOptions): EngineMessage[];
  /** a UI event */
  ui(event: string, extra?: Omit<UiEventInput, 'type' | 'event'>): EngineMessage[];
  /** advances the clock by `seconds` and ticks */
  wait(seconds: number): EngineMessage[];
  /** input builders for `send([...])` */
  input: {
    say(text: string): EngineInput;
    call(name: string, args?: unknown, options?: CallOptions): EngineInput;
    ui(event: string, extra?: Omit<UiEventInput, 'type' | 'event'>): EngineInput;
    tick(): EngineInput;
  };
}

/** Loads `yaml` (it must be valid) and starts the flow at `startAt` (ms; by default time 0). */
export function startFlow(yaml: string, startAt = 0): Harness {
  const result = loadFlow(yaml, 'inline.yaml');
  if (!result.loaded) throw new Error(`inline flow does not load:\n${result.diagnostics.map(formatDiagnostic).join('\n')}`);
  const clock = new VirtualClock(startAt);
  const engine = new FlowEngine(result.loaded, clock);
  const log: EngineMessage[] = [];
  const record = (messages: EngineMessage[]): EngineMessage[] => {
    log.push(...messages);
    return messages;
  };
  const input: Harness['input'] = {
    say: (text) => ({ type: 'utterance', text }),
    call: (name, args = {}, options = {}) => ({
      type: 'tool_call',
      name,
      args,
      epoch: options.epoch ?? engine.view.epoch,
      ...(options.call_id !== undefined ? { call_id: options.call_id } : {}),
    }),
    ui: (event, extra = {}) => ({ type: 'ui_event', event, ...extra }),
    tick: () => ({ type: 'tick' }),
  };
  const send = (i: EngineInput | readonly EngineInput[]) => record(engine.send(i));
  const started = record(engine.start());
  return {
    engine,
    clock,
    started,
    log,
    send,
    say: (text) => send(input.say(text)),
    call: (name, args, options) => send(input.call(name, args, options)),
    ui: (event, extra) => send(input.ui(event, extra)),
    wait: (seconds) => {
      clock.advance(seconds * 1000);
      return send(input.tick());
    },
    input,
  };
}
