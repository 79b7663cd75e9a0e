// The fleet's back end: a PostgreSQL server reached through `pg` at DATABASE_URL. Several kiosks'
// servers share it, so what one remembers (an action id, the PIN lock, the counts) holds for all;
// the statements are the same as on PGlite, and the rows they lock are locked for every server.

import pg from 'pg';
import { MemoryError, oneLine, type Database, type Sql } from './database.ts';

/** PostgreSQL's type id of `bigint` (int8): read as a JS number, as on PGlite (the memory's values fit in 2^53). */
const INT8 = 20;
const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 ? (text: string) => Number(text) : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

/** The server and database `url` names, without the user or password: `db.example:5432/kiosk`. */
export function describeDatabaseUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}${parsed.pathname.length > 1 ? parsed.pathname : ''}`;
}

/**
 * Connects to the PostgreSQL server at `url` and checks that it answers. Rejects with a
 * MemoryError naming DATABASE_URL (and the host, never the password) when it does not.
 */
export async function openPostgres(url: string, options: { log?: (line: string) => void } = {}): Promise<Database> {
  const name = describeDatabaseUrl(url);
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000, idleTimeoutMillis: 30_000, types: TYPES, application_name: 'voice-kiosk' });
  // A connection the server drops while idle (a restart, a fail-over) is let go by the pool; the
  // next statement opens another. Unhandled, that event would end the process.
  pool.on('error', (error) => options.log?.(`[memory] lost an idle connection to ${name}: ${describe(error)}`));
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => {});
    throw new MemoryError(`DATABASE_URL: the database ${name} cannot be reached (${describe(error)}).`);
  }
  const on = (client: pg.Pool | pg.PoolClient): Sql => ({
    query: async <Row>(text: string, params: readonly unknown[] = []) => (await client.query(text, [...params])).rows as Row[],
    exec: async (text: string) => {
      await client.query(text);
    },
  });
  return {
    ...on(pool),
    transaction: async (work) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(on(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    where: `PostgreSQL at ${name}`,
    close: () => pool.end(),
  };
}

/** A connection error in words: Node gives an AggregateError with no message when every address refused. */
function describe(error: unknown): string {
  const inner = error instanceof AggregateError ? error.errors[0] : error;
  const code = (inner as NodeJS.ErrnoException | undefined)?.code;
  const message = oneLine(inner);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
