// The kiosk's memory for tests, without paying PGlite's start-up again and again: PGlite's initdb
// takes seconds (tens on a busy machine), so its empty database is made once per machine and
// PGlite version and kept in node_modules/.cache, and each test starts from a copy of it.
//
// - emptyTestMemory(): for tests of something else (the API, the pages) that need a server's
//   memory: one in-memory PGlite per process, emptied each time it is handed out. One test at a
//   time uses it (vitest and Playwright run a worker's tests one after another).
// - testPlace(): for the storage tests: a database of their own, opened and reopened as a restart
//   would: PGlite in a fresh temp folder, or, when TEST_DATABASE_URL is set, a new database created
//   on that PostgreSQL server (dropped again by `remove`).

import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Database } from '../../server/storage/database.ts';
import { memoryOn, type Memory, type MemoryOptions } from '../../server/storage/memory.ts';
import { migrate } from '../../server/storage/migrations.ts';
import { openPglite, openPgliteInMemory } from '../../server/storage/pglite.ts';
import { openPostgres } from '../../server/storage/postgres.ts';
import type { MemorySettings } from '../../server/storage/settings.ts';

const ROOT = new URL('../../', import.meta.url);
const PGLITE_VERSION = (JSON.parse(readFileSync(new URL('node_modules/@electric-sql/pglite/package.json', ROOT), 'utf8')) as { version: string }).version;
const CACHE = new URL('node_modules/.cache/voice-kiosk/', ROOT);
const TEMPLATE = new URL(`pglite-${PGLITE_VERSION}-empty.tar.gz`, CACHE);

let template: Promise<Blob> | undefined;

/** The files of an empty PGlite database (initdb done, no migration applied). */
export function pgliteTemplate(): Promise<Blob> {
  template ??= (async () => {
    if (existsSync(TEMPLATE)) return new Blob([readFileSync(TEMPLATE)]);
    const db = await openPgliteInMemory();
    const files = await db.dump();
    await db.close();
    mkdirSync(CACHE, { recursive: true });
    // Written aside and renamed, so that a process reading it never sees half of it.
    const aside = new URL(`${TEMPLATE.pathname.split('/').pop()!}.${process.pid}.tmp`, CACHE);
    writeFileSync(aside, Buffer.from(await files.arrayBuffer()));
    renameSync(aside, TEMPLATE);
    return files;
  })();
  return template;
}

const FOLDER = new URL(`pglite-${PGLITE_VERSION}-folder/`, CACHE);

/**
 * Makes `dir` an empty PGlite memory folder (initdb done, no migration applied, no lock), as
 * `openPglite` leaves one it made and closed: copied from one made once per machine and PGlite
 * version, which is cheaper than loading the template again (about 0.5 s of CPU instead of 3).
 */
export async function emptyPgliteFolder(dir: string): Promise<void> {
  const folder = fileURLToPath(FOLDER);
  if (!existsSync(folder)) {
    const aside = `${folder.replace(/\/$/, '')}.${process.pid}.tmp`;
    await (await openPglite(aside, { loadDataDir: await pgliteTemplate() })).close();
    // Renamed whole, so that a process copying it never sees half of it; another may have won.
    try {
      renameSync(aside, folder);
    } catch {
      rmSync(aside, { recursive: true, force: true });
    }
  }
  cpSync(folder, dir, { recursive: true });
}

/** The tables emptyDatabase empties: every one of the memory's but counts_since, which it restarts. */
const TABLES = ['action_ids', 'pin_lock', 'outcome_counts', 'paired_devices', 'pairing_codes', 'pairing_salt', 'operator_sessions'];

/**
 * Empties every table of the memory and starts its counts again from now. DELETE, not TRUNCATE:
 * on tables this small it does the same at a thirtieth of the cost (PGlite: 2 ms against 66 ms
 * of CPU), and the tests empty the memory at every server they start.
 */
export async function emptyDatabase(db: Database): Promise<void> {
  await db.exec(`${TABLES.map((t) => `DELETE FROM ${t};`).join(' ')} UPDATE counts_since SET since = now();`);
}

let shared: Promise<Database> | undefined;

/**
 * An empty memory for a test of something else (closing it changes nothing: the database stays
 * for the next test of this process). Whatever an earlier test left in it is gone.
 */
export async function emptyTestMemory(options: MemoryOptions = {}): Promise<Memory> {
  shared ??= (async () => {
    const db = await openPgliteInMemory({ loadDataDir: await pgliteTemplate() });
    await migrate(db);
    return db;
  })();
  const db = await shared;
  await emptyDatabase(db);
  return { ...memoryOn(db, options), close: async () => {} };
}

/** The database behind the memory emptyTestMemory handed out last, for a test that reads its tables as they are. */
export function testDatabase(): Promise<Database> {
  if (!shared) throw new Error('emptyTestMemory() first');
  return shared;
}

/** A database of a storage test's own, which it may open, close and open again. */
export interface TestPlace {
  /** what a server would be started with to use it */
  settings: MemorySettings;
  /** opens it (a new PGlite on the folder, or a new connection pool), as a server starting would */
  open(): Promise<Database>;
  /**
   * What another server of a fleet would have beside `first` (open): its own connection pool on
   * PostgreSQL; on PGlite, which one process alone may open, `first` itself (closing it there does nothing).
   */
  another(first: Database): Promise<Database>;
  /** deletes it (close what you opened first) */
  remove(): Promise<void>;
}

/** The environment variable that points the storage tests at a PostgreSQL server (a user who may create databases). */
export const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL']?.trim() || undefined;

/** Which back end the storage tests run on, for their titles. */
export const BACK_END = TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite';

let places = 0;

/** A new, empty (unmigrated) database: a PGlite folder, or a PostgreSQL database when TEST_DATABASE_URL is set. */
export async function testPlace(): Promise<TestPlace> {
  if (TEST_DATABASE_URL) return postgresPlace(TEST_DATABASE_URL);
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-memory-'));
  // The folder starts as a copy of an empty one instead of running initdb again.
  await emptyPgliteFolder(dir);
  return {
    settings: { kind: 'pglite', dataDir: dir },
    open: () => openPglite(dir),
    another: async (first) => ({ ...first, close: async () => {} }),
    remove: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresPlace(adminUrl: string): Promise<TestPlace> {
  const name = `kiosk_test_${process.pid}_${++places}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    settings: { kind: 'postgres', url: url.href },
    open: () => openPostgres(url.href),
    another: () => openPostgres(url.href),
    remove: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
