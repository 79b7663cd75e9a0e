// The kiosk server's static side: the built page from a folder with the single-page fallback,
// the right types for WebAssembly, modules and models, no caching of the page itself, the
// security headers on every answer, a free port when asked for 0, and a clean close.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/app.ts';
import { SITE_PAGE as INDEX, tempSiteRoot } from '../support/server-harness.ts';
import { emptyTestMemory } from '../support/test-memory.ts';

const NO_SERVICES = { llm: null, stt: null, tts: null };

let root: string;
let server: RunningServer;

beforeAll(async () => {
  root = tempSiteRoot('kiosk-static-');
  mkdirSync(join(root, 'assets'));
  mkdirSync(join(root, 'vad'));
  writeFileSync(join(root, 'assets', 'index-Ab12Cd.js'), 'console.log(1);');
  writeFileSync(join(root, 'vad', 'ort-wasm-simd-threaded.wasm'), new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  writeFileSync(join(root, 'vad', 'ort-wasm-simd-threaded.mjs'), 'export default 1;');
  writeFileSync(join(root, 'vad', 'silero_vad_v5.onnx'), new Uint8Array([8, 1, 18, 0]));
  server = await startServer({ root, config: NO_SERVICES, host: '127.0.0.1', port: 0, quiet: true, memory: await emptyTestMemory() });
});

afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

describe('static files', () => {
  it('listens on a real port when asked for port 0', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.url).not.toMatch(/:0$/);
  });

  it.each(['/', '/index.html', '/check-in', '/some/deep/route'])('serves the page, never cached, for %s', async (path) => {
    const response = await fetch(`${server.url}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toBe(INDEX);
  });

  it.each([
    ['/vad/ort-wasm-simd-threaded.wasm', /^application\/wasm$/],
    ['/vad/ort-wasm-simd-threaded.mjs', /^text\/javascript/],
    ['/vad/silero_vad_v5.onnx', /^application\/octet-stream$/],
    ['/assets/index-Ab12Cd.js', /^text\/javascript/],
  ])('serves %s as %s', async (path, type) => {
    const response = await fetch(`${server.url}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(type);
    await response.arrayBuffer();
  });

  it('lets the hashed assets be cached for good', async () => {
    const response = await fetch(`${server.url}/assets/index-Ab12Cd.js`);
    expect(response.headers.get('cache-control')).toContain('immutable');
    await response.text();
  });

  it('answers 404 for a missing file with an extension instead of the page', async () => {
    const response = await fetch(`${server.url}/assets/missing.js`);
    expect(response.status).toBe(404);
    await response.text();
  });

  it('refuses methods other than GET and HEAD outside /api/', async () => {
    const response = await fetch(`${server.url}/`, { method: 'POST', body: 'x' });
    expect(response.status).toBe(405);
    await response.text();
  });

  it.each(['/', '/vad/ort-wasm-simd-threaded.wasm', '/nowhere.txt', '/api/config', '/api/nothing'])('sends the security headers with %s', async (path) => {
    const response = await fetch(`${server.url}${path}`);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('permissions-policy')).toBe('microphone=(self)');
    await response.text();
  });

  it('answers the API before the files', async () => {
    const response = await fetch(`${server.url}/api/config`);
    expect(await response.json()).toEqual(NO_SERVICES);
  });
});

describe('starting and stopping', () => {
  it('rejects with EADDRINUSE when the port is taken', async () => {
    const port = Number(new URL(server.url).port);
    await expect(startServer({ root, config: NO_SERVICES, host: '127.0.0.1', port, quiet: true, memory: await emptyTestMemory() })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  it('closes with a connection still open', async () => {
    const other = await startServer({ root, config: NO_SERVICES, host: '127.0.0.1', port: 0, quiet: true, memory: await emptyTestMemory() });
    const response = await fetch(`${other.url}/`); // undici keeps the connection alive
    await response.text();
    await other.close();
    await expect(fetch(`${other.url}/`)).rejects.toThrow();
  });
});
