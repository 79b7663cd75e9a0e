// Reading a request body from the page with a size limit, and parsing it as JSON no deeper than
// the nesting limit: shared by the proxy routes and the server's own JSON routes (actions,
// analytics, the operator's PIN).

import type { IncomingMessage } from 'node:http';
import { parseOutsideJson, TOO_DEEP } from './json-depth.ts';

/**
 * The request body, or 'too-large' as soon as it passes `limit` (the rest is read and dropped so
 * the page can see the answer), or 'aborted' when the page goes away first.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large' | 'aborted'> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return Promise.resolve('too-large');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) resolve('too-large');
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(size > limit ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', () => resolve('aborted'));
    req.on('close', () => {
      if (!req.complete) resolve('aborted');
    });
  });
}

/**
 * Whether the request says it carries JSON. The routes that act on the server's behalf insist on
 * it: a browser sends that type from another site only after a preflight this server never
 * answers, so no other page can make the kiosk run an action.
 */
export function isJsonRequest(req: IncomingMessage): boolean {
  const essence = (req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
  return essence === 'application/json';
}

/** `body` parsed as JSON, or the sentence saying why it is refused (not JSON, or nested too deep). */
export function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false; message: string } {
  const parsed = parseOutsideJson(body.toString('utf8'));
  if (parsed.ok) return parsed;
  return { ok: false, message: parsed.problem === 'too_deep' ? `The request body is JSON ${TOO_DEEP}.` : 'The request body is not valid JSON.' };
}
