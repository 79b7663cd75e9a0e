// The embedded back end: PGlite (PostgreSQL compiled to WebAssembly) keeping its files in
// KIOSK_DATA_DIR/pglite, so one kiosk needs no database server. PGlite does not notice a second
// process opening the same files (both would write them), so a lock file beside them holds the
// owner's process id (and, where /proc tells it, the boot and the moment that process started):
// a living owner keeps others out; a dead one (kill -9, a power cut), one killed but not yet
// reaped by its parent (a zombie), and another process that has since been given its id do not.

import { PGlite } from '@electric-sql/pglite';
import { accessSync, constants, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MemoryError, oneLine, type Database, type Sql } from './database.ts';

/** PostgreSQL's type id of `bigint` (int8): read as a JS number (the memory's values fit in 2^53). */
const INT8 = 20;
const PARSERS = { [INT8]: (text: string) => Number(text) };

/** The folders this process has open, so that it does not open one twice either. */
const openHere = new Set<string>();

/**
 * Opens (creating when missing) the memory kept in `dataDir`. Rejects with a MemoryError naming
 * KIOSK_DATA_DIR when the folder cannot be made or written, another server has it open, or PGlite
 * cannot start on it.
 */
export async function openPglite(dataDir: string, options: { loadDataDir?: Blob } = {}): Promise<Database> {
  const dir = resolve(dataDir);
  prepareFolder(dir);
  const lock = join(dir, 'memory.lock');
  takeLock(dir, lock);
  let db: PGlite;
  try {
    db = await PGlite.create({ dataDir: join(dir, 'pglite'), parsers: PARSERS, ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}) });
  } catch (error) {
    releaseLock(dir, lock);
    throw new MemoryError(`KIOSK_DATA_DIR: the memory in ${dir} could not be opened (${oneLine(error)}).`);
  }
  return pgliteDatabase(db, `PGlite in ${dir}`, async () => {
    await db.close();
    releaseLock(dir, lock);
  });
}

/** A PGlite kept in this process's memory only (a test's, or a template to copy): gone when closed. */
export async function openPgliteInMemory(options: { loadDataDir?: Blob } = {}): Promise<Database & { dump(): Promise<Blob> }> {
  const db = await PGlite.create({ parsers: PARSERS, ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}) });
  return { ...pgliteDatabase(db, 'PGlite in memory (nothing kept)', () => db.close()), dump: () => db.dumpDataDir('gzip') };
}

function pgliteDatabase(db: PGlite, where: string, close: () => Promise<void>): Database {
  const on = (target: Pick<PGlite, 'query' | 'exec'>): Sql => ({
    query: async <Row>(text: string, params: readonly unknown[] = []) => (await target.query<Row>(text, [...params])).rows,
    exec: async (text: string) => {
      await target.exec(text);
    },
  });
  return {
    ...on(db),
    transaction: (work) => db.transaction((tx) => work(on(tx))),
    where,
    close,
  };
}

function prepareFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new MemoryError(`KIOSK_DATA_DIR: cannot create the folder ${dir} (${(error as NodeJS.ErrnoException).code ?? oneLine(error)}); set KIOSK_DATA_DIR to a folder this user may write.`);
  }
  try {
    accessSync(dir, constants.R_OK | constants.W_OK | constants.X_OK);
  } catch {
    throw new MemoryError(`KIOSK_DATA_DIR: this user may not write in ${dir}; set KIOSK_DATA_DIR to a folder it may write, or give it that right.`);
  }
}

/** Writes this process's id (and who it is: `processIdentity`) into `lock`, unless a living process already holds it. */
function takeLock(dir: string, lock: string): void {
  if (openHere.has(dir)) throw inUse(dir, process.pid);
  const identity = processIdentity(process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lock, `${process.pid}\n${identity ? `${identity}\n` : ''}`, { flag: 'wx' });
      openHere.add(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new MemoryError(`KIOSK_DATA_DIR: cannot write ${lock} (${(error as NodeJS.ErrnoException).code ?? oneLine(error)}); set KIOSK_DATA_DIR to a folder this user may write.`);
      }
    }
    const [pidLine = '', identityLine] = readFileSync(lock, 'utf8').split('\n');
    const owner = Number.parseInt(pidLine, 10);
    if (holdsLock(owner, identityLine?.trim() || undefined)) throw inUse(dir, owner);
    // The owner died without closing (kill -9, a power cut), or is dying: its lock is stale.
    rmSync(lock, { force: true });
  }
  throw inUse(dir, Number.NaN);
}

function releaseLock(dir: string, lock: string): void {
  openHere.delete(dir);
  rmSync(lock, { force: true });
}

/**
 * Whether `pid` is a process that could be using the folder: one that exists, is not a zombie
 * (killed, waiting for its parent to reap it: it runs no more code), and, when the lock says who
 * took it (`identity`), is that very process and not a later one given the same id. This process
 * is not (it checked `openHere`).
 */
function holdsLock(pid: number, identity: string | undefined): boolean {
  // A restarted container gives the new server the pid the old one had: that lock is stale.
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procStat(pid);
  // No /proc to ask: a process that exists holds it. With /proc, one that is not there is gone.
  if (stat === null) return procStat(process.pid) === null;
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return identity === undefined || identity === processIdentity(pid);
}

/** `pid`'s state letter and start time (in clock ticks since boot) from /proc/<pid>/stat, or null without /proc. */
function procStat(pid: number): { state: string; startTime: string } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (name) state ppid …": the name may hold spaces and brackets, so read after the last ")".
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', startTime: fields[19] ?? '' };
  } catch {
    return null;
  }
}

/** Which process `pid` is, beyond its id: this boot of the machine and the moment it started; undefined without /proc. */
function processIdentity(pid: number): string | undefined {
  const stat = procStat(pid);
  if (!stat) return undefined;
  try {
    return `${readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()} ${stat.startTime}`;
  } catch {
    return undefined;
  }
}

function inUse(dir: string, pid: number): MemoryError {
  const who = Number.isInteger(pid) ? ` (process ${pid})` : '';
  return new MemoryError(`KIOSK_DATA_DIR: the memory in ${dir} is in use by another kiosk server${who}; stop it, or set KIOSK_DATA_DIR to another folder.`);
}
