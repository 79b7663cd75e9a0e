// The locks against guessing in the database (table `pin_lock`, one row per lock: the operator's
// PIN, the pairing codes): wrong tries in a row, how many locks so far, and until when it is
// locked. Kept there, a restart (or a crash a guesser caused) gives no fresh tries, and the servers
// of a fleet share each lock. The rules themselves (how many tries, how long a lock) are
// server/try-lock.ts's.

import type { Database, Sql } from './database.ts';

/** The lock as it stands. */
export interface PinLockState {
  /** wrong PINs in a row since the last lock or the last right PIN */
  wrongTries: number;
  /** locks since the last right PIN (each lasts twice the one before) */
  locks: number;
  /** when the lock runs out, in ms of the gate's clock; 0 or past: not locked */
  lockedUntil: number;
}

/** The lock as it is to be kept, and what the caller is told. */
export interface LockDecision<T> {
  state: PinLockState;
  result: T;
}

interface Row {
  wrong_tries: number;
  locks: number;
  locked_until: number;
}

const UNLOCKED: PinLockState = { wrongTries: 0, locks: 0, lockedUntil: 0 };

/** One lock, named (one kiosk's panel: `operator`; its pairing codes: `pairing`), in `db`. */
export class PinLockMemory {
  constructor(
    private readonly db: Database,
    private readonly name = 'operator',
  ) {}

  /** The lock now. */
  async read(): Promise<PinLockState> {
    const [row] = await this.db.query<Row>('SELECT wrong_tries, locks, locked_until FROM pin_lock WHERE name = $1', [this.name]);
    return row ? state(row) : UNLOCKED;
  }

  /**
   * Decides on the lock with `decide` and keeps what it returns as `state`, all while the lock's
   * row is locked: tries made at the same moment (on this server or another) are counted one
   * after the other, never both against the same count. `decide` may do its own work in the same
   * transaction (`tx`: a pairing code is used up with the try that counts it).
   */
  async change<T>(decide: (now: PinLockState, tx: Sql) => LockDecision<T> | Promise<LockDecision<T>>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.query('INSERT INTO pin_lock (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', [this.name]);
      const [row] = await tx.query<Row>('SELECT wrong_tries, locks, locked_until FROM pin_lock WHERE name = $1 FOR UPDATE', [this.name]);
      const before = row ? state(row) : UNLOCKED;
      const { state: after, result } = await decide(before, tx);
      if (after.wrongTries !== before.wrongTries || after.locks !== before.locks || after.lockedUntil !== before.lockedUntil) {
        await tx.query('UPDATE pin_lock SET wrong_tries = $2, locks = $3, locked_until = $4 WHERE name = $1', [this.name, after.wrongTries, after.locks, after.lockedUntil]);
      }
      return result;
    });
  }

  /** Opens the lock and forgets its count (the operator made a new pairing code). */
  async clear(): Promise<void> {
    await this.db.query('UPDATE pin_lock SET wrong_tries = 0, locks = 0, locked_until = 0 WHERE name = $1', [this.name]);
  }
}

function state(row: Row): PinLockState {
  return { wrongTries: row.wrong_tries, locks: row.locks, lockedUntil: row.locked_until };
}
