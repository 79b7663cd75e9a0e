// The operator's PIN: the server keeps it (OPERATOR_PIN) and answers the page's "is this the PIN?"
// with yes or no, locking after repeated wrong tries. The page never holds the PIN or a hash of
// it: a short PIN's hash could be tried against every PIN in a moment by anyone who can read it.
// The lock is kept in the kiosk's memory (server/storage/pin-lock.ts): a restart gives no fresh tries.
//
//   GET  /api/operator          { pin_set, locked_for_seconds }
//   POST /api/operator/unlock   { pin }  ->  200 { ok: true } | 403 wrong_pin | 429 locked | 404 no_pin

import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonRequest, parseJson, readBody } from './body.ts';
import { sendJson, sendRefusal } from './respond.ts';
import { oneLine } from './storage/database.ts';
import type { PinLockMemory, PinLockState } from './storage/pin-lock.ts';

export interface OperatorOptions {
  /** wrong tries in a row before the panel locks (default 5) */
  maxTries?: number;
  /** how long the first lock lasts; each lock after it lasts twice the one before (default 5 minutes) */
  lockMs?: number;
  /** the longest a lock lasts (default 24 hours) */
  maxLockMs?: number;
  /** the clock, in ms (tests pass their own) */
  now?: () => number;
}

/** What an unlock attempt came to. */
export type UnlockResult =
  | { ok: true }
  | { ok: false; reason: 'no_pin' }
  | { ok: false; reason: 'wrong_pin'; triesLeft: number }
  | { ok: false; reason: 'locked'; retryAfterSeconds: number };

const DEFAULTS = { maxTries: 5, lockMs: 5 * 60_000, maxLockMs: 24 * 3_600_000 };

/**
 * The PIN check and its lock. One lock for the whole kiosk (not per address), shared by the servers
 * of one memory: every page of a kiosk comes from the same machine, and a guesser gets no more
 * tries by changing address, kiosk or by making the server restart. The right PIN clears the
 * count; a lock refuses even the right PIN until it runs out.
 */
export class OperatorGate {
  private readonly digest: Buffer | null;
  private readonly maxTries: number;
  private readonly lockMs: number;
  private readonly maxLockMs: number;
  private readonly now: () => number;

  constructor(
    pin: string | undefined,
    private readonly lock: PinLockMemory,
    options: OperatorOptions = {},
  ) {
    this.digest = pin === undefined ? null : hash(pin);
    this.maxTries = options.maxTries ?? DEFAULTS.maxTries;
    this.lockMs = options.lockMs ?? DEFAULTS.lockMs;
    this.maxLockMs = options.maxLockMs ?? DEFAULTS.maxLockMs;
    this.now = options.now ?? Date.now;
  }

  get pinSet(): boolean {
    return this.digest !== null;
  }

  /** Whole seconds until the lock runs out; 0 when not locked. */
  async lockedForSeconds(): Promise<number> {
    if (!this.digest) return 0;
    return this.secondsUntil((await this.lock.read()).lockedUntil);
  }

  async unlock(pin: string): Promise<UnlockResult> {
    const digest = this.digest;
    if (!digest) return { ok: false, reason: 'no_pin' };
    // Equal-length digests compared in constant time: the answer's timing says nothing of the PIN.
    const right = timingSafeEqual(hash(pin), digest);
    return this.lock.change((state) => this.decide(state, right));
  }

  /** The lock after one try, and what the try is told; a locked panel takes no try at all. */
  private decide(state: PinLockState, right: boolean): { state: PinLockState; result: UnlockResult } {
    const locked = this.secondsUntil(state.lockedUntil);
    if (locked > 0) return { state, result: { ok: false, reason: 'locked', retryAfterSeconds: locked } };
    if (right) return { state: { ...state, wrongTries: 0, locks: 0 }, result: { ok: true } };
    const wrong = state.wrongTries + 1;
    if (wrong < this.maxTries) return { state: { ...state, wrongTries: wrong }, result: { ok: false, reason: 'wrong_pin', triesLeft: this.maxTries - wrong } };
    const locks = state.locks + 1;
    const lockedUntil = this.now() + Math.min(this.maxLockMs, this.lockMs * 2 ** (locks - 1));
    return { state: { wrongTries: 0, locks, lockedUntil }, result: { ok: false, reason: 'locked', retryAfterSeconds: this.secondsUntil(lockedUntil) } };
  }

  private secondsUntil(lockedUntil: number): number {
    return Math.max(0, Math.ceil((lockedUntil - this.now()) / 1000));
  }
}

function hash(pin: string): Buffer {
  return createHash('sha256').update(pin, 'utf8').digest();
}

/** The largest unlock request read: a PIN and the JSON around it. */
const BODY_LIMIT = 1024;

/** Answers `/api/operator` and `/api/operator/unlock`, keeping the lock in `lock`. */
export function createOperatorRoute(pin: string | undefined, options: OperatorOptions, log: (line: string) => void, lock: PinLockMemory) {
  const gate = new OperatorGate(pin, lock, options);
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
      if (path !== '/api/operator/unlock') return sendRefusal(res, 404, 'not_found', 'There is no such operator route on this kiosk.');
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
            return sendJson(
              res,
              429,
              { ok: false, error: 'locked', message: 'Too many wrong PINs: the operator panel is locked for a while.', retry_after_seconds: result.retryAfterSeconds },
              { 'retry-after': String(result.retryAfterSeconds) },
            );
        }
      });
    },
  };
}
