// The memory's schema from its SQL files: applied in order, each once, recorded with its name; a
// second server (or a restart) applies none again, two servers starting together apply each once,
// a failing file changes nothing and says which it was, and a database a newer server wrote is
// refused with a sentence.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/storage/database.ts';
import { migrate, readMigrations, type Migration } from '../../server/storage/migrations.ts';
import { BACK_END, testPlace, type TestPlace } from '../support/test-memory.ts';

let place: TestPlace;
const opened: Database[] = [];

async function open(): Promise<Database> {
  const db = await place.open();
  opened.push(db);
  return db;
}

beforeAll(async () => {
  place = await testPlace();
});
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
});
afterAll(() => place?.remove());

async function tables(db: Database): Promise<string[]> {
  const rows = await db.query<{ name: string }>("SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename");
  return rows.map((r) => r.name);
}

async function recorded(db: Database): Promise<string[]> {
  return (await db.query<{ name: string }>('SELECT name FROM kiosk_migrations ORDER BY name')).map((r) => r.name);
}

describe(`migrations (${BACK_END})`, () => {
  // The tests run in order on one database: the first finds it empty.
  it('are the numbered .sql files beside the runner, in order', () => {
    const names = readMigrations().map((m) => m.name);
    expect(names[0]).toBe('001-memory.sql');
    expect(names).toEqual([...names].sort());
  });

  it('apply every file to an empty database once, and record each', async () => {
    const db = await open();
    expect(await tables(db)).toEqual([]);
    expect(await migrate(db)).toEqual(readMigrations().map((m) => m.name));
    expect(await tables(db)).toEqual(['action_ids', 'counts_since', 'kiosk_migrations', 'operator_sessions', 'outcome_counts', 'paired_devices', 'pairing_codes', 'pairing_salt', 'pin_lock']);
    expect(await recorded(db)).toEqual(readMigrations().map((m) => m.name));
  });

  it('apply nothing again when the server starts again', async () => {
    const db = await open();
    expect(await migrate(db)).toEqual([]);
    expect((await db.query<{ n: number }>('SELECT count(*)::integer AS n FROM counts_since'))[0]?.n).toBe(1);
  });

  it('apply a new file once, when two servers start at the same time', async () => {
    const extra: Migration[] = [...readMigrations(), { name: '002-notes.sql', sql: 'CREATE TABLE notes (id integer PRIMARY KEY); INSERT INTO notes VALUES (1);' }];
    const a = await open();
    const b = await place.another(a);
    opened.push(b);
    const applied = await Promise.all([migrate(a, extra), migrate(b, extra)]);
    expect(applied.flat()).toEqual(['002-notes.sql']);
    expect(await a.query('SELECT id FROM notes')).toEqual([{ id: 1 }]);
    await a.exec("DROP TABLE notes; DELETE FROM kiosk_migrations WHERE name = '002-notes.sql';");
  });

  it('roll a failing file back whole, record nothing of it, and name it', async () => {
    const db = await open();
    const broken: Migration[] = [...readMigrations(), { name: '002-broken.sql', sql: 'CREATE TABLE half_done (id integer); SELECT no_such_column FROM pin_lock;' }];
    await expect(migrate(db, broken)).rejects.toThrow(/migration 002-broken\.sql failed \(.*no_such_column/);
    expect(await tables(db)).not.toContain('half_done');
    expect(await recorded(db)).not.toContain('002-broken.sql');
  });

  it('refuse a database that a newer server brought further, saying so', async () => {
    const db = await open();
    await db.query("INSERT INTO kiosk_migrations (name) VALUES ('999-from-the-future.sql')");
    await expect(migrate(db)).rejects.toThrow(/written by a newer voice-kiosk \(migration 999-from-the-future\.sql\)/);
    await db.query("DELETE FROM kiosk_migrations WHERE name = '999-from-the-future.sql'");
  });
});
