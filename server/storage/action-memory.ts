// The action memory in the database (table `action_ids`): each id claimed once between all the
// servers sharing it (INSERT ... ON CONFLICT DO NOTHING decides who runs it), the first answer
// replayed to every repeat, a repeat of a running action waiting for its end, and a running action
// whose server stopped (its lease ran out) settled as failed, never run again. Ids are kept 24 h
// and 10 000 at most (never a running one); answers' data 10 minutes and 16 MB in all, then set
// to NULL in the table (and the table vacuumed, so that the old row versions go too).

import {
  INTERRUPTED_MESSAGE,
  STORE_DEFAULTS,
  type ActionAnswer,
  type ActionView,
  type Claim,
  type ClaimMeta,
  type StoreLimits,
} from '../action-store.ts';
import type { Database } from './database.ts';

/** One row of `action_ids`, as read back. */
interface Row {
  fingerprint: string;
  flow_id: string;
  tool: string;
  lease_until: number | null;
  answer: string | null;
  data: string | null;
  data_dropped: boolean;
}

/** How often a repeat looks again at an action running elsewhere: from the first to the last wait, doubling. */
const FIRST_LOOK_MS = 10;
const LAST_LOOK_MS = 250;

/** The least time between two vacuums of the table by one server. */
const VACUUM_EVERY_MS = 60_000;

/** The key of the advisory lock one server holds while it prunes, so that two never prune at once. */
const PRUNE_LOCK = 7_301_016;

/** Settles every running action whose lease ran out ($1: now) as failed with `interrupted` ($2: the message). */
const INTERRUPT_STOPPED = `UPDATE action_ids SET lease_until = NULL,
    answer = json_build_object('action_id', id, 'ok', false, 'error', 'interrupted', 'message', $2::text)::text
  WHERE answer IS NULL AND lease_until <= $1`;

