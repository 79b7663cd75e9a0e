// The actions this server was asked to run, by id, with how each ended: a repeated request (a
// retry, a double tap, a page that sent twice) gets the first one's answer and never reaches the
// target again. In memory only, bounded by count and age; the target's data is kept a short while.

/** The error codes of an action that did not succeed. */
export type ActionErrorCode =
  | 'refused_host'
  | 'missing_secret'
  | 'secret_not_allowed'
  | 'unknown_flow'
  | 'invalid_flow'
  | 'refused_values'
  | 'timeout'
  | 'network'
  | 'http'
  | 'too_large'
  | 'invalid_json';

/** The answer `POST /api/actions` gives (with 200) once the action has ended. */
export type ActionAnswer =
  | { action_id: string; ok: true; status: number; data: unknown; replayed?: true; data_forgotten?: true }
  | { action_id: string; ok: false; error: ActionErrorCode; status?: number; message: string; replayed?: true };

/** What `GET /api/actions/<id>` tells: how an action ended (or that it still runs), without its data. */
export type ActionView =
  | { action_id: string; state: 'running'; flow_id: string; tool: string }
  | { action_id: string; state: 'done'; flow_id: string; tool: string; status: number }
  | { action_id: string; state: 'failed'; flow_id: string; tool: string; error: ActionErrorCode; status?: number; message: string };

/** What a request for an id gets from the store. */
export type Claim =
  /** the id is new: run the action, then `settle` with its answer (exactly once) */
  | { kind: 'new'; settle: (answer: ActionAnswer) => void }
  /** the same request came before: this is its answer, when it has one */
  | { kind: 'repeat'; answer: Promise<ActionAnswer> }
  /** the id was used for a different request: nothing runs, nothing is told */
  | { kind: 'conflict' };

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

interface Entry {
  id: string;
  fingerprint: string;
  flowId: string;
  tool: string;
  createdAt: number;
  /** set once the action has ended */
  answer?: ActionAnswer;
  settled: Promise<ActionAnswer>;
  dataBytes: number;
  dataUntil: number;
  /** the data was let go (its time passed, or room was needed) */
  dataDropped: boolean;
}

/** The in-memory record of action ids; one per server. */
export class ActionStore {
  private readonly limits: StoreLimits;
  /** every id, oldest first (Map keeps insertion order) */
  private readonly entries = new Map<string, Entry>();
  /** the entries still holding data, in the order they got it */
  private readonly holdingData = new Map<string, Entry>();
  private dataBytes = 0;

  constructor(limits: Partial<StoreLimits> = {}) {
    this.limits = { ...STORE_DEFAULTS, ...limits };
  }

  /** How many ids are remembered now. */
  get size(): number {
    this.prune();
    return this.entries.size;
  }

  /** Records `id` for the request with `fingerprint`, or says why it must not run again. */
  claim(id: string, fingerprint: string, meta: { flowId: string; tool: string }): Claim {
    this.prune();
    const known = this.entries.get(id);
    if (known) {
      if (known.fingerprint !== fingerprint) return { kind: 'conflict' };
      return { kind: 'repeat', answer: known.answer ? Promise.resolve(this.replay(known)) : known.settled.then(() => this.replay(known)) };
    }
    let resolveSettled!: (answer: ActionAnswer) => void;
    const entry: Entry = {
      id,
      fingerprint,
      flowId: meta.flowId,
      tool: meta.tool,
      createdAt: this.limits.now(),
      settled: new Promise((resolve) => (resolveSettled = resolve)),
      dataBytes: 0,
      dataUntil: 0,
      dataDropped: false,
    };
    this.entries.set(id, entry);
    this.prune();
    return {
      kind: 'new',
      settle: (answer) => {
        if (entry.answer) return;
        entry.answer = answer;
        if (answer.ok && answer.data !== null && this.entries.get(id) === entry) {
          entry.dataBytes = Buffer.byteLength(JSON.stringify(answer.data) ?? '');
          entry.dataUntil = this.limits.now() + this.limits.dataMs;
          this.holdingData.set(id, entry);
          this.dataBytes += entry.dataBytes;
        }
        resolveSettled(answer);
        this.prune();
      },
    };
  }

  /** How the action `id` ended, or undefined when this server does not know it (any more). */
  view(id: string): ActionView | undefined {
    this.prune();
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const base = { action_id: id, flow_id: entry.flowId, tool: entry.tool };
    const answer = entry.answer;
    if (!answer) return { ...base, state: 'running' };
    if (answer.ok) return { ...base, state: 'done', status: answer.status };
    const failed: ActionView = { ...base, state: 'failed', error: answer.error, message: answer.message };
    if (answer.status !== undefined) failed.status = answer.status;
    return failed;
  }

  /** The stored answer for a repeat: marked as such, and without data once that was dropped. */
  private replay(entry: Entry): ActionAnswer {
    const answer = entry.answer!;
    if (answer.ok && entry.dataDropped) {
      return { ...answer, data: null, data_forgotten: true, replayed: true };
    }
    return { ...answer, replayed: true };
  }

  /** Forgets ids past their age and beyond the count, and data past its time or the byte limit. */
  private prune(): void {
    const now = this.limits.now();
    for (const entry of this.holdingData.values()) {
      if (entry.dataUntil > now && this.dataBytes <= this.limits.maxDataBytes) break;
      this.dropData(entry);
    }
    for (const entry of this.entries.values()) {
      if (entry.createdAt + this.limits.ttlMs > now) break;
      if (entry.answer) this.forget(entry);
    }
    if (this.entries.size <= this.limits.maxEntries) return;
    for (const entry of this.entries.values()) {
      if (this.entries.size <= this.limits.maxEntries) break;
      // An action still running keeps its id: a repeat must wait for it, not run it again.
      if (entry.answer) this.forget(entry);
    }
  }

  private forget(entry: Entry): void {
    this.dropData(entry);
    this.entries.delete(entry.id);
  }

  private dropData(entry: Entry): void {
    if (!this.holdingData.delete(entry.id)) return;
    this.dataBytes -= entry.dataBytes;
    entry.dataDropped = true;
    // The answer keeps its shape for repeats; the data itself is let go.
    if (entry.answer?.ok) entry.answer = { ...entry.answer, data: null };
  }
}
