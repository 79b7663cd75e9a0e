// The JSON answers the /api/ routes give of their own: the page's config, errors in the shape
// OpenAI's client reads (`{ error: { message, type } }`), refusals of requests whose body is not
// wanted, refusals of the server's own routes, and of WebSocket openings.

import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** An error object as the page's OpenAI client expects it. */
export interface ApiError {
  message: string;
  type: string;
  code?: string;
}

/** Answers `res` with `value` as JSON, never cached. */
export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(body);
}

/** Answers `res` with `{ error: { message, type } }`. */
export function sendError(res: ServerResponse, status: number, type: string, message: string, headers?: Record<string, string>): void {
  const error: ApiError = { message, type };
  sendJson(res, status, { error }, headers);
}

/**
 * Refuses a request before its body is read: the error, then the connection closed, so that no
 * more of the body is taken in.
 */
export function refuseUnread(res: ServerResponse, status: number, type: string, message: string, headers: Record<string, string> = {}): void {
  sendError(res, status, type, message, { ...headers, connection: 'close' });
}

/**
 * Answers a request the server's own JSON routes (actions, analytics, status) refuse:
 * `{ ok: false, error, message }`, with the action's id when it is known and the refused value's
 * name (`param`) when one value was the reason. Nothing was run.
 */
export function sendRefusal(res: ServerResponse, status: number, error: string, message: string, extra: { action_id?: string; allow?: string; param?: string } = {}): void {
  const body: Record<string, unknown> = {};
  if (extra.action_id !== undefined) body['action_id'] = extra.action_id;
  Object.assign(body, { ok: false, error, message });
  if (extra.param !== undefined) body['param'] = extra.param;
  sendJson(res, status, body, extra.allow ? { allow: extra.allow } : {});
}

/** A lock after repeated wrong tries (a PIN, a pairing code): 429 `locked`, and when to try again, in the body and in Retry-After. */
export function sendLocked(res: ServerResponse, retryAfterSeconds: number, message: string): void {
  sendJson(res, 429, { ok: false, error: 'locked', message, retry_after_seconds: retryAfterSeconds }, { 'retry-after': String(retryAfterSeconds) });
}

/**
 * Refuses a WebSocket opening (an HTTP upgrade request, which has no ServerResponse): the status
 * and `{ error: { message, type } }` written on the bare connection, which is then closed.
 */
export function refuseUpgrade(socket: Duplex, status: number, type: string, message: string, headers: Record<string, string> = {}): void {
  const error: ApiError = { message, type };
  const body = JSON.stringify({ error });
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'cache-control: no-store',
    'connection: close',
  ];
  if (socket.destroyed) return;
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}
