// Paired kiosks: the operator makes a one-time code for a device's name (`npm run pair`, or the
// operator panel), staff type it on the device's pairing screen, and the device is given a
// credential (a random token; the server keeps its hash) that lets it use /api/. Codes last 10
// minutes and work once; wrong ones count against a lock like the operator PIN's (try-lock.ts),
// which a new code opens again. Devices are listed with when each was last seen, and revoked.

import { hashCode, hashToken, isToken, newCode, newSalt, newToken, readCode, readName } from './pairing-codes.ts';
import type { LockDecision, PinLockMemory } from './storage/pin-lock.ts';
import type { CodeUse, PairedDevice, PairingMemory } from './storage/pairings.ts';
import { TryRules, type TryLockOptions, type TryOutcome } from './try-lock.ts';

export interface PairingOptions extends TryLockOptions {
  /** how long a code may be used after it was made (default 10 minutes) */
  codeMs?: number;
  /** the least time between two notes of a device's last visit, and two renewals of its cookie (default 1 minute) */
  seenEveryMs?: number;
}

/** A code made for a device. */
export type MadeCode = { ok: true; code: string; name: string; expiresAt: number } | { ok: false; reason: 'bad_name' | 'name_taken'; message: string };

/** What a code typed on a device came to. */
export type PairResult =
  | { ok: true; name: string; token: string }
  | { ok: false; reason: 'invalid_code' }
  | { ok: false; reason: 'wrong_code' | 'code_used' | 'code_expired'; triesLeft: number }
  | { ok: false; reason: 'locked'; retryAfterSeconds: number }
  | { ok: false; reason: 'name_taken'; name: string };

/** Who holds a credential: `renew` when its cookie is due to be sent again (and its last visit was noted). */
export type DeviceCheck = { kind: 'paired'; name: string; renew: boolean } | { kind: 'revoked' } | { kind: 'unknown' };

export const CODE_MS = 10 * 60_000;

/** The pairing of one server (its rules over the memory the fleet shares). */
export class Pairing {
  private readonly rules: TryRules;
  private readonly codeMs: number;
  private readonly seenEveryMs: number;
  private salt: Promise<string> | undefined;

  constructor(
    private readonly memory: PairingMemory,
    private readonly lock: PinLockMemory,
    options: PairingOptions = {},
  ) {
    this.rules = new TryRules(options);
    this.codeMs = options.codeMs ?? CODE_MS;
    this.seenEveryMs = options.seenEveryMs ?? 60_000;
  }

  get now(): number {
    return this.rules.now();
  }

  /** A new code for the device `name` (replacing one not yet used for it); the lock on wrong codes opens again. */
  async makeCode(typedName: unknown): Promise<MadeCode> {
    const named = readName(typedName);
    if (!named.ok) return { ok: false, reason: 'bad_name', message: named.message };
    const code = newCode();
    const now = this.now;
    const expiresAt = now + this.codeMs;
    const kept = await this.memory.addCode(await hashCode(readCode(code)!, await this.codeSalt()), named.name, now, expiresAt);
    if (kept === 'name_taken') {
      return { ok: false, reason: 'name_taken', message: `A device called "${named.name}" is already paired: revoke it first (npm run pair -- --revoke "${named.name}"), or give this one another name.` };
    }
    // The operator is at hand and has just made a code: the staff at the device get their tries back.
    await this.lock.clear();
    return { ok: true, code, name: named.name, expiresAt };
  }

  /**
   * Pairs the device on which `typed` was entered, when it is an open code; `held` is the
   * credential the device holds already, revoked once it is paired again.
   */
  async pair(typed: string, held?: string): Promise<PairResult> {
    const code = readCode(typed);
    if (code === null) return { ok: false, reason: 'invalid_code' };
    const codeHash = await hashCode(code, await this.codeSalt());
    const token = newToken();
    const replaces = held !== undefined && isToken(held) ? hashToken(held) : undefined;
    return this.lock.change(async (state, tx): Promise<LockDecision<PairResult>> => {
      const locked = this.rules.lockedFor(state);
      if (locked > 0) return { state, result: { ok: false, reason: 'locked', retryAfterSeconds: locked } };
      const use = await this.memory.useCode(tx, codeHash, hashToken(token), this.now, replaces);
      if (use.kind === 'name_taken') return { state, result: { ok: false, reason: 'name_taken', name: use.name } };
      const { state: next, result } = this.rules.after(state, use.kind === 'paired');
      return { state: next, result: pairResult(use, result, token) };
    });
  }

  /** Who holds the credential `token` (anything that is not one: nobody). */
  async device(token: string | undefined): Promise<DeviceCheck> {
    if (token === undefined || !isToken(token)) return { kind: 'unknown' };
    const found = await this.memory.lookup(hashToken(token));
    if (found.kind !== 'paired') return found.kind === 'revoked' ? { kind: 'revoked' } : { kind: 'unknown' };
    const renew = await this.memory.seen(found.id, this.now, this.seenEveryMs);
    return { kind: 'paired', name: found.name, renew };
  }

  /** Whole seconds until the lock on wrong codes runs out; 0 when it is open. */
  async lockedForSeconds(): Promise<number> {
    return this.rules.lockedFor(await this.lock.read());
  }

  devices(): Promise<PairedDevice[]> {
    return this.memory.devices();
  }

  /** The codes made and not yet used, with when each runs out. */
  openCodes(): Promise<{ name: string; expiresAt: number }[]> {
    return this.memory.openCodes(this.now);
  }

  /** Revokes the device called `name`; its name as paired, or null when there is none. */
  revoke(name: string): Promise<string | null> {
    return this.memory.revoke(name.replace(/\s+/g, ' ').trim(), this.now);
  }

  private codeSalt(): Promise<string> {
    const salt = (this.salt ??= this.memory.salt(newSalt));
    // A failure (the memory out of reach) is not kept: the next code asks again.
    salt.catch(() => (this.salt = undefined));
    return salt;
  }
}

/** The refusal of a code that pairs nothing, by what became of it. */
const WRONG = { unknown: 'wrong_code', used: 'code_used', expired: 'code_expired' } as const;

/** What the device is told of a code's `use`, the lock having counted it as `counted`. */
function pairResult(use: Exclude<CodeUse, { kind: 'name_taken' }>, counted: TryOutcome, token: string): PairResult {
  if (use.kind === 'paired') return { ok: true, name: use.name, token };
  if (!counted.ok && counted.reason === 'locked') return counted;
  return { ok: false, reason: WRONG[use.kind], triesLeft: counted.ok ? 0 : counted.triesLeft };
}
