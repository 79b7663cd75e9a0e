// `vite dev` with the kiosk plugin: the /api/ routes from the same .env as `npm run serve`, the
// same memory (PGlite in KIOSK_DATA_DIR under the project's root, let go when the server closes),
// and the voice detector's .mjs files under /vad/ served raw even when Vite adds `?import`.

import { createServer as createHttpServer, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kioskApi } from '../../server/vite-plugin.ts';
import { listen } from '../support/server-harness.ts';
import { emptyPgliteFolder } from '../support/test-memory.ts';

const MODULE = 'export const threads = 1; // not transformed\n';
const ENV_NAMES = ['TTS_BASE_URL', 'TTS_VOICE', 'TTS_API_KEY', 'KIOSK_DATA_DIR', 'DATABASE_URL'];

let root: string;
let vite: ViteDevServer;
let http: Server;
let url: string;
const saved = Object.fromEntries(ENV_NAMES.map((n) => [n, process.env[n]]));

beforeAll(async () => {
  for (const n of ENV_NAMES) delete process.env[n];
  root = mkdtempSync(join(tmpdir(), 'kiosk-vite-'));
  mkdirSync(join(root, 'public', 'vad'), { recursive: true });
  writeFileSync(join(root, 'public', 'vad', 'ort-wasm-simd-threaded.mjs'), MODULE);
  writeFileSync(join(root, '.env'), 'TTS_BASE_URL=http://127.0.0.1:9/v1\nTTS_VOICE=nova\nTTS_API_KEY=sk-dev-only-77aa\nKIOSK_DATA_DIR=memory-here\n');
  // The folder starts from an empty database's files, so that the plugin opens it without PGlite's initdb.
  await emptyPgliteFolder(join(root, 'memory-here'));
  vite = await createServer({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [kioskApi({ log: () => {} })],
    server: { middlewareMode: true, hmr: false, ws: false },
  });
  http = createHttpServer(vite.middlewares);
  url = `http://127.0.0.1:${await listen(http)}`;
});

afterAll(async () => {
  await new Promise((resolve) => http.close(resolve));
  await vite.close();
  // The memory was let go with the dev server: another server may open the folder now.
  expect(existsSync(join(root, 'memory-here', 'memory.lock'))).toBe(false);
  rmSync(root, { recursive: true, force: true });
  for (const n of ENV_NAMES) {
    if (saved[n] === undefined) delete process.env[n];
    else process.env[n] = saved[n];
  }
});

describe('kioskApi in vite dev', () => {
  it('answers /api/config from the folder’s .env', async () => {
    const response = await fetch(`${url}/api/config`);
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({ llm: null, stt: null, tts: { model: 'tts-1', voice: 'nova', format: 'auto' } });
    expect(body).not.toContain('sk-dev-only');
  });

  it('keeps its memory in KIOSK_DATA_DIR, taken from the project’s root', async () => {
    expect(existsSync(join(root, 'memory-here', 'memory.lock'))).toBe(true);
    const response = await fetch(`${url}/api/status`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ counts_since: expect.stringMatching(/^\d{4}-/) });
  });

  it('keeps the proxy closed to other paths', async () => {
    expect((await fetch(`${url}/api/llm/models`)).status).toBe(404);
    expect((await fetch(`${url}/api/llm/chat/completions`, { method: 'POST', body: '{}' })).status).toBe(503);
  });

  it.each(['', '?import', '?import&t=123'])('serves /vad/*.mjs%s as the file itself', async (query) => {
    const response = await fetch(`${url}/vad/ort-wasm-simd-threaded.mjs${query}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await response.text()).toBe(MODULE);
  });

  it('leaves a missing /vad/ module to Vite', async () => {
    const response = await fetch(`${url}/vad/missing.mjs`);
    expect(response.status).not.toBe(200);
    await response.text();
  });
});
