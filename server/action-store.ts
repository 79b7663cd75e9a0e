// What the action memory promises, whichever database holds it (server/storage/action-memory.ts):
// the actions a server was asked to run, by id, with how each ended. A repeated request (a retry,
// a double tap, a page that sent twice, the same id at another kiosk of the fleet) gets the first
// one's answer and never reaches the target again. Bounded by count and age; the target's data is
// kept a short while only.

/** The error codes of an action that did not succeed. */
export type ActionErrorCode =
  | 'refused_host'
  | 'missing_secret'
  | 'secret_not_allowed'
  | 'unknown_flow'
  | 'flow_origin_not_allowed'
  | 'invalid_flow'
  | 'refused_values'
  | 'timeout'
  | 'network'
  | 'http'
  | 'too_large'
  | 'invalid_json'
  | 'interrupted';

/** The answer `POST /api/actions` gives (with 200) once the action has ended. */
export type ActionAnswer =
  | { action_id: string; ok: true; status: number; data: unknown; replayed?: true; data_forgotten?: true }
  | { action_id: string; ok: false; error: ActionErrorCode; status?: number; message: string; replayed?: true };

/** What `GET /api/actions/<id>` tells: how an action ended (or that it still runs), without its data. */
export type ActionView =
  | { action_id: string; state: 'running'; flow_id: string; tool: string }
  | { action_id: string; state: 'done'; flow_id: string; tool: string; status: number }
  | { action_id: string; state: 'failed'; flow_id: string; tool: string; error: ActionErrorCode; status?: number; message: string };

/** What a request for an id gets from the memory. */
export type Claim =
  /** the id is new: run the action, then `settle` with its answer (exactly once; later calls change nothing) */
  | { kind: 'new'; settle: (answer: ActionAnswer) => Promise<void> }
  /** the same request came before: this is its answer, when it has one */
  | { kind: 'repeat'; answer: Promise<ActionAnswer> }
  /** the id was used for a different request: nothing runs, nothing is told */
  | { kind: 'conflict' };

/** What the memory needs to know of a new action. */
export interface ClaimMeta {
  flowId: string;
  tool: string;
  /**
   * How long it may run before a repeat takes its server for stopped (the action's time-out plus a
   * margin): the repeat then settles it as `interrupted`, and it is never run again.
   */
  leaseMs: number;
}

export interface StoreLimits {
  /** ids remembered at most (the oldest finished ones are forgotten first); default 10 000 */
  maxEntries: number;
  /** how long an id is remembered; default 24 h */
  ttlMs: number;
  /** how long a successful answer's data is kept for repeats; default 10 minutes */
  dataMs: number;
  /** the most data kept in all (the oldest goes first); default 16 MB */
  maxDataBytes: number;
  now: () => number;
}

export const STORE_DEFAULTS: StoreLimits = {
  maxEntries: 10_000,
  ttlMs: 24 * 60 * 60 * 1000,
  dataMs: 10 * 60 * 1000,
  maxDataBytes: 16 * 1024 * 1024,
  now: () => Date.now(),
};

/** What a repeat of an action whose server stopped while it ran is told. */
export const INTERRUPTED_MESSAGE = "The kiosk's server stopped while this action ran; it may or may not have been done.";
