// FlowEngine: the one object a runtime (the kiosk, `vfdl test`, a benchmark) talks to. It owns
// the XState actor, stamps each step with the injected clock, and hands back the messages the
// step produced. It performs nothing: no timers, no network, no audio.

import { createActor, type Actor } from 'xstate';
import type { Clock } from '../ports/clock.ts';
import type { LoadedFlow } from './load-flow.ts';
import { stateDef } from './error-state.ts';
import { buildMachine } from './machine.ts';
import type { EngineInput, EngineMessage, GateStatus } from './messages.ts';
import { newSession, type PendingAction, type Session } from './session.ts';

/** What a runtime may read about the run at any moment. */
export interface EngineView {
  state: string;
  epoch: number;
  ended: boolean;
  values: Readonly<Record<string, unknown>>;
  gate: Readonly<Record<string, GateStatus>>;
  pending: readonly string[];
  /** names of the tools the LLM may call now */
  tools: readonly string[];
  pendingAction: PendingAction | null;
  /** the earliest time (ms) at which a `tick` may change something, or null */
  nextDeadline: number | null;
}

export class FlowEngine {
  private readonly actor: Actor<ReturnType<typeof buildMachine>>;
  private outbox: EngineMessage[] = [];
  private started = false;

  constructor(
    readonly loaded: LoadedFlow,
    private readonly clock: Clock,
  ) {
    const machine = buildMachine(loaded.flow, loaded.catalog);
    this.actor = createActor(machine, { input: newSession(loaded.flow, clock.now()) });
    this.actor.on('*', (m) => {
      this.outbox.push(m);
    });
  }

  /** Enters the initial state; returns its messages. */
  start(): EngineMessage[] {
    if (this.started) return [];
    this.started = true;
    this.actor.start();
    return this.drain();
  }

  /** Delivers one input, or several in the same step (resolved by priority). */
  send(input: EngineInput | readonly EngineInput[]): EngineMessage[] {
    if (!this.started) this.start();
    const inputs = Array.isArray(input) ? (input as readonly EngineInput[]) : [input as EngineInput];
    if (this.actor.getSnapshot().status !== 'active') return [];
    this.actor.send({ type: 'step', now: this.clock.now(), inputs });
    const session = this.session;
    if (session.next !== null) {
      throw new Error(`flow engine: state "${session.state}" has no edge to "${session.next.target}" (${session.next.cause})`);
    }
    return this.drain();
  }

  /** Lets time act: deadlines that have fallen due by now fire. */
  tick(): EngineMessage[] {
    return this.send({ type: 'tick' });
  }

  private drain(): EngineMessage[] {
    const out = this.outbox;
    this.outbox = [];
    return out;
  }

  private get session(): Session {
    return this.actor.getSnapshot().context;
  }

  get view(): EngineView {
    const s = this.session;
    const gate = s.gate;
    const deadlines: number[] = [];
    if (s.deadline !== null) deadlines.push(s.deadline);
    if (s.pendingAction) deadlines.push(s.pendingAction.expiresAt);
    const expires = stateDef(this.loaded.flow, s.state)?.gate?.expiresAfter;
    if (expires !== undefined) {
      for (const v of Object.keys(gate)) if (gate[v] === 'pending') deadlines.push((s.capturedAt[v] ?? s.now) + expires * 1000);
    }
    const max = this.loaded.flow.settings.maxDurationSecs;
    if (max !== undefined && !s.durationCapped) deadlines.push(s.startedAt + max * 1000);
    return {
      state: s.state,
      epoch: s.epoch,
      ended: s.ended,
      values: s.values,
      gate,
      pending: Object.keys(gate).filter((v) => gate[v] === 'pending'),
      tools: s.ended ? [] : (this.loaded.catalog.offered.get(s.state) ?? []),
      pendingAction: s.pendingAction,
      nextDeadline: s.ended || deadlines.length === 0 ? null : Math.min(...deadlines),
    };
  }
}
