// The outcome counts of the status view in the database (table `outcome_counts`), so that a restart
// does not zero them: what the page reported through /api/analytics (`reported`) and what the
// server itself performed (`performed`), per flow. At most so many flows are counted by name; the
// rest share one bucket, so a page inventing flow ids cannot grow the table without end.

import type { Database } from './database.ts';

/** Whose counts: the page's reports, or the server's own actions. */
export type CountKind = 'reported' | 'performed';

/** The bucket that flows past the limit are counted in (not a valid flow id, so never a real one). */
export const OTHER_FLOWS = '(other flows)';

/** Counts per flow and outcome; `maxFlows` named flows per kind at most. */
export class OutcomeCounts {
  constructor(
    private readonly db: Database,
    private readonly maxFlows = 200,
  ) {}

  /** Counts one `outcome` of `flowId` (in the shared bucket once `maxFlows` other flows are counted). */
  async add(kind: CountKind, flowId: string, outcome: string): Promise<void> {
    await this.db.query(
      `INSERT INTO outcome_counts (kind, flow_id, outcome, count)
       SELECT $1::text, CASE
           WHEN $2::text = $5::text
             OR EXISTS (SELECT 1 FROM outcome_counts WHERE kind = $1::text AND flow_id = $2::text)
             OR (SELECT count(DISTINCT flow_id) FROM outcome_counts WHERE kind = $1::text AND flow_id <> $5::text) < $4::integer
           THEN $2::text ELSE $5::text END,
         $3::text, 1
       ON CONFLICT (kind, flow_id, outcome) DO UPDATE SET count = outcome_counts.count + 1`,
      [kind, flowId, outcome, this.maxFlows, OTHER_FLOWS],
    );
  }

  /** The counts of `kind`, flow by flow, with every one of `outcomes` (0 where none was counted). */
  async read<Outcome extends string>(kind: CountKind, outcomes: readonly Outcome[]): Promise<Record<string, Record<Outcome, number>>> {
    const rows = await this.db.query<{ flow_id: string; outcome: string; count: number }>(
      'SELECT flow_id, outcome, count FROM outcome_counts WHERE kind = $1 ORDER BY flow_id, outcome',
      [kind],
    );
    const counts: Record<string, Record<Outcome, number>> = {};
    for (const row of rows) {
      const flow = (counts[row.flow_id] ??= Object.fromEntries(outcomes.map((o) => [o, 0])) as Record<Outcome, number>);
      flow[row.outcome as Outcome] = row.count;
    }
    return counts;
  }

  /** Since when the counts go back (ISO 8601): when this memory was made. */
  async since(): Promise<string> {
    const [row] = await this.db.query<{ ms: number }>('SELECT floor(extract(epoch FROM since) * 1000)::bigint AS ms FROM counts_since');
    return new Date(row?.ms ?? Date.now()).toISOString();
  }
}
