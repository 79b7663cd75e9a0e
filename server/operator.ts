// The operator's PIN: the server keeps it (OPERATOR_PIN) and answers the page's "is this the PIN?"
// with yes or no, locking after repeated wrong tries. The page never holds the PIN or a hash of
// it: a short PIN's hash could be tried against every PIN in a moment by anyone who can read it.
// The lock is kept in the kiosk's memory (server/storage/pin-lock.ts): a restart gives no fresh tries.
// The right PIN opens a session (a cookie) for the panel's management of paired devices
// (operator-devices.ts).
//
//   GET  /api/operator          { pin_set, locked_for_seconds }
//   POST /api/operator/unlock   { pin }  ->  200 { ok: true } | 403 wrong_pin | 429 locked | 404 no_pin

import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonRequest, parseJson, readBody } from './body.ts';
import { sendJson, sendLocked, sendRefusal } from './respond.ts';
import { oneLine } from './storage/database.ts';
import { createDeviceRoutes, OperatorSessions } from './operator-devices.ts';
import type { Pairing } from './pairing.ts';
import type { Memory } from './storage/memory.ts';
import type { PinLockMemory } from './storage/pin-lock.ts';
import { TryRules, type TryLockOptions } from './try-lock.ts';

/** The PIN lock's rules (TryLockOptions): 5 wrong tries, then 5 minutes, doubling up to 24 hours. */
export type OperatorOptions = TryLockOptions;

/** What an unlock attempt came to. */
export type UnlockResult =
  | { ok: true }
  | { ok: false; reason: 'no_pin' }
  | { ok: false; reason: 'wrong_pin'; triesLeft: number }
  | { ok: false; reason: 'locked'; retryAfterSeconds: number };

/**
 * The PIN check and its lock. One lock for the whole kiosk (not per address), shared by the servers
 * of one memory: every page of a kiosk comes from the same machine, and a guesser gets no more
 * tries by changing address, kiosk or by making the server restart. The right PIN clears the
 * count; a lock refuses even the right PIN until it runs out.
 */
export class OperatorGate {
  private readonly digest: Buffer | null;
  private readonly rules: TryRules;

  constructor(
    pin: string | undefined,
    private readonly lock: PinLockMemory,
    options: OperatorOptions = {},
  ) {
    this.digest = pin === undefined ? null : hash(pin);
    this.rules = new TryRules(options);
  }

  get pinSet(): boolean {
    return this.digest !== null;
  }

  /** Whole seconds until the lock runs out; 0 when not locked. */
  async lockedForSeconds(): Promise<number> {
    if (!this.digest) return 0;
    return this.rules.lockedFor(await this.lock.read());
  }

  async unlock(pin: string): Promise<UnlockResult> {
    const digest = this.digest;
    if (!digest) return { ok: false, reason: 'no_pin' };
    // Equal-length digests compared in constant time: the answer's timing says nothing of the PIN.
    const right = timingSafeEqual(hash(pin), digest);
    const outcome = await this.lock.change((state) => this.rules.refuseLocked(state) ?? this.rules.after(state, right));
    return outcome.ok || outcome.reason === 'locked' ? outcome : { ok: false, reason: 'wrong_pin', triesLeft: outcome.triesLeft };
  }
}

function hash(pin: string): Buffer {
  return createHash('sha256').update(pin, 'utf8').digest();
}

/** The largest unlock request read: a PIN and the JSON around it. */
const BODY_LIMIT = 1024;

/**
 * Answers `/api/operator` and `/api/operator/unlock`, keeping the lock in `memory`, and the
 * routes of the paired devices (operator-devices.ts) that an unlock opens.
 */
export function createOperatorRoute(pin: string | undefined, options: OperatorOptions, log: (line: string) => void, memory: Pick<Memory, 'operatorLock' | 'pairings'>, pairing: Pairing, door?: string) {
  const gate = new OperatorGate(pin, memory.operatorLock, options);
  const sessions = new OperatorSessions(memory.pairings, options.now ?? Date.now);
  const devices = createDeviceRoutes(pairing, sessions, log, door);
  /** When the memory fails: one line, and 503 (a check that could not be made is never a yes). */
  const memoryFailed = (res: ServerResponse, error: unknown) => {
    log(`[operator] the kiosk's memory failed (${oneLine(error)}) (503)`);
    if (!res.headersSent) sendRefusal(res, 503, 'memory_unavailable', "The kiosk's server cannot reach its memory just now; try again later.");
  };
  return {
    gate,
    /** answers the request; the promise, when there is one, is the caller's to watch */
    handle(req: IncomingMessage, res: ServerResponse, path: string): void | Promise<void> {
      if (path === '/api/operator') {
        if (req.method !== 'GET') return sendRefusal(res, 405, 'method_not_allowed', 'Use GET here.', { allow: 'GET' });
        return gate.lockedForSeconds().then((locked) => sendJson(res, 200, { pin_set: gate.pinSet, locked_for_seconds: locked }), (error: unknown) => memoryFailed(res, error));
      }
      if (path !== '/api/operator/unlock') return devices.handle(req, res, path);
      if (req.method !== 'POST') return sendRefusal(res, 405, 'method_not_allowed', 'Use POST here.', { allow: 'POST' });
      if (!isJsonRequest(req)) return sendRefusal(res, 415, 'not_json', 'Send the PIN as application/json: {"pin": "…"}.');
      return readBody(req, BODY_LIMIT).then(async (body) => {
        if (body === 'aborted' || res.destroyed) return;
        if (body === 'too-large') return sendRefusal(res, 413, 'request_too_large', 'An unlock request is a PIN and nothing more.');
        const parsed = parseJson(body);
        if (!parsed.ok) return sendRefusal(res, 400, 'invalid_request', parsed.message);
        const request = parsed.value as { pin?: unknown } | null;
        if (typeof request?.pin !== 'string') return sendRefusal(res, 400, 'invalid_request', 'Send the PIN as {"pin": "…"}.');
        let result: UnlockResult;
        try {
          result = await gate.unlock(request.pin);
        } catch (error) {
          return memoryFailed(res, error);
        }
        if (result.ok) {
          try {
            await sessions.open(req, res);
          } catch (error) {
            return memoryFailed(res, error);
          }
          log('[operator] panel unlocked');
          return sendJson(res, 200, { ok: true });
        }
        switch (result.reason) {
          case 'no_pin':
            return sendRefusal(res, 404, 'no_pin', 'No operator PIN is set on this kiosk (OPERATOR_PIN), so there is no operator panel.');
          case 'wrong_pin':
            log(`[operator] wrong PIN (${result.triesLeft} ${result.triesLeft === 1 ? 'try' : 'tries'} left before a lock)`);
            return sendJson(res, 403, { ok: false, error: 'wrong_pin', message: 'That PIN is not right.', tries_left: result.triesLeft });
          case 'locked':
            log(`[operator] locked for ${result.retryAfterSeconds} s after repeated wrong PINs`);
            return sendLocked(res, result.retryAfterSeconds, 'Too many wrong PINs: the operator panel is locked for a while.');
        }
      });
    },
  };
}
