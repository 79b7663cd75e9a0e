// The memory's schema, grown by plain SQL files in server/storage/migrations/ (`001-….sql`,
// `002-….sql`), applied in the order of their names, each in a transaction of its own and recorded
// in `kiosk_migrations`, on PGlite and PostgreSQL alike. Servers of a fleet that start together take
// turns (an advisory lock), so each file runs once per database.

import { readdirSync, readFileSync } from 'node:fs';
import { MemoryError, oneLine, type Database, type Sql } from './database.ts';

/** Where the SQL files are, beside this one. */
export const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);

/** One migration: its file name (which is its name in the table) and its SQL. */
export interface Migration {
  name: string;
  sql: string;
}

/** The key of the advisory lock the servers of one database take while they migrate it. */
const MIGRATION_LOCK = 7_301_015;

const RECORD_TABLE = `CREATE TABLE IF NOT EXISTS kiosk_migrations (
  name text PRIMARY KEY,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

/** The migration files, in the order they are applied. */
export function readMigrations(dir: URL = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((file) => /^\d{3}-[\w-]+\.sql$/.test(file))
    .sort()
    .map((name) => ({ name, sql: readFileSync(new URL(name, dir), 'utf8') }));
}

/**
 * Brings `db` up to date: applies each migration not yet recorded, in order, and resolves with the
 * names applied now. Rejects with a MemoryError when the database holds a migration this server
 * does not know (a newer server wrote it) or a migration fails.
 */
export async function migrate(db: Database, migrations: readonly Migration[] = readMigrations()): Promise<string[]> {
  const known = new Set(migrations.map((m) => m.name));
  const recorded = await db
    .transaction(async (tx) => {
      await lock(tx);
      await tx.exec(RECORD_TABLE);
      return (await tx.query<{ name: string }>('SELECT name FROM kiosk_migrations ORDER BY name')).map((row) => row.name);
    })
    .catch((error: unknown) => {
      throw new MemoryError(`The memory at ${db.where} could not be read (${oneLine(error)}).`);
    });
  const unknown = recorded.filter((name) => !known.has(name));
  if (unknown.length) {
    throw new MemoryError(`The memory at ${db.where} was written by a newer voice-kiosk (migration ${unknown.join(', ')}): run that version, or point KIOSK_DATA_DIR / DATABASE_URL elsewhere.`);
  }
  const applied: string[] = [];
  for (const migration of migrations) {
    if (recorded.includes(migration.name)) continue;
    const ran = await db.transaction(async (tx) => {
      await lock(tx);
      // Another server may have applied it while this one waited for the lock.
      if ((await tx.query('SELECT 1 FROM kiosk_migrations WHERE name = $1', [migration.name])).length) return false;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO kiosk_migrations (name) VALUES ($1)', [migration.name]);
      return true;
    }).catch((error: unknown) => {
      if (error instanceof MemoryError) throw error;
      throw new MemoryError(`The memory at ${db.where} could not be brought up to date: migration ${migration.name} failed (${oneLine(error)}).`);
    });
    if (ran) applied.push(migration.name);
  }
  return applied;
}

/** Waits for the migration lock; it is let go when the transaction ends. */
async function lock(tx: Sql): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
}
