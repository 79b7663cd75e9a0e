// FlowEngine: the one object a runtime (the kiosk, `vfdl test`, a benchmark) talks to. It owns
// the XState actor, stamps each step with the injected clock, and hands back the messages the
// step produced. It performs nothing: no timers, no network, no audio. It never throws to its
// caller: a step that fails inside goes to the error state (recovery.ts) and says so. A run can be
// kept as plain JSON (`snapshot()`) and taken up again (`FlowEngine.restore`) without entering
// anything anew.

import { createActor, type Actor } from 'xstate';
import type { Clock } from '../../ports/clock.ts';
import type { LoadedFlow } from '../language/loaded-flow.ts';
import { buildMachine, type MachineContext } from './machine.ts';
import type { EngineInput, EngineMessage, GateStatus } from './messages.ts';
import { flowStateMessage } from './lifecycle.ts';
import { errorText, lastResort, toErrorState, type Recovered } from './recovery.ts';
import { actionBusy, newSession, Turn, type PendingAction, type Session } from './session.ts';
import { restoreSession, takeSnapshot, type EngineSnapshot, type RestoreOptions } from './snapshot.ts';
import { leavesAt, timeLimits, type TimeLimit } from './time-limits.ts';

type FlowMachine = ReturnType<typeof buildMachine>;

/** What a runtime may read about the run at any moment. */
export interface EngineView {
  state: string;
  /** the visit's language (setLanguage changes it) */
  language: string;
  epoch: number;
  ended: boolean;
  values: Readonly<Record<string, unknown>>;
  gate: Readonly<Record<string, GateStatus>>;
  pending: readonly string[];
  /**
   * names of the tools the LLM may call now: those the state offers, but one whose action is
   * running for this step, or a write done already in it (session.ts, actionBusy)
   */
  tools: readonly string[];
  pendingAction: PendingAction | null;
  /** the tools whose HTTP action is running for this step (sent, its answer not yet in) */
  running: readonly string[];
  /** the earliest time (ms) at which a `tick` may change something, or null */
  nextDeadline: number | null;
  /**
   * when the step's timeout will take the visitor off this step (to another state or the end,
   * not a re-prompt), or null: the time limit the kiosk warns of, which `more_time` extends
   */
  leavesAt: number | null;
  /** every time limit the visitor meets now, the soonest first: what the kiosk warns of when near (time-limits.ts) */
  limits: readonly TimeLimit[];
}

export class FlowEngine {
  private machine: FlowMachine;
  /** the flow in its default language (what a snapshot names), and in the visit's */
  private readonly base: LoadedFlow;
  private current: LoadedFlow;
  private actor: Actor<FlowMachine>;
  private outbox: EngineMessage[] = [];
  private started = false;
  /** the clock failed while the engine was made: start() reports it */
  private readonly clockFailure: { error: unknown } | null = null;
  /** the clock's time when the engine was made */
  private readonly madeAt: number = 0;

  /**
   * A new run; `restored` (from `FlowEngine.restore`) takes up a kept one instead. Takes the flow's
   * statechart (made on the flow's first run, shared by the later ones); throws only when the flow
   * cannot be made into one (a bug).
   */
  constructor(
    loaded: LoadedFlow,
    private readonly clock: Clock,
    restored?: Session,
  ) {
    this.base = loaded.inLanguage(loaded.flow.defaultLanguage);
    this.current = restored ? this.base.inLanguage(restored.language) : loaded;
    this.machine = buildMachine(this.current.flow, this.current.catalog);
    if (restored) {
      // In the kept state already: starting it runs no entry actions.
      this.madeAt = restored.now;
      this.started = true;
      this.actor = this.actorAt(restored);
      return;
    }
    try {
      this.madeAt = clock.now();
    } catch (error) {
      this.clockFailure = { error };
    }
    // The initial state's entry is worked out here; if it fails, the actor says so and start() recovers.
    this.actor = this.watch(createActor(this.machine, { input: newSession(this.current.flow, this.madeAt) }));
  }

