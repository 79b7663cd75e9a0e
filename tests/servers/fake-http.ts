// Plumbing shared by the fake OpenAI services: request bodies, OpenAI-shaped error answers,
// the failure switch that stages outages, and waits that notice when the client has gone.

import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The wall clock in milliseconds, to a fraction of one, on Date.now's epoch: what a page reads as
 * `performance.timeOrigin` plus a mark's time, so a double's records line up with the page's marks.
 */
export function wallClock(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * When a double took a request and when it gave the answer its client waits on (wall clock): the
 * service's own part of a delay measured around it, timers' lateness included, which a benchmark
 * takes away to leave what the kiosk itself added.
 */
export interface ServiceTime {
  receivedAt: number;
  answeredAt?: number;
}

/** An outage any fake service can stage. */
export type OutageMode = 'http_500' | 'http_429' | 'refuse' | 'hang';

/** Reads a request's whole body. */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** Answers with a JSON body. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Answers with OpenAI's error shape: `{ error: { message, type, param, code } }`. */
export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  options: { type?: string; param?: string | null; code?: string | null } = {},
): void {
  const error = { message, type: options.type ?? 'invalid_request_error', param: options.param ?? null, code: options.code ?? null };
  sendJson(res, status, { error });
}

/** A request the fake refuses with a 400, naming the parameter at fault. */
export class BadRequest extends Error {
  constructor(
    message: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

/**
 * Tracks whether the client went away before the answer was complete. `settled` marks the
 * answer as over by the fake's own choice (a refused socket is not the client leaving).
 */
export class ClientWatch {
  gone = false;
  private settledByFake = false;
  private readonly waiters = new Set<() => void>();

  constructor(res: ServerResponse, onGone: () => void) {
    res.on('close', () => {
      if (res.writableFinished || this.settledByFake) return;
      this.gone = true;
      onGone();
      for (const wake of this.waiters) wake();
    });
  }

  /** The fake ends this answer itself (e.g. destroys the socket): not an abort by the client. */
  settle(): void {
    this.settledByFake = true;
  }

  /** Waits `ms`; resolves early (with false) if the client goes away. */
  pause(ms: number): Promise<boolean> {
    if (this.gone) return Promise.resolve(false);
    if (ms <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve(!this.gone);
      };
      const timer = setTimeout(wake, ms);
      this.waiters.add(wake);
    });
  }
}

/** Staged failures: `count` requests fail in `mode`, then the service is back to normal. */
export class FailureSwitch<Mode extends string> {
  private mode: Mode | null = null;
  private remaining = 0;

  set(mode: Mode | 'ok', count = Infinity): void {
    if (mode === 'ok' || count <= 0) {
      this.mode = null;
      this.remaining = 0;
    } else {
      this.mode = mode as Mode;
      this.remaining = count;
    }
  }

  /** The failure this request should suffer, if any (and counts it). */
  take(): Mode | null {
    if (this.mode === null) return null;
    const mode = this.mode;
    if (--this.remaining <= 0) this.set('ok');
    return mode;
  }
}

/**
 * Performs an outage. Returns false for modes it does not know (the service handles those).
 * `hang` leaves the answer open until the client goes away or the server closes.
 */
export function performOutage(mode: string, res: ServerResponse, watch: ClientWatch): boolean {
  switch (mode) {
    case 'http_500':
      sendError(res, 500, 'The server had an error while processing your request. Sorry about that!', { type: 'server_error' });
      return true;
    case 'http_429':
      res.setHeader('retry-after', '1');
      sendError(res, 429, 'Rate limit reached for requests. Please try again in 1s.', { type: 'requests', code: 'rate_limit_exceeded' });
      return true;
    case 'refuse':
      watch.settle();
      res.socket?.destroy();
      return true;
    case 'hang':
      return true;
    default:
      return false;
  }
}

/** Resolves once `count()` reaches `n`; `notify` is called by the owner whenever it grows. */
export class CountWaiter {
  private readonly waiting: { n: number; resolve: () => void }[] = [];

  constructor(private readonly count: () => number) {}

  until(n: number): Promise<void> {
    if (this.count() >= n) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push({ n, resolve }));
  }

  notify(): void {
    for (const w of [...this.waiting]) {
      if (this.count() >= w.n) {
        this.waiting.splice(this.waiting.indexOf(w), 1);
        w.resolve();
      }
    }
  }
}
