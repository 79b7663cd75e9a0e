// HTTPS built in: TLS_CERT and TLS_KEY read and checked with one line naming the setting for each
// problem, and the kiosk's server speaking HTTPS with a certificate from a local authority
// (scripts/make-certificate.sh): the page, /api/, the credential's cookie (__Host-, Secure), the
// streaming socket (wss), npm run pair's door (held to the certificate's fingerprint), and the
// request deadlines (issue 29) over TLS from the handshake on.

import { execFileSync } from 'node:child_process';
import { request } from 'node:https';
import { connect } from 'node:net';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startServer } from '../../server/app.ts';
import { ConfigError } from '../../server/config.ts';
import { readDoor } from '../../server/local-door.ts';
import { doorDesk } from '../../server/pair-desk.ts';
import { Pairing } from '../../server/pairing.ts';
import { readTls, tlsWarnings } from '../../server/tls.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../servers/openai-fakes.ts';
import { useServerHarness } from '../support/server-harness.ts';
import { testCertificates, type TestCertificates } from '../support/test-certificates.ts';

const harness = useServerHarness({ rootPrefix: 'kiosk-tls-', secrets: [] });
let certs: TestCertificates;
let other: TestCertificates;
let fakes: FakeOpenAI;

beforeAll(async () => {
  certs = testCertificates(['kiosk.test', '127.0.0.1']);
  other = testCertificates(['elsewhere.test']);
  fakes = await startFakeOpenAI();
});
afterAll(async () => {
  for (const made of [certs, other]) rmSync(made.dir, { recursive: true, force: true });
  await fakes.close();
});

