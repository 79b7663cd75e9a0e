// The kiosk behind Debian's Caddy, as deploy/Caddyfile sets it up (its site block as shipped, with
// the test's name and ports put in): Caddy speaks HTTPS with its own local authority and passes
// requests on with their Host unchanged. Though every request reaches the kiosk's server from
// this machine's loopback, none is taken for the server's own machine: /api/ asks for pairing,
// the code pairs the device with a __Host- cookie, and then /api/ and the streaming socket work
// through the proxy.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Pairing } from '../../server/pairing.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../servers/openai-fakes.ts';
import { useServerHarness } from '../support/server-harness.ts';

const harness = useServerHarness({ rootPrefix: 'kiosk-caddy-', secrets: [] });
let fakes: FakeOpenAI;
let dir: string;
beforeAll(async () => {
  try {
    execFileSync('caddy', ['version'], { stdio: 'pipe' });
  } catch {
    throw new Error('caddy is missing: apt-get install -y caddy (npm run test:chromium installs it)');
  }
  fakes = await startFakeOpenAI();
  dir = mkdtempSync(join(tmpdir(), 'kiosk-caddy-'));
});
afterAll(async () => {
  await fakes?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A free port of this machine's loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Caddy in front of the kiosk at `upstream`, serving `name`:`port` with deploy/Caddyfile's site
 * block, its state in the test's folder; resolves once it answers, with its root certificate.
 */
async function startCaddy(name: string, port: number, upstream: string): Promise<{ ca: Buffer; process: ChildProcess }> {
  const shipped = readFileSync(new URL('../../deploy/Caddyfile', import.meta.url), 'utf8');
  expect(shipped).toContain('kiosk.lan {');
  expect(shipped).toContain('reverse_proxy 127.0.0.1:4173');
  const site = shipped.replace('kiosk.lan {', `${name}:${port} {`).replace('reverse_proxy 127.0.0.1:4173', `reverse_proxy ${upstream}`);
  const global = `{\n\tadmin off\n\thttp_port ${await freePort()}\n\tskip_install_trust\n\tstorage file_system ${join(dir, 'caddy')}\n}\n\n`;
  const file = join(dir, 'Caddyfile');
  writeFileSync(file, global + site);
  const caddy = spawn('caddy', ['run', '--config', file, '--adapter', 'caddyfile'], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, HOME: dir } });
  const said: string[] = [];
  caddy.stderr!.on('data', (chunk: Buffer) => said.push(String(chunk)));
  harness.onCleanup(() => new Promise<void>((done) => (caddy.exitCode !== null ? done() : (caddy.once('exit', () => done()), caddy.kill()))));
  const root = join(dir, 'caddy', 'pki', 'authorities', 'local', 'root.crt');
  for (let waited = 0; !(existsSync(root) && said.join('').includes('"serving initial configuration"')); waited += 50) {
    if (caddy.exitCode !== null || waited > 30_000) throw new Error(`caddy did not start:\n${said.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // Caddy serves its configuration before its authority has signed the site's certificate (it
  // logs "certificate obtained successfully" later): until then a handshake for the name fails
  // with an internal-error alert. Ready is when a handshake for the name succeeds.
  const ca = readFileSync(root);
  for (let waited = 0; !(await handshakes(name, port, ca)); waited += 50) {
    if (caddy.exitCode !== null || waited > 30_000) throw new Error(`caddy did not serve a certificate for ${name}:\n${said.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { ca, process: caddy };
}

/** Whether a TLS handshake for `name` at this machine's `port` succeeds with a certificate `ca` signed. */
function handshakes(name: string, port: number, ca: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, servername: name, ca }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

describe('behind Caddy, as deploy/Caddyfile sets it up', () => {
  it('a tablet reaching the kiosk through the proxy is asked to pair, then served over HTTPS, the streaming socket too', async () => {
    const upstream = await harness.startKiosk({ allowedHosts: ['kiosk.test'], stt: { baseUrl: fakes.baseURL, model: 'gpt-4o-transcribe', mode: 'realtime' } });
    const port = await freePort();
    const { ca } = await startCaddy('kiosk.test', port, new URL(upstream).host);
    const ask = (path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
      new Promise<Answer>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path, method: init.method ?? 'GET', servername: 'kiosk.test', ca, headers: { host: `kiosk.test:${port}`, ...init.headers } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        });
        req.on('error', reject);
        req.end(init.body);
      });

    expect((await ask('/')).body).toContain('<title>kiosk</title>');
    const refused = await ask('/api/config');
    expect([refused.status, JSON.parse(refused.body).error.type]).toEqual([401, 'not_paired']);

    const memory = await harness.memory();
    const made = await new Pairing(memory.pairings, memory.pairingLock).makeCode('Lobby iPad');
    const paired = await ask('/api/pairing', { method: 'POST', headers: { 'content-type': 'application/json', origin: `https://kiosk.test:${port}` }, body: JSON.stringify({ code: made.ok ? made.code : '' }) });
    expect(JSON.parse(paired.body)).toEqual({ ok: true, device: 'Lobby iPad' });
    const cookie = (paired.headers['set-cookie'] as string[])[0]!;
    expect(cookie).toMatch(/^__Host-vk-device=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=34560000; HttpOnly; Secure; SameSite=Strict$/);
    const credential = cookie.split(';')[0]!;
    expect((await ask('/api/config', { headers: { cookie: credential } })).status).toBe(200);

    const socket = new WebSocket(`wss://127.0.0.1:${port}/api/stt/realtime?language=en`, { ca, servername: 'kiosk.test', headers: { host: `kiosk.test:${port}`, origin: `https://kiosk.test:${port}`, cookie: credential } } as WebSocket.ClientOptions);
    const first = await new Promise<string>((resolve, reject) => {
      socket.once('message', (data) => resolve(String(data)));
      socket.once('unexpected-response', (_req, res) => reject(new Error(`the socket was refused: ${res.statusCode}`)));
      socket.once('error', reject);
    });
    expect(JSON.parse(first)).toMatchObject({ type: 'session.created' });
    socket.close();
  });
});
