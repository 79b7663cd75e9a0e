// A page's side of /api/stt/realtime for the server tests: a ws client that keeps every event it
// is sent (and hands each text to a list the harness checks for the key), waits for the next
// event of a type or for the close, and an opening that the server refuses, with its answer.

import WebSocket from 'ws';

/** One event the page received, parsed. */
export interface PageEvent {
  type: string;
  [field: string]: unknown;
}

/** The page's socket, open. */
export class RealtimePage {
  readonly events: PageEvent[] = [];
  /** resolves with the close code and reason */
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly read = new Map<string, number>();
  private wake: () => void = () => {};

  constructor(
    readonly socket: WebSocket,
    seen: string[],
  ) {
    socket.on('message', (data) => {
      const text = String(data);
      seen.push(text);
      this.events.push(JSON.parse(text) as PageEvent);
      this.wake();
    });
    this.closed = new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
  }

  /** Sends `event` as JSON (or a text as it is). */
  send(event: object | string): void {
    this.socket.send(typeof event === 'string' ? event : JSON.stringify(event));
  }

  /** The next event of `type` not yet taken by an earlier call; rejects if the socket closes first. */
  async next(type: string): Promise<PageEvent> {
    let open = true;
    void this.closed.then(() => {
      open = false;
      this.wake();
    });
    for (;;) {
      const from = this.read.get(type) ?? 0;
      const at = this.events.findIndex((event, i) => i >= from && event.type === type);
      if (at >= 0) {
        this.read.set(type, at + 1);
        return this.events[at]!;
      }
      if (!open) throw new Error(`the socket closed before a ${type} event came (had: ${this.types().join(', ')})`);
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  types(): string[] {
    return this.events.map((event) => event.type);
  }

  /** error events, by their code */
  errorCodes(): unknown[] {
    return this.events.filter((event) => event.type === 'error').map((event) => (event['error'] as { code?: unknown }).code);
  }
}

/** How an opening the server refused was answered. */
export interface Refused {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { error?: { type?: string; message?: string } };
}

/** `http://…` as `ws://…` with `path`. */
function socketUrl(base: string, path: string): string {
  return `${base.replace(/^http/, 'ws')}${path}`;
}

/** Opens `path` on the kiosk at `base` as a page would; rejects when the opening is refused. */
export function openPage(base: string, seen: string[], path = '/api/stt/realtime', headers: Record<string, string> = {}): Promise<RealtimePage> {
  const socket = new WebSocket(socketUrl(base, path), { headers });
  const page = new RealtimePage(socket, seen);
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(page));
    socket.once('unexpected-response', (_req, res) => reject(new Error(`the opening was refused (${res.statusCode})`)));
    socket.once('error', reject);
  });
}

/** Opens `path` expecting a refusal; resolves with the HTTP answer (its body added to `seen`). */
export function refusedOpening(base: string, seen: string[], path = '/api/stt/realtime', headers: Record<string, string> = {}): Promise<Refused> {
  const socket = new WebSocket(socketUrl(base, path), { headers });
  socket.on('error', () => {});
  return new Promise((resolve, reject) => {
    socket.once('open', () => {
      socket.close();
      reject(new Error('the opening was accepted'));
    });
    socket.once('unexpected-response', (_req, res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        seen.push(text);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) as Refused['body'] });
      });
    });
  });
}
