// One prepared action sent to its target and its answer read: a time-out over the whole exchange,
// no redirect followed, at most so many bytes read, and only a 2xx JSON answer (or an empty one)
// counts as done. Every other ending becomes an error code and a short message, never the body.

import http, { type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { ActionMethod } from './action-request.ts';
import type { PreparedCall } from './action-target.ts';
import { describeNetworkError } from './forward.ts';
import { parseOutsideJson, TOO_DEEP } from './json-depth.ts';
import type { Scrubber } from './secrets.ts';
import { readErrorBody } from './upstream-error.ts';

/** How a call ended. */
export type CallOutcome =
  | { ok: true; status: number; data: unknown }
  | { ok: false; error: CallError; status?: number; message: string };

export type CallError = 'timeout' | 'network' | 'http' | 'too_large' | 'invalid_json';

export interface CallLimits {
  timeoutMs: number;
  /** the largest answer read; a longer one is cut off and the action fails (`too_large`) */
  maxAnswerBytes: number;
  scrubber: Scrubber;
}

/** How much of an error answer is read to find its message, and how long that message may be. */
const ERROR_BODY_LIMIT = 16 * 1024;
const MAX_MESSAGE = 200;

/** Sends `call` and resolves with its outcome; never rejects. */
export function performCall(method: ActionMethod, call: PreparedCall, limits: CallLimits): Promise<CallOutcome> {
  return new Promise((resolve) => {
    const headers: OutgoingHttpHeaders = { ...call.headers };
    if (call.body) headers['content-length'] = call.body.length;
    else if (method !== 'GET' && method !== 'DELETE') headers['content-length'] = 0;

    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    let req: http.ClientRequest | undefined;
    const finish = (outcome: CallOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req?.destroy();
      resolve(outcome);
    };
    try {
      // `agent: false`: a connection of its own, closed after the answer, shared with no other call.
      req = (call.url.protocol === 'https:' ? https : http).request(call.url, { method, headers, agent: false });
    } catch {
      return finish({ ok: false, error: 'network', message: `The request to ${call.origin} could not be made.` });
    }
    timer = setTimeout(() => {
      finish({
        ok: false,
        error: 'timeout',
        message: `${call.origin} did not answer within ${seconds(limits.timeoutMs)}; it may or may not have done it.`,
      });
    }, limits.timeoutMs);

    req.on('error', (error: NodeJS.ErrnoException) => {
      // A connection that broke after the request went out may have done its work all the same.
      const unsure = error.code === 'ECONNRESET' || error.code === 'EPIPE' ? '; it may or may not have done it' : '';
      finish({ ok: false, error: 'network', message: `${call.origin} could not be reached (${describeNetworkError(error.code)})${unsure}.` });
    });
    req.on('response', (answer) => {
      const status = answer.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        finish({ ok: false, error: 'http', status, message: `${call.origin} answered ${status}, a redirect, which actions never follow.` });
      } else if (status < 200 || status >= 300) {
        readError(answer, status, call.origin, limits.scrubber, finish);
      } else {
        readAnswer(answer, status, call.origin, limits.maxAnswerBytes, finish);
      }
    });
    req.end(call.body);
  });
}

/** A 2xx answer: JSON (or nothing at all) within the size limit. */
function readAnswer(answer: IncomingMessage, status: number, origin: string, max: number, finish: (o: CallOutcome) => void): void {
  const tooLarge = () =>
    finish({ ok: false, error: 'too_large', status, message: `${origin} answered ${status} with more than ${Math.round(max / 1024)} KB; the answer was not read.` });
  const declared = Number(answer.headers['content-length']);
  if (declared > max) return tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  answer.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > max) tooLarge();
    else chunks.push(chunk);
  });
  answer.on('end', () => {
    if (size === 0) return finish({ ok: true, status, data: null });
    if (!isJsonType(answer.headers['content-type'])) {
      return finish({ ok: false, error: 'invalid_json', status, message: `${origin} answered ${status} with ${kind(answer.headers['content-type'])}, not JSON.` });
    }
    const parsed = parseOutsideJson(Buffer.concat(chunks).toString('utf8'));
    if (parsed.ok) return finish({ ok: true, status, data: parsed.value });
    const message = parsed.problem === 'too_deep' ? `${origin} answered JSON ${TOO_DEEP} (status ${status}); it was not read.` : `${origin} answered ${status} with a body that is not valid JSON.`;
    finish({ ok: false, error: 'invalid_json', status, message });
  });
  answer.on('close', () => {
    if (!answer.complete) finish({ ok: false, error: 'network', status, message: `${origin} broke off its answer (${status}) before the end.` });
  });
}

/** A non-2xx answer: the status and, from a JSON or plain-text body, a short scrubbed message. */
function readError(answer: IncomingMessage, status: number, origin: string, scrubber: Scrubber, finish: (o: CallOutcome) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const done = () => {
    const type = answer.headers['content-type'] ?? '';
    let detail = '';
    if (isJsonType(type) || /^text\/plain\b/i.test(type)) {
      detail = scrubber.text(readErrorBody(Buffer.concat(chunks).toString('utf8')).message).replace(/\s+/g, ' ').trim();
      if (detail.length > MAX_MESSAGE) detail = `${detail.slice(0, MAX_MESSAGE - 1)}…`;
    }
    finish({ ok: false, error: 'http', status, message: `${origin} answered ${status}${detail ? `: ${detail}` : '.'}` });
  };
  answer.on('data', (chunk: Buffer) => {
    if (size < ERROR_BODY_LIMIT) chunks.push(chunk);
    size += chunk.length;
    if (size >= ERROR_BODY_LIMIT) done();
  });
  answer.on('end', done);
  answer.on('close', done);
}

/** `application/json` or any `…+json` type, with or without parameters. */
function isJsonType(type: string | undefined): boolean {
  const essence = (type ?? '').split(';', 1)[0]!.trim().toLowerCase();
  return essence === 'application/json' || /^application\/[\w.-]+\+json$/.test(essence);
}

function kind(type: string | undefined): string {
  const essence = (type ?? '').split(';', 1)[0]!.trim().toLowerCase();
  return /^[\w.+-]+\/[\w.+-]+$/.test(essence) ? essence : 'no content type';
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
