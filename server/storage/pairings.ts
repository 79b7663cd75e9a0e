// The paired devices, their pairing codes and the operator panel's sessions in the database
// (tables `paired_devices`, `pairing_codes`, `pairing_salt`, `operator_sessions`), so that a
// restart forgets no pairing and the servers of a fleet share them. Only hashes are stored; the
// rules (how codes look, how long they last, the lock on wrong ones) are server/pairing.ts's.

import type { Database, Sql } from './database.ts';

/** A device as the operator sees it (no credential, not even its hash). */
export interface PairedDevice {
  name: string;
  /** ms since 1970 */
  pairedAt: number;
  lastSeen: number;
}

/** What a credential's hash stands for. */
export type DeviceLookup = { kind: 'paired'; id: number; name: string; lastSeen: number } | { kind: 'revoked'; name: string } | { kind: 'unknown' };

/** What became of a code's hash when it was tried. */
export type CodeUse = { kind: 'paired'; name: string } | { kind: 'unknown' } | { kind: 'used' } | { kind: 'expired' } | { kind: 'name_taken'; name: string };

/** How long a used or expired code is remembered (to say so to a second try), and a revoked device (its cookie's longest life). */
const USED_CODES_KEPT_MS = 24 * 3_600_000;
export const REVOKED_KEPT_MS = 400 * 24 * 3_600_000;

interface DeviceRow {
  id: number;
  name: string;
  paired_at: number;
  last_seen: number;
  revoked_at: number | null;
}

/** The pairings of every server sharing `db`. */
export class PairingMemory {
  constructor(private readonly db: Database) {}

  /** The salt the codes are hashed with; made (once for the database) when there is none yet. */
  async salt(fresh: () => string): Promise<string> {
    await this.db.query('INSERT INTO pairing_salt (salt) VALUES ($1) ON CONFLICT (one) DO NOTHING', [fresh()]);
    const [row] = await this.db.query<{ salt: string }>('SELECT salt FROM pairing_salt');
    return row!.salt;
  }

  /**
   * Keeps a new code for the device `name`, in place of any code for that name not yet used. Says
   * `name_taken` (and keeps nothing) when a paired device already has the name.
   */
  async addCode(codeHash: string, name: string, now: number, expiresAt: number): Promise<'kept' | 'name_taken'> {
    return this.db.transaction(async (tx) => {
      await tx.query('DELETE FROM pairing_codes WHERE created_at <= $1', [now - USED_CODES_KEPT_MS]);
      if (await activeNamed(tx, name)) return 'name_taken';
      await tx.query('DELETE FROM pairing_codes WHERE lower(name) = lower($1) AND used_at IS NULL', [name]);
      await tx.query('INSERT INTO pairing_codes (code_hash, name, created_at, expires_at) VALUES ($1, $2, $3, $4)', [codeHash, name, now, expiresAt]);
      return 'kept';
    });
  }

  /** The codes still waiting to be used, soonest to run out first. */
  async openCodes(now: number): Promise<{ name: string; expiresAt: number }[]> {
    const rows = await this.db.query<{ name: string; expires_at: number }>('SELECT name, expires_at FROM pairing_codes WHERE used_at IS NULL AND expires_at > $1 ORDER BY expires_at', [now]);
    return rows.map((row) => ({ name: row.name, expiresAt: row.expires_at }));
  }

  /**
   * Uses the code whose hash is `codeHash`, on `tx` (the pairing lock's transaction): a device named
   * as the code says is paired with the credential whose hash is `tokenHash`. A code that is
   * unknown, used, or out of time pairs nothing. `replaces`, the hash of a credential the device
   * held before, is revoked: the same browser paired again.
   */
  async useCode(tx: Sql, codeHash: string, tokenHash: string, now: number, replaces?: string): Promise<CodeUse> {
    const [code] = await tx.query<{ name: string; expires_at: number; used_at: number | null }>('SELECT name, expires_at, used_at FROM pairing_codes WHERE code_hash = $1 FOR UPDATE', [codeHash]);
    if (!code) return { kind: 'unknown' };
    if (code.used_at !== null) return { kind: 'used' };
    if (code.expires_at <= now) return { kind: 'expired' };
    // Made before another device took the name (codes for a name in use are refused): it waits.
    if (await activeNamed(tx, code.name)) return { kind: 'name_taken', name: code.name };
    if (replaces !== undefined) await tx.query('UPDATE paired_devices SET revoked_at = $2 WHERE token_hash = $1 AND revoked_at IS NULL', [replaces, now]);
    await tx.query('UPDATE pairing_codes SET used_at = $2 WHERE code_hash = $1', [codeHash, now]);
    await tx.query('INSERT INTO paired_devices (name, token_hash, paired_at, last_seen) VALUES ($1, $2, $3, $3)', [code.name, tokenHash, now]);
    return { kind: 'paired', name: code.name };
  }

