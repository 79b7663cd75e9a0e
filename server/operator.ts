// The operator's PIN: the server keeps it (OPERATOR_PIN) and answers the page's "is this the PIN?"
// with yes or no, locking after repeated wrong tries. The page never holds the PIN or a hash of
// it: a short PIN's hash could be tried against every PIN in a moment by anyone who can read it.
//
//   GET  /api/operator          { pin_set, locked_for_seconds }
//   POST /api/operator/unlock   { pin }  ->  200 { ok: true } | 403 wrong_pin | 429 locked | 404 no_pin

import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonRequest, parseJson, readBody } from './body.ts';
import { sendJson, sendRefusal } from './respond.ts';

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
 * The PIN check and its lock. One lock for the whole kiosk (not per address): every page of a
 * kiosk comes from the same machine, and a guesser gets no more tries by changing address. The
 * right PIN clears the count; a lock refuses even the right PIN until it runs out.
 */
export class OperatorGate {
  private readonly digest: Buffer | null;
  private readonly maxTries: number;
  private readonly lockMs: number;
  private readonly maxLockMs: number;
  private readonly now: () => number;
  private wrong = 0;
  private locks = 0;
  private lockedUntil = 0;

  constructor(pin: string | undefined, options: OperatorOptions = {}) {
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
  get lockedForSeconds(): number {
    return Math.max(0, Math.ceil((this.lockedUntil - this.now()) / 1000));
  }

  unlock(pin: string): UnlockResult {
    if (!this.digest) return { ok: false, reason: 'no_pin' };
    const locked = this.lockedForSeconds;
    if (locked > 0) return { ok: false, reason: 'locked', retryAfterSeconds: locked };
    // Equal-length digests compared in constant time: the answer's timing says nothing of the PIN.
    if (timingSafeEqual(hash(pin), this.digest)) {
      this.wrong = 0;
      this.locks = 0;
      return { ok: true };
    }
    this.wrong += 1;
    if (this.wrong < this.maxTries) return { ok: false, reason: 'wrong_pin', triesLeft: this.maxTries - this.wrong };
    this.wrong = 0;
    this.locks += 1;
    const ms = Math.min(this.maxLockMs, this.lockMs * 2 ** (this.locks - 1));
    this.lockedUntil = this.now() + ms;
    return { ok: false, reason: 'locked', retryAfterSeconds: this.lockedForSeconds };
  }
}

function hash(pin: string): Buffer {
  return createHash('sha256').update(pin, 'utf8').digest();
}

/** The largest unlock request read: a PIN and the JSON around it. */
const BODY_LIMIT = 1024;

/** Answers `/api/operator` and `/api/operator/unlock`. */
export function createOperatorRoute(pin: string | undefined, options: OperatorOptions, log: (line: string) => void) {
  const gate = new OperatorGate(pin, options);
  return {
    gate,
    /** answers the request; the promise, when there is one, is the caller's to watch */
    handle(req: IncomingMessage, res: ServerResponse, path: string): void | Promise<void> {
      if (path === '/api/operator') {
        if (req.method !== 'GET') return sendRefusal(res, 405, 'method_not_allowed', 'Use GET here.', { allow: 'GET' });
        return sendJson(res, 200, { pin_set: gate.pinSet, locked_for_seconds: gate.lockedForSeconds });
      }
      if (path !== '/api/operator/unlock') return sendRefusal(res, 404, 'not_found', 'There is no such operator route on this kiosk.');
      if (req.method !== 'POST') return sendRefusal(res, 405, 'method_not_allowed', 'Use POST here.', { allow: 'POST' });
      if (!isJsonRequest(req)) return sendRefusal(res, 415, 'not_json', 'Send the PIN as application/json: {"pin": "…"}.');
      return readBody(req, BODY_LIMIT).then((body) => {
        if (body === 'aborted' || res.destroyed) return;
        if (body === 'too-large') return sendRefusal(res, 413, 'request_too_large', 'An unlock request is a PIN and nothing more.');
        const parsed = parseJson(body);
        if (!parsed.ok) return sendRefusal(res, 400, 'invalid_request', parsed.message);
        const request = parsed.value as { pin?: unknown } | null;
        if (typeof request?.pin !== 'string') return sendRefusal(res, 400, 'invalid_request', 'Send the PIN as {"pin": "…"}.');
        const result = gate.unlock(request.pin);
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
