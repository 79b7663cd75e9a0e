// The operator PIN's lock in the database (table `pin_lock`): wrong tries in a row, how many locks
// so far, and until when the panel is locked. Kept there, a restart (or a crash a guesser caused)
// gives no fresh tries, and the servers of a fleet share one lock. The rules themselves (how many
// tries, how long a lock) are the operator gate's (server/operator.ts).

import type { Database } from './database.ts';

/** The lock as it stands. */
export interface PinLockState {
  /** wrong PINs in a row since the last lock or the last right PIN */
  wrongTries: number;
  /** locks since the last right PIN (each lasts twice the one before) */
  locks: number;
  /** when the lock runs out, in ms of the gate's clock; 0 or past: not locked */
  lockedUntil: number;
}

interface Row {
  wrong_tries: number;
  locks: number;
  locked_until: number;
}

const UNLOCKED: PinLockState = { wrongTries: 0, locks: 0, lockedUntil: 0 };

/** One lock, named (one kiosk's panel: `operator`), in `db`. */
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
   * after the other, never both against the same count.
   */
  async change<T>(decide: (now: PinLockState) => { state: PinLockState; result: T }): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.query('INSERT INTO pin_lock (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', [this.name]);
      const [row] = await tx.query<Row>('SELECT wrong_tries, locks, locked_until FROM pin_lock WHERE name = $1 FOR UPDATE', [this.name]);
      const before = row ? state(row) : UNLOCKED;
      const { state: after, result } = decide(before);
      if (after.wrongTries !== before.wrongTries || after.locks !== before.locks || after.lockedUntil !== before.lockedUntil) {
        await tx.query('UPDATE pin_lock SET wrong_tries = $2, locks = $3, locked_until = $4 WHERE name = $1', [this.name, after.wrongTries, after.locks, after.lockedUntil]);
      }
      return result;
    });
  }
}

function state(row: Row): PinLockState {
  return { wrongTries: row.wrong_tries, locks: row.locks, lockedUntil: row.locked_until };
}
