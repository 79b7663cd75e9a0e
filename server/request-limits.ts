// What one request may hold of the server: its body must arrive within a deadline (else 408 and
// the connection closed), and only so many uploads to speech recognition run at once (429
// beyond), so slow or piled-up uploads cannot keep the server's memory and sockets.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from './respond.ts';

/** How long a request body may take to arrive (default of ApiOptions.bodyTimeoutMs). */
export const BODY_TIMEOUT_MS = 15_000;
/** Uploads to /api/stt at once (default of ApiOptions.maxUploads). */
export const MAX_UPLOADS = 4;

/**
 * Closes `req`'s connection when its body has not all arrived `ms` after it began: with a 408
 * `body_timeout` when nothing was answered yet. Whoever reads the body then sees it aborted.
 */
export function enforceBodyDeadline(req: IncomingMessage, res: ServerResponse, ms: number): void {
  if (req.complete) return;
  const timer = setTimeout(() => {
    if (req.complete || req.socket.destroyed) return;
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    // `connection: close` makes Node end the socket once the answer is written.
    sendError(res, 408, 'body_timeout', `The request body did not arrive within ${seconds(ms)}.`, { connection: 'close' });
  }, ms);
  const stop = () => clearTimeout(timer);
  req.once('end', stop);
  req.once('close', stop);
}

/** A fixed number of places for requests that hold a lot while they last (an upload and its transcription). */
export class Slots {
  private taken = 0;

  constructor(readonly size: number) {}

  /** Takes a place until `res` closes; false (nothing taken) when all are in use. */
  take(res: ServerResponse): boolean {
    if (this.taken >= this.size) return false;
    this.taken += 1;
    res.once('close', () => (this.taken -= 1));
    return true;
  }
}

function seconds(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
