// The action-runner port: who performs a flow's HTTP effect for the page (the kiosk's server, or
// a test's canned answers) and who hears how actions ended. Plain data in and out; the page never
// holds a secret and never calls a target itself.

import type { ActionRunMessage } from '../engine/runtime/messages.ts';

/**
 * One action to perform: the engine's `action_run`, with an id unique across visits and kiosks,
 * and the flow it comes from as the kiosk loaded it (a bundled file, or an address and the
 * version the kiosk's server gave): the server builds the request again from its own copy of it.
 */
export type ActionCall = Omit<ActionRunMessage, 'type'> & FlowRef;

/** Which flow an action belongs to. */
export interface FlowRef {
  flow_id: string;
  /** `flows/<name>.yaml` for a bundled flow, else the address it was loaded from */
  flow_source: string;
  /** the version of a flow from an address, as `/api/flows` named it */
  flow_version?: string;
}

/**
 * How an action ended. `error` is for the model and the log; the visitor never sees it. `status`:
 * the HTTP status the target answered a failure with (a flow may have its own way on for it).
 */
export type ActionOutcome = { ok: true; data: unknown } | { ok: false; error: string; status?: number };

/** What is known of an action whose answer the page never got (after a reload). */
export type ActionLookup = ActionOutcome | { running: true };

export interface ActionRunner {
  /** Performs `call` once; never rejects: a network failure is a failed action, never re-sent. */
  run(call: ActionCall): Promise<ActionOutcome>;
  /** How an action sent earlier ended, without sending it again. Unknown means failed. */
  lookup(actionId: string): Promise<ActionLookup>;
}

/** The outcomes counted for the operator, as the server's /api/analytics takes them. */
export type ActionOutcomeName = 'proposed' | 'confirmed' | 'rejected' | 'edited' | 'expired' | 'replaced' | 'failed' | 'done';

/** An outcome event: names only, never a value or anything the visitor said. */
export interface OutcomeEvent {
  event: 'action';
  flow_id: string;
  /** the state it happened in (absent before the first one is shown) */
  state?: string;
  tool: string;
  outcome: ActionOutcomeName;
}

export interface OutcomeSink {
  /** Sends one event on; never rejects, never blocks the visit. */
  report(event: OutcomeEvent): void;
}
