// `/api/pairing`, the one route an unpaired device may use (with the checks every /api/ request
// passes: its own page only): whether this device is paired, and the code staff type on its
// pairing screen. A right code sets the device's credential cookie.
//
//   GET  /api/pairing   { paired, device, local, locked_for_seconds }
//   POST /api/pairing   { code }  ->  200 { ok, device } | 400 invalid_code | 403 wrong_code, code_used,
//                                     code_expired { tries_left } | 409 name_taken | 429 locked { retry_after_seconds }

import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonRequest, parseJson, readBody } from './body.ts';
import { DEVICE_COOKIE, DEVICE_COOKIE_SECONDS, readCookie, setCookie } from './cookies.ts';
import { isLocalRequest } from './device-guard.ts';
import type { Pairing } from './pairing.ts';
import { sendJson, sendLocked, sendRefusal } from './respond.ts';

/** The largest request read: a code and the JSON around it. */
const BODY_LIMIT = 1024;

const WRONG_WORDS = {
  wrong_code: 'That code is not one the server made.',
  code_used: 'That code has been used already; each code pairs one device.',
  code_expired: 'That code has run out (a code lasts 10 minutes).',
} as const;

/** Answers `/api/pairing`. */
export function createPairingRoute(pairing: Pairing, log: (line: string) => void) {
  const status = async (req: IncomingMessage, res: ServerResponse) => {
    const [device, locked] = await Promise.all([pairing.device(readCookie(req, DEVICE_COOKIE)), pairing.lockedForSeconds()]);
    sendJson(res, 200, { paired: device.kind === 'paired', device: device.kind === 'paired' ? device.name : null, local: isLocalRequest(req), locked_for_seconds: locked });
  };

  const pair = async (req: IncomingMessage, res: ServerResponse) => {
    if (!isJsonRequest(req)) return sendRefusal(res, 415, 'not_json', 'Send the code as application/json: {"code": "ABCD-EFGH"}.');
    const body = await readBody(req, BODY_LIMIT);
    if (body === 'aborted' || res.destroyed) return;
    if (body === 'too-large') return sendRefusal(res, 413, 'request_too_large', 'A pairing request is a code and nothing more.');
    const parsed = parseJson(body);
    if (!parsed.ok) return sendRefusal(res, 400, 'invalid_request', parsed.message);
    const code = (parsed.value as { code?: unknown } | null)?.code;
    if (typeof code !== 'string') return sendRefusal(res, 400, 'invalid_request', 'Send the code as {"code": "ABCD-EFGH"}.');
    const result = await pairing.pair(code, readCookie(req, DEVICE_COOKIE));
    if (result.ok) {
      log(`[pairing] "${result.name}" was paired`);
      setCookie(req, res, DEVICE_COOKIE, result.token, DEVICE_COOKIE_SECONDS);
      return sendJson(res, 200, { ok: true, device: result.name });
    }
    switch (result.reason) {
      case 'invalid_code':
        return sendRefusal(res, 400, 'invalid_code', 'A pairing code is 8 letters and digits, such as ABCD-EFGH.');
      case 'name_taken':
        return sendRefusal(res, 409, 'name_taken', `Another device is paired as "${result.name}": revoke it, then make a new code.`);
      case 'locked':
        log(`[pairing] locked for ${result.retryAfterSeconds} s after repeated wrong codes`);
        return sendLocked(res, result.retryAfterSeconds, 'Too many wrong codes: pairing is locked for a while, or until a new code is made.');
      default:
        log(`[pairing] a ${result.reason.replace('_', ' ')} was tried (${result.triesLeft} ${result.triesLeft === 1 ? 'try' : 'tries'} left before a lock)`);
        return sendJson(res, 403, { ok: false, error: result.reason, message: WRONG_WORDS[result.reason], tries_left: result.triesLeft });
    }
  };

  return (req: IncomingMessage, res: ServerResponse): void | Promise<void> => {
    if (req.method === 'GET') return status(req, res);
    if (req.method === 'POST') return pair(req, res);
    return sendRefusal(res, 405, 'method_not_allowed', 'Use GET or POST here.', { allow: 'GET, POST' });
  };
}