  /** The flow as the visit runs it: its texts in the visit's language. */
  get loaded(): LoadedFlow {
    return this.current;
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
    const base = loaded.inLanguage(loaded.flow.defaultLanguage);
    const restored = restoreSession(base, snapshot, clock.now(), options);
    if ('problem' in restored) return restored;
    const engine = new FlowEngine(base, clock, restored.session);
    return { engine, messages: engine.showAgain() };
  }

  /** The run as plain JSON data, for `FlowEngine.restore`. Taken between steps. */
  snapshot(): EngineSnapshot {
    return takeSnapshot(this.base.flow, this.session, this.clock.now());
  }

  /**
   * Changes the visit's language (one of the flow's `languages`; the closest by primary subtag,
   * else the default) and shows the step again in it: every value, pending confirmation, pending
   * action and timer stays as it was. Returns the step's `flow_state` (same epoch) and the pending
   * action, or nothing when the language does not change or the visit has ended.
   */
  setLanguage(language: string): EngineMessage[] {
    const next = this.base.inLanguage(language);
    if (next === this.current || !this.started || this.actor.getSnapshot().status !== 'active' || this.session.ended) return [];
    const session: Session = { ...this.session, language: next.flow.language };
    this.actor.stop();
    this.current = next;
    this.machine = buildMachine(next.flow, next.catalog);
    this.actor = this.actorAt(session);
    return this.showAgain();
  }

  /** The state as it stands, shown again: its `flow_state` and the pending action. */
  private showAgain(): EngineMessage[] {
    const session = this.session;
    const t = new Turn(this.current.flow, this.current.catalog, session);
    const messages: EngineMessage[] = [flowStateMessage(t, t.state!)];
    const a = session.pendingAction;
    if (a) messages.push({ type: 'action_pending', action_id: a.id, tool: a.tool, summary: a.summary, args: a.args, expires_at: a.expiresAt });
    return messages;
  }

  /**
   * What `send(input)` would answer now, worked out on a copy of the run: this engine does not
   * change. Null when the run cannot be copied (it has ended).
   */
  preview(input: EngineInput): EngineMessage[] | null {
    const copy = FlowEngine.restore(this.base, this.clock, this.snapshot());
    return 'problem' in copy ? null : copy.engine.send(input);
  }

  /** Enters the initial state; returns its messages. */
  start(): EngineMessage[] {
    if (this.started) return [];
    this.started = true;
    if (this.clockFailure) return this.recover(this.clockFailure.error, false);
    try {
      this.actor.start();
      this.checkStep();
      return this.drain();
    } catch (error) {
      return this.recover(error, this.actor.getSnapshot().status !== 'error');
    }
  }

  /** Delivers one input, or several in the same step (resolved by priority). Never throws. */
  send(input: EngineInput | readonly EngineInput[]): EngineMessage[] {
    if (!this.started) this.start();
    if (this.actor.getSnapshot().status !== 'active') return [];
    try {
      const inputs = Array.isArray(input) ? (input as readonly EngineInput[]) : [input as EngineInput];
      this.actor.send({ type: 'step', now: this.clock.now(), inputs });
      this.checkStep();
      const out = this.drain();
      // set_language changed the session's language: the step is shown again in it.
      if (this.session.language !== this.current.flow.language) out.push(...this.setLanguage(this.session.language));
      return out;
    } catch (error) {
      return this.recover(error, true, input);
    }
  }

  /** Lets time act: deadlines that have fallen due by now fire. */
  tick(): EngineMessage[] {
    return this.send({ type: 'tick' });
  }

  /** Listens to an actor: its messages go to the outbox; its failures are read by checkStep. */
  private watch(actor: Actor<FlowMachine>): Actor<FlowMachine> {
    actor.on('messages', (batch) => {
      this.outbox.push(...batch.messages);
    });
    // Without an error listener XState rethrows a failure later, out of reach of the caller.
    actor.subscribe({ error: () => {} });
    return actor;
  }