/** What readTls makes of these settings: the files, or the ConfigError's message. */
function tlsOf(env: Record<string, string>, base = '/'): string | object | null {
  try {
    return readTls(env, base);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
}

describe('TLS_CERT and TLS_KEY', () => {
  it('neither set: plain HTTP; both: the certificate and its names', () => {
    expect(tlsOf({})).toBeNull();
    expect(tlsOf({ TLS_CERT: ' ', TLS_KEY: '' })).toBeNull();
    expect(tlsOf({ TLS_CERT: 'server.crt', TLS_KEY: 'server.key' }, certs.dir)).toMatchObject({ cert: certs.cert, key: certs.key, names: ['kiosk.test', '127.0.0.1'] });
  });

  it('refuses each problem in one line naming the setting', () => {
    const bad = join(certs.dir, 'not-pem.txt');
    writeFileSync(bad, 'hello\n');
    const locked = join(certs.dir, 'locked.key');
    execFileSync('openssl', ['pkey', '-in', certs.keyPath, '-out', locked, '-aes256', '-passout', 'pass:secret'], { stdio: 'pipe' });
    expect(tlsOf({ TLS_CERT: certs.certPath })).toBe('TLS_CERT is set but TLS_KEY is not: set both (the certificate and its private key, PEM files) for HTTPS, or neither for plain HTTP.');
    expect(tlsOf({ TLS_KEY: certs.keyPath })).toMatch(/^TLS_KEY is set but TLS_CERT is not/);
    expect(tlsOf({ TLS_CERT: '/nowhere/server.crt', TLS_KEY: certs.keyPath })).toBe('TLS_CERT: cannot read /nowhere/server.crt (there is no such file).');
    expect(tlsOf({ TLS_CERT: certs.certPath, TLS_KEY: certs.dir })).toBe(`TLS_KEY: cannot read ${certs.dir} (it is a folder).`);
    expect(tlsOf({ TLS_CERT: bad, TLS_KEY: certs.keyPath })).toMatch(new RegExp(`^TLS_CERT: ${bad} is not a PEM certificate \\(.+\\)\\.$`));
    expect(tlsOf({ TLS_CERT: certs.certPath, TLS_KEY: bad })).toMatch(new RegExp(`^TLS_KEY: ${bad} is not a usable PEM private key \\(.+\\)\\.$`));
    expect(tlsOf({ TLS_CERT: certs.certPath, TLS_KEY: locked })).toBe(`TLS_KEY: ${locked} is encrypted: give the key without a passphrase (openssl pkey -in KEY -out PLAIN.key asks for it once).`);
    expect(tlsOf({ TLS_CERT: certs.certPath, TLS_KEY: other.keyPath })).toMatch(new RegExp(`^TLS_KEY: ${other.keyPath} is not the private key of the certificate in TLS_CERT \\(.+\\)\\.$`));
  });

  it('warns of a certificate running out, and of names in ALLOWED_HOSTS it is not for', () => {
    const tls = readTls({ TLS_CERT: certs.certPath, TLS_KEY: certs.keyPath })!;
    expect(tlsWarnings(tls, ['kiosk.test'])).toEqual([]);
    expect(tlsWarnings(tls, ['kiosk.test', 'kiosk.lan'])).toEqual(['TLS_CERT: the certificate is not for kiosk.lan (in ALLOWED_HOSTS); it names kiosk.test, 127.0.0.1.']);
    expect(tlsWarnings(tls, [], tls.validTo - 3 * 86_400_000)[0]).toMatch(/^TLS_CERT: the certificate runs out in 3 days \(\d{4}-\d\d-\d\d\); renew it\.$/);
    expect(tlsWarnings(tls, [], tls.validTo + 1)[0]).toMatch(/^TLS_CERT: the certificate ran out on/);
  });
});

/** One HTTPS request trusting the test authority; the answer's status, headers and body. */
function get(url: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = request(new URL(path, url), { method: init.method ?? 'GET', headers: init.headers, ca: certs.ca, servername: 'kiosk.test' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

describe('the kiosk over HTTPS', () => {
  it('serves the page, /api/, the credential as a __Host- cookie and the streaming socket, and not plain HTTP', async () => {
    const url = await harness.startKiosk(
      { allowedHosts: ['kiosk.test'], stt: { baseUrl: fakes.baseURL, model: 'gpt-4o-transcribe', mode: 'realtime' } },
      {},
      undefined,
      { tls: { cert: certs.cert, key: certs.key } },
    );
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const host = `kiosk.test:${new URL(url).port}`;
    expect((await get(url, '/')).body).toContain('<title>kiosk</title>');
    expect(JSON.parse((await get(url, '/api/config')).body)).toMatchObject({ stt: { mode: 'realtime' } });

    const memory = await harness.memory();
    const made = await new Pairing(memory.pairings, memory.pairingLock).makeCode('Lobby iPad');
    const paired = await get(url, '/api/pairing', { method: 'POST', headers: { host, 'content-type': 'application/json' }, body: JSON.stringify({ code: made.ok ? made.code : '' }) });
    const cookie = (paired.headers['set-cookie'] as string[])[0]!;
    expect(cookie).toMatch(/^__Host-vk-device=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=34560000; HttpOnly; Secure; SameSite=Strict$/);

    const socket = new WebSocket(`wss://127.0.0.1:${new URL(url).port}/api/stt/realtime?language=en`, { ca: certs.ca, headers: { host, cookie: cookie.split(';')[0]! } });
    const first = await new Promise<string>((resolve, reject) => {
      socket.once('message', (data) => resolve(String(data)));
      socket.once('error', reject);
    });
    expect(JSON.parse(first)).toMatchObject({ type: 'session.created' });
    socket.close();

    await expect(fetch(url.replace('https:', 'http:'))).rejects.toThrow();
  });

  it('keeps the deadline of every request for the TLS handshake: a connection that never begins one is closed', async () => {
    const url = await harness.startKiosk({}, { bodyTimeoutMs: 500 }, undefined, { tls: { cert: certs.cert, key: certs.key } });
    const started = Date.now();
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    // Closed by the server, or still open after 4 s (Node's own handshake deadline is 2 minutes).
    const closedAfterMs = await new Promise<number | null>((resolve) => {
      const giveUp = setTimeout(() => resolve(null), 4000);
      socket.once('close', () => {
        clearTimeout(giveUp);
        resolve(Date.now() - started);
      });
    });
    socket.destroy();
    expect(closedAfterMs).not.toBeNull();
    expect(closedAfterMs!).toBeGreaterThanOrEqual(450);
  });

  it("lets npm run pair in through its door, held to the certificate's fingerprint", async () => {
    const dir = harness.tempDir('kiosk-tls-door-');
    const server = await startServer({ root: dir, config: { llm: null, stt: null, tts: null }, host: '127.0.0.1', port: 0, quiet: true, memory: await harness.memory(), doorDir: dir, tls: { cert: certs.cert, key: certs.key } });
    harness.onCleanup(() => server.close());
    const note = readDoor(dir)!;
    expect(note.url).toBe(server.url);
    expect(await doorDesk(note, 'here').make('Entrance')).toMatchObject({ ok: true, name: 'Entrance' });
    await expect(doorDesk({ ...note, fingerprint: 'AA:BB' }, 'here').make('Back door')).rejects.toThrow('does not have the certificate its note names');
  });
});
