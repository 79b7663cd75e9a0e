// The kiosk's own HTTP (or HTTPS, tls.ts) server: the /api/ proxy first, then the built page from
// `root` (static-files.ts), a few security headers on every answer, and the same deadlines for
// every request's headers and body, whatever its route; its one WebSocket, /api/stt/realtime, is
// relayed by stt-realtime.ts. Both /api/ and the socket serve paired devices only
// (device-guard.ts), with one guard; `npm run pair` finds the server by the note it leaves in its
// data folder (local-door.ts).

import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createApiHandler, type ApiConfig, type ApiOptions } from './api.ts';
import { deviceGuardOn } from './device-guard.ts';
import { certificateFingerprint, doorUrl, openDoor } from './local-door.ts';
import { BODY_TIMEOUT_MS, enforceBodyDeadline } from './request-limits.ts';
import { refuseUpgrade } from './respond.ts';
import { createStaticFiles } from './static-files.ts';
import { createSttRealtime } from './stt-realtime.ts';
import type { Memory } from './storage/memory.ts';

export interface ServerOptions {
  /** the folder of the built page (`dist/`) */
  root: string;
  /** the services, and the actions' origins and secrets (left out: every action is refused) */
  config: ApiConfig;
  host: string;
  /** 0 picks a free port */
  port: number;
  /** no log line per proxied request */
  quiet?: boolean;
  /** passed to the API handler (a shorter upstream time-out in tests) */
  api?: ApiOptions;
  /** what outlives a restart (server/storage/); the caller opens it, and closes it after `close()` */
  memory: Memory;
  /** speak HTTPS with this certificate and key (PEM), read by tls.ts */
  tls?: { cert: Buffer; key: Buffer };
  /** the data folder holding the memory (PGlite's), where the note for `npm run pair` is left while the server runs */
  doorDir?: string;
}

export interface RunningServer {
  /** where it listens, with the real port, e.g. `http://127.0.0.1:4173` (https with TLS) */
  url: string;
  /** stops listening and drops open connections (streams in flight included) */
  close(): Promise<void>;
}

/** Types the static server does not know, or names differently. */
const MIME: Record<string, string> = {
  '.wasm': 'application/wasm',
  '.mjs': 'text/javascript; charset=utf-8',
  '.onnx': 'application/octet-stream',
};

/**
 * What the page may load and run, and who may frame it. Scripts, workers and the voice detector's
 * worklet only from the kiosk's own files (the build puts no script inline), plus WebAssembly,
 * which the detector's runtime compiles; images, sounds and styles from its own files; no plugin,
 * no <base>, no form posting elsewhere, no frame around it. Connections: its own server only, and `data:`
 * (the OpenAI client probes fetch with one); a flow at an address comes through `/api/flows`. `npm run dev` sends none of this (Vite's dev page runs
 * inline scripts); the browser tests run the production build under it and fail on any refusal.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "connect-src 'self' data:",
  "img-src 'self'",
  "media-src 'self'",
  "style-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/**
 * The flow studio's preview (/studio/preview.html) is the kiosk shown inside the studio's page, so
 * that page alone may be framed, and only by a page of this server; every other stays unframeable.
 */
export const PREVIEW_PAGE = '/studio/preview.html';
export const PREVIEW_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace("frame-ancestors 'none'", "frame-ancestors 'self'");

/** Sent with every answer: files, the page, and /api/. */
export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'permissions-policy': 'microphone=(self)',
};