  /** Who holds the credential whose hash is `tokenHash`. */
  async lookup(tokenHash: string): Promise<DeviceLookup> {
    const [row] = await this.db.query<DeviceRow>('SELECT id, name, paired_at, last_seen, revoked_at FROM paired_devices WHERE token_hash = $1', [tokenHash]);
    if (!row) return { kind: 'unknown' };
    if (row.revoked_at !== null) return { kind: 'revoked', name: row.name };
    return { kind: 'paired', id: row.id, name: row.name, lastSeen: row.last_seen };
  }

  /** Notes that the device `id` was seen at `now`, unless it was seen within `everyMs`; true when noted. */
  async seen(id: number, now: number, everyMs: number): Promise<boolean> {
    const rows = await this.db.query('UPDATE paired_devices SET last_seen = $2 WHERE id = $1 AND revoked_at IS NULL AND last_seen <= $3 RETURNING id', [id, now, now - everyMs]);
    return rows.length > 0;
  }

  /** The paired devices (not those revoked), by name. */
  async devices(): Promise<PairedDevice[]> {
    const rows = await this.db.query<DeviceRow>('SELECT id, name, paired_at, last_seen, revoked_at FROM paired_devices WHERE revoked_at IS NULL ORDER BY lower(name)');
    return rows.map((row) => ({ name: row.name, pairedAt: row.paired_at, lastSeen: row.last_seen }));
  }

  /**
   * Revokes the device called `name` (in any case); resolves with its name as it was paired, or
   * null when no paired device has that name. A code for the name not yet used is dropped too.
   */
  async revoke(name: string, now: number): Promise<string | null> {
    return this.db.transaction(async (tx) => {
      await tx.query('DELETE FROM paired_devices WHERE revoked_at IS NOT NULL AND revoked_at <= $1', [now - REVOKED_KEPT_MS]);
      await tx.query('DELETE FROM pairing_codes WHERE lower(name) = lower($1) AND used_at IS NULL', [name]);
      const rows = await tx.query<{ name: string }>('UPDATE paired_devices SET revoked_at = $2 WHERE lower(name) = lower($1) AND revoked_at IS NULL RETURNING name', [name, now]);
      return rows[0]?.name ?? null;
    });
  }

  /** Keeps an operator session (the hash of its token) until `expiresAt`; drops those run out. */
  async openSession(tokenHash: string, now: number, expiresAt: number): Promise<void> {
    await this.db.query('DELETE FROM operator_sessions WHERE expires_at <= $1', [now]);
    await this.db.query('INSERT INTO operator_sessions (token_hash, expires_at) VALUES ($1, $2)', [tokenHash, expiresAt]);
  }

  /** Whether the session is open at `now`; when it is, it now holds until `expiresAt`. */
  async useSession(tokenHash: string, now: number, expiresAt: number): Promise<boolean> {
    const rows = await this.db.query('UPDATE operator_sessions SET expires_at = $3 WHERE token_hash = $1 AND expires_at > $2 RETURNING token_hash', [tokenHash, now, expiresAt]);
    return rows.length > 0;
  }

  /** Ends the session (the panel was closed). */
  async closeSession(tokenHash: string): Promise<void> {
    await this.db.query('DELETE FROM operator_sessions WHERE token_hash = $1', [tokenHash]);
  }
}

/** Whether a paired device (not revoked) is called `name`, in any case. */
async function activeNamed(tx: Sql, name: string): Promise<boolean> {
  return (await tx.query('SELECT 1 FROM paired_devices WHERE lower(name) = lower($1) AND revoked_at IS NULL', [name])).length > 0;
}
