// Opening the memory: where the settings put it, the folder made when missing, and a clear line
// for each way it cannot open (a folder it may not write, a folder another server has open, a
// database that does not answer), naming the setting and never a password.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../server/config.ts';
import { MemoryError } from '../../server/storage/database.ts';
import { openMemory } from '../../server/storage/memory.ts';
import { openPglite } from '../../server/storage/pglite.ts';
import { readMemorySettings } from '../../server/storage/settings.ts';
import { emptyPgliteFolder, pgliteTemplate } from '../support/test-memory.ts';

const scratch = mkdtempSync(join(tmpdir(), 'kiosk-opening-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The process id a memory folder's lock names (its first line). */
function lockOwner(dir: string): string | undefined {
  return readFileSync(join(dir, 'memory.lock'), 'utf8').split('\n')[0];
}

/** What opening `run` rejected with: its message, which must be a MemoryError's single line. */
async function refusal(run: () => Promise<unknown>): Promise<string> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MemoryError);
  const message = (error as Error).message;
  expect(message).not.toContain('\n');
  return message;
}

describe('where the memory lives', () => {
  it('is ./data of the folder the server starts in, unless KIOSK_DATA_DIR says otherwise', () => {
    expect(readMemorySettings({}, '/srv/kiosk')).toEqual({ kind: 'pglite', dataDir: resolve('/srv/kiosk/data') });
    expect(readMemorySettings({ KIOSK_DATA_DIR: 'var/memory' }, '/srv/kiosk')).toEqual({ kind: 'pglite', dataDir: resolve('/srv/kiosk/var/memory') });
    expect(readMemorySettings({ KIOSK_DATA_DIR: '/var/lib/kiosk ' }, '/srv/kiosk')).toEqual({ kind: 'pglite', dataDir: '/var/lib/kiosk' });
  });

  it('is the PostgreSQL server of DATABASE_URL when that is set, whatever KIOSK_DATA_DIR says', () => {
    const url = 'postgres://kiosk:pw@db.clinic.example:5433/kiosk';
    expect(readMemorySettings({ DATABASE_URL: url, KIOSK_DATA_DIR: '/x' })).toEqual({ kind: 'postgres', url });
    expect(readMemorySettings({ DATABASE_URL: '  ' }, '/srv')).toEqual({ kind: 'pglite', dataDir: resolve('/srv/data') });
  });

  it.each(['mysql://kiosk:hunter2pw@db/kiosk', 'db.example:5432', 'postgres://'])('refuses DATABASE_URL=%s, without repeating it', (url) => {
    expect(() => readMemorySettings({ DATABASE_URL: url })).toThrow(ConfigError);
    expect(() => readMemorySettings({ DATABASE_URL: url })).toThrow(/^DATABASE_URL must be a PostgreSQL URL/);
    try {
      readMemorySettings({ DATABASE_URL: url });
    } catch (error) {
      expect((error as Error).message).not.toContain('hunter2pw');
    }
  });
});

describe('opening the memory', () => {
  it('makes the folder when it is missing, and keeps its lock there while open', async () => {
    const dir = join(scratch, 'new', 'deeper');
    const db = await openPglite(dir, { loadDataDir: await pgliteTemplate() });
    expect(lockOwner(dir)).toBe(String(process.pid));
    expect(db.where).toBe(`PGlite in ${dir}`);
    await db.close();
    expect(existsSync(join(dir, 'memory.lock'))).toBe(false);
    expect(existsSync(join(dir, 'pglite', 'PG_VERSION'))).toBe(true);
  });

  it('says so when KIOSK_DATA_DIR cannot be made', async () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, 'not a folder');
    const message = await refusal(() => openMemory({ kind: 'pglite', dataDir: join(file, 'data') }));
    expect(message).toMatch(/^KIOSK_DATA_DIR: cannot create the folder .*a-file\/data \(ENOTDIR\); set KIOSK_DATA_DIR to a folder this user may write\.$/);
  });

  it('refuses a folder another server of this process has open, and takes it once closed', async () => {
    const dir = join(scratch, 'shared');
    await emptyPgliteFolder(dir);
    const db = await openPglite(dir);
    expect(await refusal(() => openPglite(dir))).toBe(`KIOSK_DATA_DIR: the memory in ${dir} is in use by another kiosk server (process ${process.pid}); stop it, or set KIOSK_DATA_DIR to another folder.`);
    await db.close();
    await (await openPglite(dir)).close();
  });

  it('refuses a folder a living process holds, and takes over from one that died (kill -9, a power cut)', async () => {
    const dir = join(scratch, 'held');
    await emptyPgliteFolder(dir);
    // The parent of this test process is alive; a process that ran and ended is not.
    writeFileSync(join(dir, 'memory.lock'), `${process.ppid}\n`);
    expect(await refusal(() => openPglite(dir))).toContain(`is in use by another kiosk server (process ${process.ppid})`);
    const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(join(dir, 'memory.lock'), `${ended.stdout}\n`);
    const db = await openPglite(dir);
    expect(lockOwner(dir)).toBe(String(process.pid));
    await db.close();
  });

  it('says which process took the lock, so that another one given its id later (after a restart of the machine) holds nothing', async () => {
    const dir = join(scratch, 'reused');
    await emptyPgliteFolder(dir);
    const db = await openPglite(dir);
    const [, identity] = readFileSync(join(dir, 'memory.lock'), 'utf8').split('\n');
    expect(identity).toMatch(/^[0-9a-f-]{36} \d+$/);
    await db.close();
    // The parent of this test process is alive, but it is not the process that took this lock.
    writeFileSync(join(dir, 'memory.lock'), `${process.ppid}\n${identity!.split(' ')[0]} 1\n`);
    await (await openPglite(dir)).close();
    // The same id with its own identity holds it.
    const parent = readFileSync(`/proc/${process.ppid}/stat`, 'utf8');
    writeFileSync(join(dir, 'memory.lock'), `${process.ppid}\n${identity!.split(' ')[0]} ${parent.slice(parent.lastIndexOf(')') + 2).split(' ')[19]}\n`);
    expect(await refusal(() => openPglite(dir))).toContain(`(process ${process.ppid})`);
  });

  it('says so when the database of DATABASE_URL does not answer, naming its host and never the password', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((done) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => done(free));
      });
    });
    const message = await refusal(() => openMemory({ kind: 'postgres', url: `postgres://kiosk:s3cret-pw@127.0.0.1:${port}/kiosk` }));
    expect(message).toMatch(new RegExp(`^DATABASE_URL: the database 127\\.0\\.0\\.1:${port}/kiosk cannot be reached \\(connect ECONNREFUSED`));
    expect(message).not.toContain('s3cret-pw');
  });
});
