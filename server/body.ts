// Reading a request body from the page with a size limit: shared by the proxy routes and the
// JSON routes of the server's own (actions, analytics).

import type { IncomingMessage } from 'node:http';

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

/** `body` parsed as JSON, or undefined when it is not JSON. */
export function parseJson(body: Buffer): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(body.toString('utf8')) as unknown };
  } catch {
    return undefined;
  }
}
