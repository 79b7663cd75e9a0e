// The visit's actions, between the engine and the kiosk's server: each `action_run` goes to the
// ActionRunner under an id no other visit, reload or kiosk can have (a random visit nonce before
// the engine's own id) and its answer comes back as `action_done`; each outcome is counted, by name
// only. An action is sent once: a failure to reach the server is a failed action, and an action
// whose answer never came (a reload) is asked after, never sent again.

import type { ActionDoneInput, EngineMessage } from '../engine/runtime/messages.ts';
import type { ActionCall, ActionOutcome, ActionOutcomeName, ActionRunner, FlowRef, OutcomeSink } from '../ports/action-runner.ts';
import type { Timers } from '../ports/timers.ts';

/** 16 random bytes in hex: the visit's part of every action id. Works on plain http pages too. */
export function visitNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return `v${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** How often, and how many times, an action still running on the server is asked after. */
const RECOVER_EVERY_MS = 1000;
const RECOVER_TRIES = 90;

const COUNTED: Partial<Record<string, ActionOutcomeName>> = {
  done: 'done',
  failed: 'failed',
  rejected: 'rejected',
  expired: 'expired',
  edited: 'edited',
  replaced: 'replaced',
};

export interface SentAction {
  /** the engine's id */
  actionId: string;
  /** the id the server and the target know it by */
  serverId: string;
  tool: string;
}

export class KioskActions {
  /** proposed and not yet decided: engine id -> tool */
  private readonly proposed = new Map<string, string>();
  private readonly sent = new Map<string, SentAction>();
  private state = '';
  private stopped = false;

  constructor(
    private readonly runner: ActionRunner,
    private readonly sink: OutcomeSink,
    /** the flow the visit runs, as its actions name it to the server */
    private readonly flow: FlowRef,
    /** the answer to one action, for the engine */
    private readonly answer: (done: ActionDoneInput) => void,
    private readonly timers: Timers,
    /** keep it with the visit to ask after its actions once the page has reloaded */
    readonly nonce: string = visitNonce(),
  ) {}

  /** The id the server knows an engine action by. */
  serverId(actionId: string): string {
    return `${this.nonce}.${actionId}`;
  }

  /** Actions sent whose answer has not come back yet. */
  get unanswered(): SentAction[] {
    return [...this.sent.values()];
  }

  /** Reads one batch of the engine's messages: sends what must run, counts what ended. */
  observe(messages: readonly EngineMessage[]): void {
    for (const m of messages) {
      switch (m.type) {
        case 'flow_state':
          this.state = m.state;
          break;
        case 'action_pending':
          this.proposed.set(m.action_id, m.tool);
          this.count(m.tool, 'proposed');
          break;
        case 'action_run':
          this.confirmed(m.action_id, m.tool);
          this.send({ ...this.flow, ...withoutType(m) });
          break;
        case 'action_result': {
          // A write without http is done at once on the yes: confirmed, then done.
          if (m.status === 'done') this.confirmed(m.action_id, m.tool);
          this.proposed.delete(m.action_id);
          const outcome = COUNTED[m.status];
          if (outcome) this.count(m.tool, outcome);
          break;
        }
        default:
          break;
      }
    }
  }

  /**
   * After a reload: asks how an action sent before it ended (`GET /api/actions/<id>`), never
   * sending it again; answers the engine once it knows (unknown to the server: failed).
   */
  recover(action: SentAction): void {
    this.sent.set(action.actionId, action);
    let tries = 0;
    const ask = (): void => {
      const asked = this.runner.lookup(action.serverId).catch((error: unknown) => ({ ok: false as const, error: `the action runner failed (${(error as Error).message})` }));
      void asked.then((found) => {
        if (this.stopped) return;
        if (!('running' in found)) return this.settle(action.actionId, found);
        tries += 1;
        if (tries >= RECOVER_TRIES) return this.settle(action.actionId, { ok: false, error: 'the action was still running on the server after a reload; it is taken as failed' });
        this.timers.schedule(RECOVER_EVERY_MS, ask);
      });
    };
    ask();
  }

  /** The visit is over: answers that come later are dropped. */
  stop(): void {
    this.stopped = true;
    this.proposed.clear();
    this.sent.clear();
  }

  private confirmed(actionId: string, tool: string): void {
    if (!this.proposed.delete(actionId)) return;
    this.count(tool, 'confirmed');
  }

  private send(call: ActionCall): void {
    const action: SentAction = { actionId: call.action_id, serverId: this.serverId(call.action_id), tool: call.tool };
    this.sent.set(action.actionId, action);
    void this.runner.run({ ...call, action_id: action.serverId }).then(
      (outcome) => this.settle(action.actionId, outcome),
      // A runner must not reject; if one does, the action is failed all the same, never re-sent.
      (error: unknown) => this.settle(action.actionId, { ok: false, error: `the action runner failed (${(error as Error).message})` }),
    );
  }

  private settle(actionId: string, outcome: ActionOutcome): void {
    if (this.stopped || !this.sent.delete(actionId)) return;
    this.answer(
      outcome.ok
        ? { type: 'action_done', action_id: actionId, ok: true, data: outcome.data }
        : { type: 'action_done', action_id: actionId, ok: false, error: outcome.error, ...(outcome.status !== undefined ? { status: outcome.status } : {}) },
    );
  }

  private count(tool: string, outcome: ActionOutcomeName): void {
    this.sink.report({ event: 'action', flow_id: this.flow.flow_id, ...(this.state ? { state: this.state } : {}), tool, outcome });
  }
}

/** The engine's `action_run` as a call: everything but its type. */
function withoutType(m: Extract<EngineMessage, { type: 'action_run' }>): Omit<typeof m, 'type'> {
  const { type: _type, ...call } = m;
  return call;
}
