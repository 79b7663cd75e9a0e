// The built page's files (`dist/`) as the kiosk's server sends them: each file at its own path,
// its gzip copy (scripts/precompress.ts) to a browser that takes gzip, and the page itself for a
// path without an extension (the single-page fallback `vite preview` has). What HTTP asks of a
// file (byte ranges, a range that cannot be served, conditional requests, HEAD, a read that fails
// half way) is `send`'s, the file server of Express, which parses ranges with `range-parser`.

import { readdirSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, sep } from 'node:path';
import { contentType } from 'mime-types';
import send from 'send';

/** Headers a file gets beside what `send` sets: its type and how long it may be cached. */
export type FileHeaders = (res: ServerResponse, pathname: string) => void;

/** Serves a file for `req`, or calls `next` when there is none to serve. */
export type FileHandler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** The page the single-page fallback serves. */
const PAGE = '/index.html';
/** A last path segment that names a file (`app.js`, `flow.yaml`): no fallback to the page for it. */
const FILE_NAME = /\/[^/]*\.\w+$/;

/**
 * The files under `root` as they are when the server starts (the build does not change under a
 * running server), each by its URL path: `/assets/index-Ab12.js`. Dot-files and dot-folders are
 * left out, `.well-known` apart.
 */
function filesUnder(root: string): Set<string> {
  const files = new Set<string>();
  for (const name of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
    const path = `/${name.split(sep).join('/')}`;
    if (/\/\.(?!well-known\/)/.test(path)) continue;
    try {
      if (statSync(join(root, name)).isFile()) files.add(path);
    } catch {
      // gone since the listing: not served
    }
  }
  return files;
}

/** The URL path of `req`, decoded, or null when it does not decode. */
function pathOf(req: IncomingMessage): string | null {
  const raw = (req.url ?? '/').split('?', 1)[0]!;
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** Whether the request's Accept-Encoding takes gzip (and does not refuse it with q=0). */
function takesGzip(req: IncomingMessage): boolean {
  const header = req.headers['accept-encoding'] ?? '';
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    return (coding === 'gzip' || coding === '*') && (q === undefined || Number(q) > 0);
  });
}

/** The handler for the files under `root`; `headers` adds a file's own headers (its type, its caching). */
export function createStaticFiles(root: string, headers: FileHeaders): FileHandler {
  const files = filesUnder(root);
  const hasGzip = [...files].some((path) => path.endsWith('.gz'));

  return (req, res, next) => {
    const path = pathOf(req);
    if (path === null) return next();
    const asked = files.has(path) ? path : files.has(`${path.replace(/\/$/, '')}/index.html`) ? `${path.replace(/\/$/, '')}/index.html` : null;
    const found = asked ?? (!FILE_NAME.test(path) && !path.startsWith('/.well-known/') && files.has(PAGE) ? PAGE : null);
    if (found === null) return next();
    // Caches keep the plain and the gzip answer apart whenever the build has gzip copies at all.
    if (hasGzip) res.setHeader('vary', 'Accept-Encoding');
    const gzip = takesGzip(req) && files.has(`${found}.gz`);
    const file = send(req, encodeURI(gzip ? `${found}.gz` : found), { root, dotfiles: 'allow', index: false, cacheControl: false, etag: true, lastModified: true });
    file.on('headers', (answer: ServerResponse) => {
      // Typed as the file asked for, the gzip copy too (send would name a .gz application/gzip).
      answer.setHeader('content-type', contentType(extname(found)) || 'application/octet-stream');
      headers(answer, found);
      if (gzip) answer.setHeader('content-encoding', 'gzip');
    });
    file.on('error', (error: { status?: number; headers?: Record<string, string> }) => refuse(res, error, next));
    file.pipe(res);
  };
}

/**
 * What `send` could not serve: a file gone since the start is not there (`next`); a range that
 * cannot be served is 416 with the file's length in `content-range`; a read that fails after the
 * answer began ends the connection.
 */
function refuse(res: ServerResponse, error: { status?: number; headers?: Record<string, string> }, next: () => void): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const status = error.status ?? 500;
  if (status === 404) return next();
  for (const name of ['content-type', 'content-length', 'content-encoding', 'etag', 'last-modified', 'accept-ranges']) res.removeHeader(name);
  for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(`${status === 416 ? 'That byte range is not in the file' : 'The file could not be sent'}.\n`);
}

