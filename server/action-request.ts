// What the page may ask of `POST /api/actions`: the engine's `action_run` plus the flow's id,
// checked field by field. Anything malformed is the page's mistake (a 400), never an outcome.

import { createHash } from 'node:crypto';

/** The methods an action may use. */
export const ACTION_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type ActionMethod = (typeof ACTION_METHODS)[number];

/** An action id: also the `Idempotency-Key` the target gets, so one per action, never reused. */
export const ACTION_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
/** A flow id, tool or state name as analytics and logs may carry it. */
export const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;

/** Header names the server sets itself: a flow's spelling of them is dropped. */
export const SERVER_HEADERS = new Set(['accept', 'content-type', 'idempotency-key']);
/** Header names that shape the connection or the message: a flow may not set them. */
const FORBIDDEN_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'proxy-connection',
]);
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/;
/** What Node will send in a header value: tab, visible ASCII and Latin-1, no line breaks. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]{0,4096}$/;
const MAX_HEADERS = 32;
const MAX_URL = 8192;

const FIELDS = new Set(['type', 'action_id', 'flow_id', 'tool', 'method', 'url', 'body', 'headers', 'timeout_seconds']);

/** A well-formed request for one action, before secrets are put in. */
export interface ActionRequest {
  actionId: string;
  flowId: string;
  tool: string;
  method: ActionMethod;
  /** as the engine built it; may hold `{secret:NAME}` */
  url: string;
  /** the JSON body; absent (or null in the request) means no body */
  body?: unknown;
  /** the flow's headers, names in lower case, without those the server sets itself */
  headers: Record<string, string>;
  /** `timeout_seconds` in ms, when the page gave one (not yet capped) */
  timeoutMs?: number;
  /** a digest of everything that decides what is sent: tells a repeat from a reused id */
  fingerprint: string;
}

/** The request in `value` (the parsed JSON body), or a message saying what is wrong with it. */
export function readActionRequest(value: unknown): ActionRequest | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'The request must be a JSON object.';
  const r = value as Record<string, unknown>;
  const extra = Object.keys(r).filter((key) => !FIELDS.has(key));
  if (extra.length) return `Unknown field${extra.length > 1 ? 's' : ''}: ${extra.slice(0, 5).join(', ')}.`;
  if (r['type'] !== undefined && r['type'] !== 'action_run') return 'type, when given, must be "action_run".';
  if (typeof r['action_id'] !== 'string' || !ACTION_ID.test(r['action_id'])) {
    return 'action_id must be 1 to 128 letters, digits, "_", ".", ":" or "-", starting with a letter or digit.';
  }
  for (const field of ['flow_id', 'tool'] as const) {
    const v = r[field];
    if (typeof v !== 'string' || !NAME.test(v)) return `${field} must be a name of 1 to 64 letters, digits, "_", "." or "-".`;
  }
  const method = typeof r['method'] === 'string' ? r['method'].toUpperCase() : undefined;
  if (!ACTION_METHODS.includes(method as ActionMethod)) return `method must be one of ${ACTION_METHODS.join(', ')}.`;
  const url = r['url'];
  if (typeof url !== 'string' || !url || url.length > MAX_URL) return `url must be a text of 1 to ${MAX_URL} characters.`;
  const headers = readHeaders(r['headers']);
  if (typeof headers === 'string') return headers;
  let timeoutMs: number | undefined;
  if (r['timeout_seconds'] !== undefined) {
    const t = r['timeout_seconds'];
    if (typeof t !== 'number' || !Number.isFinite(t) || t <= 0) return 'timeout_seconds must be a number of seconds above 0.';
    timeoutMs = Math.ceil(t * 1000);
  }
  const request: ActionRequest = {
    actionId: r['action_id'],
    flowId: r['flow_id'] as string,
    tool: r['tool'] as string,
    method: method as ActionMethod,
    url,
    headers,
    fingerprint: '',
  };
  if (r['body'] !== undefined && r['body'] !== null) request.body = r['body'];
  if (timeoutMs !== undefined) request.timeoutMs = timeoutMs;
  request.fingerprint = fingerprint(request);
  return request;
}

function readHeaders(value: unknown): Record<string, string> | string {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) return 'headers must be an object of header names and texts.';
  const entries = Object.entries(value);
  if (entries.length > MAX_HEADERS) return `headers may hold at most ${MAX_HEADERS} headers.`;
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, v] of entries) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) return `headers: "${name.slice(0, 64)}" is not a header name.`;
    if (typeof v !== 'string' || !HEADER_VALUE.test(v)) return `headers: the value of ${name} must be a text of at most 4096 characters, on one line.`;
    if (FORBIDDEN_HEADERS.has(lower) || lower.startsWith('proxy-')) return `headers: ${name} is set by the connection, not by a flow.`;
    if (seen.has(lower)) return `headers: ${name} is given twice.`;
    seen.add(lower);
    if (!SERVER_HEADERS.has(lower)) headers[lower] = v;
  }
  return headers;
}

function fingerprint(r: ActionRequest): string {
  const headers = Object.entries(r.headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const what = JSON.stringify([r.flowId, r.tool, r.method, r.url, r.body ?? null, headers]);
  return createHash('sha256').update(what).digest('hex');
}
