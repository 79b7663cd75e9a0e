// The build's gzip copies and the server sending them: big compressible files under assets/ and
// vad/ get a `.gz` beside them, small ones, images and the files elsewhere do not, and the server
// sends the copy (with its type) only to a client that accepts gzip.

import { request } from 'node:http';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../../scripts/precompress.ts';
import { startServer, type RunningServer } from '../../server/app.ts';
import { tempSiteRoot } from '../support/server-harness.ts';
import { emptyTestMemory } from '../support/test-memory.ts';

const WASM = Buffer.alloc(64 * 1024, 'wasm-like bytes that repeat ');
const SCRIPT = 'console.log("a script of the kiosk");\n'.repeat(2000);
let root: string;
let server: RunningServer;

beforeAll(async () => {
  root = tempSiteRoot('kiosk-gzip-');
  mkdirSync(join(root, 'assets'));
  mkdirSync(join(root, 'vad'));
  writeFileSync(join(root, 'vad', 'model.wasm'), WASM);
  writeFileSync(join(root, 'assets', 'tiny.js'), 'console.log(1);');
  writeFileSync(join(root, 'assets', 'icon.png'), Buffer.alloc(4096));
  writeFileSync(join(root, 'sw.js'), 'self.x = 1;'.repeat(500));
  writeFileSync(join(root, 'assets', 'app-Ab12.js'), SCRIPT);
  expect(await precompress(root)).toBe(2);
  server = await startServer({ root, config: { llm: null, stt: null, tts: null }, host: '127.0.0.1', port: 0, quiet: true, memory: await emptyTestMemory() });
});

afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

/** One GET with exactly these headers (fetch would add accept-encoding and decode). */
function get(path: string, headers: Record<string, string>): Promise<{ headers: Record<string, unknown>; body: Buffer }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    request({ hostname, port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('gzip copies', () => {
  it('are written for big compressible files under assets/ and vad/ only', () => {
    expect(existsSync(join(root, 'vad', 'model.wasm.gz'))).toBe(true);
    for (const left of ['assets/tiny.js.gz', 'assets/icon.png.gz', 'sw.js.gz']) expect(existsSync(join(root, left)), left).toBe(false);
  });

  it('are sent, typed as the file, to a client that accepts gzip', async () => {
    const answer = await get('/vad/model.wasm', { 'accept-encoding': 'gzip, deflate, br' });
    expect(answer.headers).toMatchObject({ 'content-encoding': 'gzip', 'content-type': 'application/wasm', vary: 'Accept-Encoding' });
    expect(answer.body.length).toBeLessThan(WASM.length / 10);
    expect(gunzipSync(answer.body).equals(WASM)).toBe(true);
  });

  it("a script's copy is typed as a script, not as gzip", async () => {
    const answer = await get('/assets/app-Ab12.js', { 'accept-encoding': 'gzip' });
    expect(answer.headers).toMatchObject({ 'content-encoding': 'gzip', vary: 'Accept-Encoding' });
    expect(answer.headers['content-type']).toMatch(/^text\/javascript/);
    expect(gunzipSync(answer.body).toString()).toBe(SCRIPT);
  });

  it('are not sent to a client that does not accept gzip', async () => {
    const answer = await get('/vad/model.wasm', {});
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.equals(WASM)).toBe(true);
  });
});
