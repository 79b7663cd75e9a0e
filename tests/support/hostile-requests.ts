// Requests as an attacker sends them, for the security tests (tests/security/): any method, any
// Host, Origin or Sec-Fetch-Site header, bodies of any size and shape, bodies that arrive slowly or
// never end. Each answer is read whole; a connection the server closes is an answer too.

import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { expect } from 'vitest';

/** What came back: the status and body, or `closed` when the server closed the connection without an answer. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface HostileInit {
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

/**
 * One request to `path` (sent as given, no normalisation) on the server at `url`, on a connection
 * of its own, its whole answer read. (Node closes a connection whose request body it did not read,
 * so a shared one could be closed under the next request.)
 */
export function send(url: string, path: string, init: HostileInit = {}): Promise<Answer> {
  const { hostname, port } = new URL(url);
  const body = init.body === undefined ? undefined : Buffer.from(init.body);
  // The length is said for every body: Node sends a GET's body without one, which a server reads
  // as the start of a next request (and answers 400 once it gets there).
  const headers = { ...(body ? { 'content-length': String(body.length) } : {}), ...init.headers };
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method: init.method ?? 'GET', headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** `levels` arrays, each inside the one before: `[[[…]]]`. */
export function deepArray(levels: number): string {
  return '['.repeat(levels) + ']'.repeat(levels);
}

/** `levels` objects, each the only field of the one before: `{"a":{"a":{}}}` is three. */
export function deepObject(levels: number): string {
  return '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);
}

/** The error type (`{ error: { type } }`) or refusal code (`{ ok: false, error }`) of an answer. */
export function errorCode(answer: Answer): string | undefined {
  try {
    const body = JSON.parse(answer.body) as { error?: string | { type?: string } };
    return typeof body.error === 'string' ? body.error : body.error?.type;
  } catch {
    return undefined;
  }
}

/** Fails unless the server at `url` still answers `/api/status`. */
export async function expectServing(url: string): Promise<void> {
  const answer = await send(url, '/api/status');
  expect(answer.status).toBe(200);
  expect(JSON.parse(answer.body)).toHaveProperty('services');
}

/** An upload that sends its headers and `first` bytes of its body, then nothing more until the test ends it. */
export interface StalledUpload {
  /** the answer, or 'closed' when the server closed the connection without one */
  answer: Promise<Answer | 'closed'>;
  /** resolves when the server has closed the connection (after an answer, or without one) */
  closed: Promise<void>;
  request: ClientRequest;
}

/** Starts a POST of `declared` bytes to `path` that stops after sending `first` of them. */
export function stalledUpload(url: string, path: string, headers: Record<string, string>, declared: number, first: Buffer): StalledUpload {
  const { hostname, port } = new URL(url);
  const request = httpRequest({ hostname, port, path, method: 'POST', headers: { ...headers, 'content-length': String(declared) }, agent: false });
  const closed = new Promise<void>((resolve) => request.on('close', () => resolve()));
  const answer = new Promise<Answer | 'closed'>((resolve) => {
    request.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.on('end', done);
      res.on('close', done);
    });
    request.on('error', () => resolve('closed'));
    request.on('close', () => resolve('closed'));
  });
  request.write(first);
  return { answer, closed, request };
}

/** How a raw connection ended: what the server wrote, and when it closed it (or that it was still open at the limit). */
export interface RawEnding {
  /** everything the server wrote, as text */
  text: string;
  /** ms from the first byte sent to the server's close, or null when it was still open at the limit */
  closedAfterMs: number | null;
}

/**
 * Opens a connection of its own to the server at `url`, writes `head` as it is, then `drip` (if
 * any) every `everyMs`, and resolves once the server has closed the connection, or at `limitMs`
 * with the connection still open (the test then closes it).
 */
export function rawConnection(url: string, head: string, limitMs: number, drip?: { text: string; everyMs: number }): Promise<RawEnding> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const started = Date.now();
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const end = (closedAfterMs: number | null) => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      clearTimeout(limit);
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString('latin1'), closedAfterMs });
    };
    const limit = setTimeout(() => end(null), limitMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => end(Date.now() - started));
    socket.on('close', () => end(Date.now() - started));
    socket.on('end', () => end(Date.now() - started));
    socket.write(head);
    if (drip) timer = setInterval(() => !socket.destroyed && socket.write(drip.text), drip.everyMs);
  });
}
