// FlowEngine: the one object a runtime (the kiosk, `vfdl test`, a benchmark) talks to. It owns
// the XState actor, stamps each step with the injected clock, and hands back the messages the
// step produced. It performs nothing: no timers, no network, no audio. A run can be kept as plain
// JSON (`snapshot()`) and taken up again (`FlowEngine.restore`) without entering anything anew.

import { createActor, type Actor } from 'xstate';
import type { Clock } from '../ports/clock.ts';
import type { LoadedFlow } from './load-flow.ts';
import { stateDef } from './error-state.ts';
import { buildMachine } from './machine.ts';
import type { EngineInput, EngineMessage, GateStatus } from './messages.ts';
import { flowStateMessage } from './lifecycle.ts';
import { newSession, Turn, type PendingAction, type Session } from './session.ts';
import { restoreSession, takeSnapshot, type EngineSnapshot, type RestoreOptions } from './snapshot.ts';

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

  /** A new run; `restored` (from `FlowEngine.restore`) takes up a kept one instead. */
  constructor(
    readonly loaded: LoadedFlow,
    private readonly clock: Clock,
    restored?: Session,
  ) {
    const machine = buildMachine(loaded.flow, loaded.catalog);
    this.actor = restored
      ? // In the kept state already: starting it runs no entry actions.
        createActor(machine, { snapshot: machine.resolveState({ value: restored.state, context: restored }), input: restored })
      : createActor(machine, { input: newSession(loaded.flow, clock.now()) });
    this.actor.on('*', (m) => {
      this.outbox.push(m);
    });
    if (restored) {
      this.started = true;
      this.actor.start();
    }
  }

  /**
   * Takes up a run kept by `snapshot()`, or says why it cannot (another flow or version, an
   * ended visit, a damaged record). `messages` show the state again as it stood: its
   * `flow_state` (same epoch) and the pending action, if any. Nothing is entered or run anew.
   */
  static restore(
    loaded: LoadedFlow,
    clock: Clock,
    snapshot: unknown,
    options: RestoreOptions = {},
  ): { engine: FlowEngine; messages: EngineMessage[] } | { problem: string } {
    const restored = restoreSession(loaded, snapshot, clock.now(), options);
    if ('problem' in restored) return restored;
    const engine = new FlowEngine(loaded, clock, restored.session);
    const t = new Turn(loaded.flow, loaded.catalog, restored.session);
    const messages: EngineMessage[] = [flowStateMessage(t, t.state!)];
    const a = restored.session.pendingAction;
    if (a) messages.push({ type: 'action_pending', action_id: a.id, tool: a.tool, summary: a.summary, args: a.args, expires_at: a.expiresAt });
    return { engine, messages };
  }

  /** The run as plain JSON data, for `FlowEngine.restore`. Taken between steps. */
  snapshot(): EngineSnapshot {
    return takeSnapshot(this.loaded.flow, this.session, this.clock.now());
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
