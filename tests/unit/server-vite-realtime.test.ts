// `vite dev` listening on its own HTTP server, with the kiosk plugin and STT_MODE=realtime in the
// folder's .env: /api/stt/realtime is relayed to the Realtime transcription double as on the
// kiosk's own server, and Vite's hot reload socket on the same server still opens.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { kioskApi } from '../../server/vite-plugin.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../servers/openai-fakes.ts';
import { openPage } from '../support/realtime-page.ts';
import { emptyPgliteFolder } from '../support/test-memory.ts';

const KEY = 'sk-vite-dev-5e1b7c3a9d2f4068';
const ENV_NAMES = ['STT_BASE_URL', 'STT_API_KEY', 'STT_MODEL', 'STT_MODE', 'KIOSK_DATA_DIR', 'DATABASE_URL'];
const saved = Object.fromEntries(ENV_NAMES.map((n) => [n, process.env[n]]));
const seen: string[] = [];
const logs: string[] = [];

let root: string;
let fakes: FakeOpenAI;
let vite: ViteDevServer;
let url: string;

beforeAll(async () => {
  for (const n of ENV_NAMES) delete process.env[n];
  fakes = await startFakeOpenAI();
  root = mkdtempSync(join(tmpdir(), 'kiosk-vite-realtime-'));
  writeFileSync(join(root, '.env'), `STT_BASE_URL=${fakes.baseURL}\nSTT_API_KEY=${KEY}\nSTT_MODEL=gpt-4o-transcribe\nSTT_MODE=realtime\nKIOSK_DATA_DIR=memory-here\n`);
  // The folder starts from an empty database's files, so that the plugin opens it without PGlite's initdb.
  await emptyPgliteFolder(join(root, 'memory-here'));
  vite = await createServer({ root, configFile: false, logLevel: 'silent', plugins: [kioskApi({ log: (line) => logs.push(line) })], server: { host: '127.0.0.1', port: 0 } });
  await vite.listen();
  const address = vite.httpServer!.address() as { port: number };
  url = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await vite.close();
  await fakes.close();
  rmSync(root, { recursive: true, force: true });
  for (const n of ENV_NAMES) {
    if (saved[n] === undefined) delete process.env[n];
    else process.env[n] = saved[n];
  }
  expect([...seen, ...logs].join('\n')).not.toContain(KEY);
});

describe('kioskApi on a listening vite dev server', () => {
  it('relays /api/stt/realtime to the service from the folder’s .env', async () => {
    const page = await openPage(url, seen, '/api/stt/realtime?language=en');
    const updated = await page.next('session.updated');
    expect(updated['session']).toMatchObject({ audio: { input: { transcription: { model: 'gpt-4o-transcribe', language: 'en' }, turn_detection: null } } });
    expect(fakes.realtime.sessions[0]!.authorization).toBe(`Bearer ${KEY}`);
    page.socket.close();
    await fakes.realtime.whenClosed(1);
  });

  it('leaves Vite’s hot reload socket alone', async () => {
    const hmr = new WebSocket(`${url.replace('http', 'ws')}/?token=${vite.config.webSocketToken}`, 'vite-hmr');
    const first = await new Promise<string>((resolve, reject) => {
      hmr.once('message', (data) => resolve(String(data)));
      hmr.once('error', reject);
    });
    expect(JSON.parse(first)).toMatchObject({ type: 'connected' });
    hmr.close();
  });
});
