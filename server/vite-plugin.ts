// `vite dev` with the kiosk server's /api/ proxy and its /api/stt/realtime socket (same
// settings, same .env, the same checks of who may use it, the same pairings and the note for
// `npm run pair`, the same memory: PGlite in KIOSK_DATA_DIR, taken from the project's root, or
// DATABASE_URL), and the voice detector's `.mjs` files under /vad/ served as they are instead of
// through Vite's transform. The dev server sends no Content-Security-Policy (server/app.ts
// does): Vite's dev page and its hot reload run inline scripts, which the policy forbids.

import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { createApiHandler, type ApiOptions } from './api.ts';
import { loadConfig } from './config.ts';
import { deviceGuardOn } from './device-guard.ts';
import { doorUrl, openDoor } from './local-door.ts';
import { openMemory, type Memory } from './storage/memory.ts';
import { readMemorySettings } from './storage/settings.ts';
import { createSttRealtime, type SttRealtime } from './stt-realtime.ts';

/** A plain file name ending in `.mjs` (no folders, no `..`), under /vad/, with any query. */
const VAD_MODULE = /^\/vad\/([\w.-]+\.mjs)(?:\?.*)?$/;

/** The Vite plugin that mounts the /api/ proxy, the /api/stt/realtime socket and the raw /vad/*.mjs files in the dev server. */
export function kioskApi(options: ApiOptions = {}): Plugin {
  let memory: Memory | undefined;
  let realtime: SttRealtime | undefined;
  let shut = () => {};
  return {
    name: 'voice-kiosk-api',
    apply: 'serve',
    async configureServer(server) {
      const config = loadConfig(server.config.root);
      const settings = readMemorySettings(process.env, server.config.root);
      memory = await openMemory(settings, options.log ? { log: options.log } : {});
      server.config.logger.info(`  memory: ${memory.where}`);
      const say = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
      // `npm run pair` reaches the dev server as it reaches the kiosk's own (local-door.ts), over plain HTTP.
      const door = settings.kind === 'pglite' && !server.config.server.https ? randomBytes(32).toString('base64url') : undefined;
      const devices = deviceGuardOn(memory, options.pairing ?? {}, say, door);
      const api = createApiHandler(config, memory, { ...options, devices, ...(door ? { door } : {}) });
      if (door && settings.kind === 'pglite') {
        server.httpServer?.once('listening', () => {
          const { address, port } = server.httpServer!.address() as AddressInfo;
          shut = openDoor(settings.dataDir, { pid: process.pid, url: doorUrl(address, port, false), token: door });
        });
      }
      const vadDir = join(server.config.publicDir, 'vad');
      server.middlewares.use(api);
      // /api/stt/realtime on the dev server's own HTTP server (none in middleware mode); every
      // other upgrade, Vite's hot reload among them, is left to its owner.
      realtime = createSttRealtime(config, { ...options.sttRealtime, idleMs: options.streamIdleMs, log: say, devices });
      const relay = realtime;
      server.httpServer?.on('upgrade', (req, socket, head) => void relay.upgrade(req, socket, head));
      // onnxruntime-web imports ort-wasm-simd-threaded.mjs at run time; through Vite's transform
      // that request gets `?import` added and fails, so answer it with the file itself.
      server.middlewares.use((req, res, next) => {
        const name = VAD_MODULE.exec(req.url ?? '')?.[1];
        if (!name || name.startsWith('.') || !server.config.publicDir || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
        readFile(join(vadDir, name)).then(
          (code) => {
            res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'content-length': code.length, 'cache-control': 'no-cache' });
            res.end(req.method === 'HEAD' ? undefined : code);
          },
          () => next(),
        );
      });
    },
    // The dev server closing (Ctrl-C, or a test's close()) ends the plugins' build: let the memory go.
    async closeBundle() {
      shut();
      realtime?.close();
      realtime = undefined;
      await memory?.close();
      memory = undefined;
    },
  };
}
