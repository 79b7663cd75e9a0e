// The kiosk server's memory: the one object the rest of the server uses for what must outlive a
// crash or a restart (the action ids, the PIN lock, the outcome counts, the paired devices). Embedded PGlite in
// KIOSK_DATA_DIR by default, a PostgreSQL server when DATABASE_URL is set; the same schema and
// statements on both, brought up to date when the memory opens.

import type { StoreLimits } from '../action-store.ts';
import { ActionMemory } from './action-memory.ts';
import type { Database } from './database.ts';
import { migrate } from './migrations.ts';
import { OutcomeCounts } from './outcome-counts.ts';
import { PairingMemory } from './pairings.ts';
import { PinLockMemory } from './pin-lock.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';
import type { MemorySettings } from './settings.ts';

export interface Memory {
  /** action ids, how each ended, and their answers for repeats */
  readonly actions: ActionMemory;
  /** the operator PIN's lock */
  readonly operatorLock: PinLockMemory;
  /** the outcome counts of the status view */
  readonly counts: OutcomeCounts;
  /** the paired devices, their codes, and the operator panel's sessions */
  readonly pairings: PairingMemory;
  /** the lock on wrong pairing codes */
  readonly pairingLock: PinLockMemory;
  /** where it lives, for the start banner: a folder, or a server and database (never a password) */
  readonly where: string;
  /** closes the database; the memory is not used after */
  close(): Promise<void>;
}

export interface MemoryOptions {
  /** the action memory's bounds and clock (tests make them small and move the clock by hand) */
  actions?: Partial<StoreLimits>;
  /** where a lost idle connection to PostgreSQL is told */
  log?: (line: string) => void;
}

/**
 * Opens the memory `settings` describe and brings its schema up to date. Rejects with a
 * MemoryError (one line, naming KIOSK_DATA_DIR or DATABASE_URL) when it cannot.
 */
export async function openMemory(settings: MemorySettings, options: MemoryOptions = {}): Promise<Memory> {
  const db = settings.kind === 'postgres' ? await openPostgres(settings.url, options.log ? { log: options.log } : {}) : await openPglite(settings.dataDir);
  try {
    await migrate(db);
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
  return memoryOn(db, options);
}

/** The memory kept in `db`, whose schema is up to date (`migrate`); closing it closes `db`. */
export function memoryOn(db: Database, options: MemoryOptions = {}): Memory {
  let closed: Promise<void> | undefined;
  return {
    actions: new ActionMemory(db, options.actions),
    operatorLock: new PinLockMemory(db),
    counts: new OutcomeCounts(db),
    pairings: new PairingMemory(db),
    pairingLock: new PinLockMemory(db, 'pairing'),
    where: db.where,
    close: () => (closed ??= db.close()),
  };
}