  /** Throws what went wrong in the step just taken, if anything did. */
  private checkStep(): void {
    const snapshot = this.actor.getSnapshot();
    if (snapshot.status === 'error') throw snapshot.error;
    const next = snapshot.context.session.next;
    if (next !== null) throw new Error(`flow engine: state "${snapshot.context.session.state}" has no edge to "${next.target}" (${next.cause})`);
  }

  /**
   * After a failed step: the run goes to the error state from the session it had before the step
   * (`entered` is false when the first state was never entered), on a new actor, since XState's
   * actor stops for good at an error. What the step emitted before it failed is kept, and each of
   * its tool calls still gets its one tool_result (a model's history needs it).
   */
  private recover(error: unknown, entered: boolean, input?: EngineInput | readonly EngineInput[]): EngineMessage[] {
    const kept = this.drain();
    const answers = input === undefined ? [] : failedCalls(input, kept);
    const snapshot = this.actor.getSnapshot() as { context?: MachineContext };
    const base = entered && snapshot.context ? snapshot.context.session : null;
    const now = base?.now ?? this.madeAt;
    const report: EngineMessage = { type: 'engine_error', state: base?.state ?? this.loaded.flow.initial, message: errorText(error) };
    let recovered: Recovered;
    try {
      recovered = toErrorState(this.loaded.flow, this.loaded.catalog, base, now);
      this.actor = this.actorAt(recovered.session);
    } catch {
      recovered = lastResort(this.loaded.flow, base, now);
      this.actor = this.actorAt(recovered.session);
    }
    this.outbox = [];
    return [...kept, report, ...answers, ...recovered.messages];
  }

  /** A running actor that stands in `session.state` with `session`, without entering it again. */
  private actorAt(session: Session): Actor<FlowMachine> {
    const snapshot = this.machine.resolveState({ value: session.state as never, context: { session } });
    return this.watch(createActor(this.machine, { snapshot, input: session })).start();
  }

  private drain(): EngineMessage[] {
    const out = this.outbox;
    this.outbox = [];
    return out;
  }

  private get session(): Session {
    return this.actor.getSnapshot().context.session;
  }

  get view(): EngineView {
    const s = this.session;
    const gate = s.gate;
    const limits = timeLimits(this.loaded.flow, s);
    // The step's deadline also when it only re-prompts (no limit the visitor is warned of).
    const deadlines = [...limits.map((l) => l.at), ...(s.deadline === null ? [] : [s.deadline])];
    return {
      state: s.state,
      language: s.language,
      epoch: s.epoch,
      ended: s.ended,
      values: s.values,
      gate,
      pending: Object.keys(gate).filter((v) => gate[v] === 'pending'),
      tools: s.ended ? [] : (this.loaded.catalog.offered.get(s.state) ?? []).filter((name) => !actionBusy(s, name)),
      pendingAction: s.pendingAction,
      running: s.running.filter((r) => r.state === s.state && !r.left).map((r) => r.tool),
      nextDeadline: s.ended || deadlines.length === 0 ? null : Math.min(...deadlines),
      leavesAt: s.ended ? null : leavesAt(this.loaded.flow, s),
      limits,
    };
  }
}

/**
 * A failing answer for each tool call of a failed step that has none yet. Inputs that cannot be
 * read (the kind of input that may have caused the failure) are passed over.
 */
function failedCalls(input: EngineInput | readonly EngineInput[], kept: readonly EngineMessage[]): EngineMessage[] {
  const answered = new Set(kept.flatMap((m) => (m.type === 'tool_result' ? [m.call_id] : [])));
  const out: EngineMessage[] = [];
  try {
    for (const i of Array.isArray(input) ? (input as readonly EngineInput[]) : [input as EngineInput]) {
      if (i.type !== 'tool_call' || typeof i.call_id !== 'string' || typeof i.name !== 'string' || answered.has(i.call_id)) continue;
      answered.add(i.call_id);
      const detail = 'the flow engine failed while handling this call; nothing was done';
      out.push({ type: 'tool_result', call_id: i.call_id, tool: i.name, ok: false, content: { error: 'engine_error', detail } });
    }
  } catch {
    // an input that cannot be read: nothing more can be answered
  }
  return out;
}