/** Starts the server; rejects with the listen error (EADDRINUSE) when it cannot. */
export function startServer(options: ServerOptions): Promise<RunningServer> {
  const log = options.quiet ? () => {} : options.api?.log;
  const say = log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const door = options.doorDir === undefined ? undefined : randomBytes(32).toString('base64url');
  const devices = options.api?.devices ?? deviceGuardOn(options.memory, options.api?.pairing ?? {}, say, door);
  const api = createApiHandler(options.config, options.memory, { ...options.api, devices, flows: { root: options.root, ...options.api?.flows }, ...(door ? { door } : {}), ...(log ? { log } : {}) });
  const realtime = createSttRealtime(options.config, { ...options.api?.sttRealtime, idleMs: options.api?.streamIdleMs, log: say, devices });
  const files = createStaticFiles(options.root, (res, pathname) => {
    const type = MIME[extension(pathname)];
    if (type) res.setHeader('content-type', type);
    // Vite names everything under /assets/ by its content; anything else (index.html above all,
    // and the page served for unknown paths) must be checked again on every load.
    res.setHeader('cache-control', pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
  });
  const notFound = (res: ServerResponse) => {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Not found\n');
  };

  const bodyTimeoutMs = options.api?.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
  const serve: RequestListener = (req: IncomingMessage, res: ServerResponse) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    api(req, res, () => {
      // /api/ keeps its own body deadline; a file's request has the same one.
      enforceBodyDeadline(req, res, bodyTimeoutMs);
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
        res.end('Method not allowed\n');
        return;
      }
      const path = (req.url ?? '/').split('?', 1)[0];
      if (path === PREVIEW_PAGE) res.setHeader('content-security-policy', PREVIEW_CONTENT_SECURITY_POLICY);
      // The studio's pages are relative to /studio/, so its address without the slash is sent there.
      if (path === '/studio') {
        res.writeHead(308, { location: '/studio/' });
        res.end();
        return;
      }
      files(req, res, () => notFound(res));
    });
  };
  const tls = options.tls;
  const deadlines = requestDeadlines(bodyTimeoutMs);
  // Over TLS the handshake, before any header, has the same deadline (Node's default is 2 minutes).
  const server = tls ? createHttpsServer({ cert: tls.cert, key: tls.key, handshakeTimeout: bodyTimeoutMs, ...deadlines }, serve) : createServer(deadlines, serve);

  // /api/stt/realtime is a WebSocket; no other address of this server is one.
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!realtime.upgrade(req, socket, head)) refuseUpgrade(socket, 404, 'not_found', 'There is no WebSocket at this address on this kiosk.');
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const host = options.host.includes(':') ? `[${options.host}]` : options.host;
      const scheme = tls ? 'https' : 'http';
      const shut = leaveDoorNote(options, port, door, say);
      resolve({
        url: `${scheme}://${host}:${port}`,
        close: () =>
          new Promise<void>((done) => {
            shut();
            // The relayed sockets are no longer the HTTP server's connections: they are closed here.
            realtime.close();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

/**
 * Leaves the note `npm run pair` finds this server by (its address and the door's token) in the
 * data folder, when the server has one; returns what takes it away again. A note that cannot be
 * left is said in one line: the server runs on, and `npm run pair` works only while it is stopped.
 */
function leaveDoorNote(options: ServerOptions, port: number, door: string | undefined, say: (line: string) => void): () => void {
  if (options.doorDir === undefined || door === undefined) return () => {};
  const tls = options.tls;
  try {
    return openDoor(options.doorDir, { pid: process.pid, url: doorUrl(options.host, port, tls !== undefined), token: door, ...(tls ? { fingerprint: certificateFingerprint(tls.cert) } : {}) });
  } catch (error) {
    say(`[pairing] could not leave the note for npm run pair in ${options.doorDir} (${(error as Error).message}); it can make codes only while this server is stopped`);
    return () => {};
  }
}

/**
 * Node's own deadlines for every connection, a second past the body deadline: the headers must all
 * arrive within it (Node answers a bare 408 and closes the connection), and the whole request too,
 * a backstop behind the server's own 408 (request-limits.ts). Node counts the headers' time from
 * the connection, the server the body's from the request's start: with the two deadlines equal, a
 * machine that stalled between a connection and the reading of its headers had Node's 408 win over
 * the server's `body_timeout` for a body that was late. Node looks at its connections once a second
 * (every 30 s by default), a quarter of the deadline when that is shorter.
 */
function requestDeadlines(bodyTimeoutMs: number): { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number } {
  const backstop = bodyTimeoutMs + 1000;
  return { headersTimeout: backstop, requestTimeout: backstop, connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(bodyTimeoutMs / 4))) };
}

function extension(pathname: string): string {
  const dot = pathname.lastIndexOf('.');
  return dot > pathname.lastIndexOf('/') ? pathname.slice(dot).toLowerCase() : '';
}
