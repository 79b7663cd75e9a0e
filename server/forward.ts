// One request forwarded to an upstream service and its answer streamed back to the page: the key
// is added here, the browser's own headers stay behind, a page that goes away aborts upstream,
// and an exchange in which nothing moves either way for a while is closed on both sides.

import http, { type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import https from 'node:https';
import { pipeline } from 'node:stream';
import { sendError, sendJson } from './respond.ts';
import { upstreamError } from './upstream-error.ts';

/** What to send upstream, once the page's request body has been read and checked. */
export interface Forwarding {
  url: URL;
  body: Buffer;
  contentType: string | undefined;
  accept: string | undefined;
  apiKey: string | undefined;
  /** the service in the visitor's words, for error messages ("language model") */
  label: string;
  /** how long to wait for the upstream's response headers */
  headersTimeoutMs: number;
  /** how long nothing may move, to the page or from the upstream, before both are closed */
  idleMs: number;
}

/** How much of an upstream's error body is read to find its message. */
const ERROR_BODY_LIMIT = 16 * 1024;

/** Errors of a kept-alive connection the upstream closed just as it was reused: nothing was processed. */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);

/**
 * Sends `f` upstream and answers `res` with what comes back, or with a JSON error (502, 504).
 * A request that fails on a reused keep-alive connection before any answer (the upstream closed
 * it idle at that very moment, a race every keep-alive client meets) is sent once more on a
 * connection of its own: the upstream never saw the first one.
 */
export function forward(res: ServerResponse, f: Forwarding): void {
  const headers: OutgoingHttpHeaders = { 'content-length': f.body.length, 'accept-encoding': 'identity' };
  if (f.contentType) headers['content-type'] = f.contentType;
  if (f.accept) headers['accept'] = f.accept;
  if (f.apiKey) headers['authorization'] = `Bearer ${f.apiKey}`;

  let timedOut: 'headers' | 'idle' | undefined;
  let upstream: http.ClientRequest;
  const giveUp = (why: 'headers' | 'idle') => {
    timedOut ??= why;
    upstream.destroy(new Error(why === 'idle' ? 'nothing moved in time' : 'no response headers in time'));
  };
  const timer = setTimeout(() => giveUp('headers'), f.headersTimeoutMs);
  // Idle on the page's socket: nothing written to it for a while.
  res.setTimeout(f.idleMs, () => giveUp('idle'));

  // The page closed the connection (the visitor interrupted, the tab went away): stop upstream now.
  res.on('close', () => {
    clearTimeout(timer);
    if (!res.writableFinished) upstream.destroy();
  });

  const send = (fresh: boolean) => {
    const client = f.url.protocol === 'https:' ? https : http;
    upstream = client.request(f.url, { method: 'POST', headers, ...(fresh ? { agent: false } : {}) });
    const sent = upstream;
    // Idle on the upstream's socket: it sends nothing, or the page stopped reading (the answer is
    // paused, so nothing is read from upstream either).
    sent.setTimeout(f.idleMs, () => giveUp('idle'));
    sent.on('error', (error: NodeJS.ErrnoException) => {
      if (!fresh && !timedOut && sent.reusedSocket && STALE_CONNECTION.has(error.code ?? '') && !res.destroyed && !res.headersSent) return send(true);
      clearTimeout(timer);
      if (res.destroyed || res.writableEnded) return;
      if (res.headersSent) {
        res.destroy();
      } else if (timedOut === 'headers') {
        sendError(res, 504, 'upstream_timeout', `The ${f.label} service did not answer within ${seconds(f.headersTimeoutMs)}.`);
      } else if (timedOut === 'idle') {
        sendError(res, 504, 'upstream_timeout', `The ${f.label} service sent nothing for ${seconds(f.idleMs)}.`);
      } else {
        sendError(res, 502, 'upstream_unreachable', `The ${f.label} service could not be reached (${describeNetworkError(error.code)}).`);
      }
    });
    sent.on('response', (answer) => {
      clearTimeout(timer);
      if (res.destroyed) {
        answer.destroy();
        return;
      }
      const status = answer.statusCode ?? 502;
      if (status >= 300) passError(res, answer, status, f.apiKey);
      else stream(res, answer, status);
    });
    sent.end(f.body);
  };
  send(false);
}

/** Streams a successful answer through chunk by chunk, with only the headers that matter. */
function stream(res: ServerResponse, answer: IncomingMessage, status: number): void {
  const type = answer.headers['content-type'];
  const sse = type?.includes('text/event-stream') === true;
  const headers: OutgoingHttpHeaders = { 'cache-control': sse ? 'no-cache' : 'no-store', 'x-accel-buffering': 'no' };
  if (type) headers['content-type'] = type;
  const length = answer.headers['content-length'];
  if (!sse && length) headers['content-length'] = length;
  const encoding = answer.headers['content-encoding'];
  if (encoding) headers['content-encoding'] = encoding;
  res.writeHead(status, headers);
  res.flushHeaders();
  // On a failure on either side both are destroyed: the page sees a broken stream, upstream a close.
  pipeline(answer, res, () => {});
}

/** Passes an upstream error status on, with its body replaced by a short scrubbed message. */
function passError(res: ServerResponse, answer: IncomingMessage, status: number, apiKey: string | undefined): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    if (res.destroyed || res.writableEnded) return;
    const body = Buffer.concat(chunks).toString('utf8');
    sendJson(res, status, { error: upstreamError(status, body, apiKey) });
  };
  answer.on('data', (chunk: Buffer) => {
    if (size < ERROR_BODY_LIMIT) chunks.push(chunk);
    size += chunk.length;
    if (size >= ERROR_BODY_LIMIT) answer.destroy();
  });
  answer.on('end', finish);
  answer.on('close', finish);
  answer.on('error', finish);
}

/** A network error's code in a few plain words ("connection refused"). */
export function describeNetworkError(code: string | undefined): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host name not found';
    case 'ECONNRESET':
      return 'connection reset';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    default:
      return code?.startsWith('ERR_TLS') || code?.includes('CERT') ? 'TLS failure' : (code ?? 'network error');
  }
}

function seconds(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