/** The action ids of every server sharing `db`; one per server (its wake-ups are this server's). */
export class ActionMemory {
  private readonly limits: StoreLimits;
  /** repeats on this server waiting for an id's answer: woken at once when this server settles it */
  private readonly waiting = new Map<string, Set<() => void>>();
  /** when this server last vacuumed the table (its clock) */
  private vacuumedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Database,
    limits: Partial<StoreLimits> = {},
  ) {
    this.limits = { ...STORE_DEFAULTS, ...limits };
  }

  /** How many ids are remembered now (by every server of the database). */
  async size(): Promise<number> {
    await this.prune();
    const [row] = await this.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM action_ids');
    return row?.n ?? 0;
  }

  /** Records `id` for the request with `fingerprint`, or says why it must not run again. */
  async claim(id: string, fingerprint: string, meta: ClaimMeta): Promise<Claim> {
    await this.prune();
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = this.limits.now();
      const inserted = await this.db.query(
        `INSERT INTO action_ids (id, fingerprint, flow_id, tool, created_at, lease_until)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING RETURNING id`,
        [id, fingerprint, meta.flowId, meta.tool, now, now + meta.leaseMs],
      );
      if (inserted.length) {
        await this.prune();
        let settled = false;
        return {
          kind: 'new',
          settle: async (answer) => {
            if (settled) return;
            settled = true;
            await this.settle(id, answer);
          },
        };
      }
      const row = await this.row(id);
      // Forgotten between the two statements (its time ran out): it is new again.
      if (!row) continue;
      if (row.fingerprint !== fingerprint) return { kind: 'conflict' };
      return { kind: 'repeat', answer: this.answerOf(id) };
    }
    throw new Error(`The action id ${id} kept changing while it was claimed.`);
  }

  /** How the action `id` ended, or undefined when no server of this database knows it (any more). */
  async view(id: string): Promise<ActionView | undefined> {
    await this.prune();
    const row = await this.row(id);
    if (!row) return undefined;
    const base = { action_id: id, flow_id: row.flow_id, tool: row.tool };
    if (row.answer === null) return { ...base, state: 'running' };
    const answer = JSON.parse(row.answer) as ActionAnswer;
    if (answer.ok) return { ...base, state: 'done', status: answer.status };
    const failed: ActionView = { ...base, state: 'failed', error: answer.error, message: answer.message };
    if (answer.status !== undefined) failed.status = answer.status;
    return failed;
  }

  /** Records how `id` ended (once: a row already settled, by a lease running out, keeps its answer). */
  private async settle(id: string, answer: ActionAnswer): Promise<void> {
    let data: string | null = null;
    let dropped = false;
    if (answer.ok && answer.data !== null && answer.data !== undefined) {
      try {
        data = JSON.stringify(answer.data);
      } catch {
        // Data that cannot be written down (nested too deep) is not kept; a repeat is told so.
        dropped = true;
      }
    }
    const stored = JSON.stringify(answer.ok ? { ...answer, data: null } : answer);
    const bytes = data === null ? 0 : Buffer.byteLength(data);
    try {
      await this.db.query(
        `UPDATE action_ids SET answer = $2, lease_until = NULL, data = $3, data_bytes = $4, data_dropped = $6,
           data_until = CASE WHEN $3::text IS NULL THEN NULL ELSE $5::bigint END,
           data_order = CASE WHEN $3::text IS NULL THEN NULL ELSE nextval('action_data_order') END
         WHERE id = $1 AND answer IS NULL`,
        [id, stored, data, bytes, this.limits.now() + this.limits.dataMs, dropped],
      );
    } finally {
      this.wake(id);
    }
    await this.prune();
  }

  /** The answer a repeat of `id` gets: at once when it has ended, else once it ends (here or on another server). */
  private async answerOf(id: string): Promise<ActionAnswer> {
    let wait = FIRST_LOOK_MS;
    for (;;) {
      const row = await this.row(id);
      if (!row) return forgotten(id);
      if (row.answer !== null) return replay(row);
      if (row.lease_until !== null && row.lease_until <= this.limits.now()) {
        await this.interruptStopped();
        continue;
      }
      await this.nap(id, wait);
      wait = Math.min(wait * 2, LAST_LOOK_MS);
    }
  }

  private async row(id: string): Promise<Row | undefined> {
    const rows = await this.db.query<Row>('SELECT fingerprint, flow_id, tool, lease_until, answer, data, data_dropped FROM action_ids WHERE id = $1', [id]);
    return rows[0];
  }

  /** Waits `ms`, or less when this server settles `id` meanwhile. */
  private nap(id: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.waiting.get(id) ?? new Set<() => void>();
      this.waiting.set(id, waiters);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0) this.waiting.delete(id);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waiters.add(done);
    });
  }

  private wake(id: string): void {
    for (const done of [...(this.waiting.get(id) ?? [])]) done();
  }

  /** Settles as `interrupted` every running action whose lease has run out: its server stopped. */
  private async interruptStopped(): Promise<void> {
    await this.db.query(INTERRUPT_STOPPED, [this.limits.now(), INTERRUPTED_MESSAGE]);
  }

  /**
   * Applies the bounds: stopped actions settled, data past its time or beyond the byte limit set to
   * NULL (the oldest first), finished ids past their age or beyond the count deleted (the oldest
   * first). One server at a time prunes; another that finds it busy leaves the work to it. When
   * data was let go, the table is vacuumed (at most once a minute): the old versions of its rows
   * are removed and their room reused, which PGlite, having no autovacuum, would never do.
   */
  private async prune(): Promise<void> {
    const { maxDataBytes, ttlMs, maxEntries } = this.limits;
    const now = this.limits.now();
    const dropped = await this.db.transaction(async (tx) => {
      const [free] = await tx.query<{ free: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS free', [PRUNE_LOCK]);
      if (!free?.free) return 0;
      await tx.query(INTERRUPT_STOPPED, [now, INTERRUPTED_MESSAGE]);
      const letGo = await tx.query(
        `UPDATE action_ids SET data = NULL, data_bytes = 0, data_until = NULL, data_order = NULL, data_dropped = true
         WHERE data IS NOT NULL AND (data_until <= $1 OR id IN (
           SELECT id FROM (SELECT id, sum(data_bytes) OVER (ORDER BY data_order DESC) AS newer FROM action_ids WHERE data IS NOT NULL) kept
           WHERE newer > $2))
         RETURNING id`,
        [now, maxDataBytes],
      );
      await tx.query('DELETE FROM action_ids WHERE answer IS NOT NULL AND created_at <= $1', [now - ttlMs]);
      // An action still running keeps its id: a repeat must wait for it, not run it again.
      await tx.query(
        `DELETE FROM action_ids WHERE id IN (
           SELECT id FROM action_ids WHERE answer IS NOT NULL ORDER BY seq
           LIMIT GREATEST(0, (SELECT count(*) FROM action_ids) - $1::bigint))`,
        [maxEntries],
      );
      return letGo.length;
    });
    if (dropped > 0 && now - this.vacuumedAt >= VACUUM_EVERY_MS) {
      this.vacuumedAt = now;
      await this.db.exec('VACUUM action_ids');
    }
  }
}

/** The stored answer for a repeat: marked as such, with its data while kept, and saying so once it is not. */
function replay(row: Row): ActionAnswer {
  const answer = JSON.parse(row.answer!) as ActionAnswer;
  if (answer.ok && row.data !== null) return { ...answer, data: JSON.parse(row.data) as unknown, replayed: true };
  if (answer.ok && row.data_dropped) return { ...answer, data: null, data_forgotten: true, replayed: true };
  return { ...answer, replayed: true };
}

/** What a repeat is told when the id it waited on was forgotten meanwhile (a running id never is: only a bug gets here). */
function forgotten(id: string): ActionAnswer {
  return { action_id: id, ok: false, error: 'interrupted', message: INTERRUPTED_MESSAGE, replayed: true };
}
