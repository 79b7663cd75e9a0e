// What the proxy tells the page when an upstream service fails: a short message taken from the
// upstream's error body, with anything that looks like (a piece of) the API key removed.

import { parseOutsideJson, TOO_DEEP } from './json-depth.ts';

/** The longest message passed on to the page. */
export const MAX_ERROR_MESSAGE = 300;

const REDACTED = '[redacted]';
/** A run of characters that could be (part of) a key, between spaces, quotes and brackets. */
const TOKEN = /[^\s"'`,;()[\]{}<>]+/g;
/** How much of a key an echo must share to be removed (only for keys at least this long). */
const ECHO_MIN = 4;

/** A token that is (or was) an API key in the way OpenAI and the services that copy it write one: `sk-…`, masked or not. */
const API_KEY = /^sk-[\w*.-]{8,}/i;

/**
 * `text` without `secret`, nor any other `sk-…` key, masked or not: every full occurrence of the
 * secret goes, and for keys of 8 or more characters so does every token that shares 4 characters
 * in a row with the key or that looks masked (`***`), since upstreams echo keys as `sk-ab****wxyz`.
 * The upload route and the streaming socket take the service's error messages through it.
 */
export function scrubSecret(text: string, secret: string | undefined): string {
  let out = secret ? text.split(secret).join(REDACTED) : text;
  const long = secret !== undefined && secret.length >= 8;
  const pieces = new Set<string>();
  for (let i = 0; long && i + ECHO_MIN <= secret.length; i++) pieces.add(secret.slice(i, i + ECHO_MIN));
  out = out.replace(TOKEN, (token) => {
    if (token === REDACTED) return token;
    if (API_KEY.test(token)) return REDACTED;
    if (!long) return token;
    if (/\*{3,}/.test(token)) return REDACTED;
    for (let i = 0; i + ECHO_MIN <= token.length; i++) {
      if (pieces.has(token.slice(i, i + ECHO_MIN))) return REDACTED;
    }
    return token;
  });
  return out;
}

/** The page's error object for an upstream's error answer (`body` is its first bytes, as text). */
export function upstreamError(status: number, body: string, secret: string | undefined): { message: string; type: string; code?: string } {
  const { message, code } = readErrorBody(body);
  const clean = scrubSecret(message, secret).replace(/\s+/g, ' ').trim();
  const capped = clean.length > MAX_ERROR_MESSAGE ? `${clean.slice(0, MAX_ERROR_MESSAGE - 1)}…` : clean;
  const error: { message: string; type: string; code?: string } = { message: capped || `HTTP ${status}`, type: 'upstream_error' };
  if (code !== undefined && scrubSecret(code, secret) === code) error.code = code;
  return error;
}

/** The message (and a short code) of the usual error shapes: OpenAI's, FastAPI's, plain text. */
export function readErrorBody(body: string): { message: string; code?: string } {
  const parsed = parseOutsideJson(body);
  if (!parsed.ok) return { message: parsed.problem === 'too_deep' ? `an error answer in JSON ${TOO_DEEP}` : body };
  const root = record(parsed.value);
  const inner = record(root?.['error']);
  const message = text(inner?.['message']) ?? text(root?.['error']) ?? text(root?.['message']) ?? text(root?.['detail']) ?? body;
  const rawCode = inner?.['code'];
  const code = typeof rawCode === 'string' && /^[\w.-]{1,64}$/.test(rawCode) ? rawCode : undefined;
  return code === undefined ? { message } : { message, code };
}

function record(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function text(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  // FastAPI's validation errors: a list of {msg} objects
  if (Array.isArray(v)) {
    const msgs = v.map((item) => record(item)?.['msg']).filter((m): m is string => typeof m === 'string');
    return msgs.length ? msgs.join('; ') : undefined;
  }
  return undefined;
}
