// The last line behind every /api/ route: a handler that throws, or whose promise rejects, gets
// a 500 in the shape the page reads (or its connection closed when the answer had begun) and one
// log line, and the server goes on serving. The line names the error and where it was thrown,
// never its message, which could hold what a visitor said.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from './respond.ts';

/** Runs `handle` for one request; whatever it throws or rejects with is answered and logged here. */
export function guardRoute(req: IncomingMessage, res: ServerResponse, path: string, log: (line: string) => void, handle: () => void | Promise<void>): void {
  const fail = (error: unknown) => {
    log(`[api] ${req.method ?? '?'} ${path} failed: ${describeFailure(error)}`);
    if (res.destroyed || res.writableEnded) return;
    if (res.headersSent) res.destroy();
    else sendError(res, 500, 'server_error', "The kiosk's server failed on this request; nothing more was done with it.", { connection: 'close' });
  };
  try {
    const running = handle();
    if (running) running.catch(fail);
  } catch (error) {
    fail(error);
  }
}

/** `RangeError at server/secrets.ts:70`: the error's kind and the first place in this project it came from. */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return `a thrown ${error === null ? 'null' : typeof error}`;
  const frames = (error.stack ?? '').split('\n').slice(1);
  const ours = frames.map((frame) => /((?:server|src)\/[\w./-]+\.ts:\d+)/.exec(frame)?.[1]).find((place) => place !== undefined);
  const code = (error as NodeJS.ErrnoException).code;
  return `${error.name}${typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? ` (${code})` : ''}${ours ? ` at ${ours}` : ''}`;
}
