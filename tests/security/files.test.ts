// The kiosk's own files under attack (issue 29, points 2 and 6): a byte range that ends before it
// starts, which once threw inside the file server and left each connection open with no answer
// (anyone who reaches the port could run it out of file descriptors), and requests to a file
// whose body or headers trickle in, which the body deadline of /api/ did not reach. Raw
// connections to a real server on 127.0.0.1, each answered and closed within a bound.

import { describe, expect, it } from 'vitest';
import { rawConnection, send } from '../support/hostile-requests.ts';
import { useServerHarness } from '../support/server-harness.ts';

/** A file of 256 bytes, so that byte 100 is inside it. */
const ICON = ((open: string, close: string) => `${open}${'k'.repeat(256 - open.length - close.length)}${close}`)('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><!--', '--></svg>');
const harness = useServerHarness({ rootPrefix: 'kiosk-files-', secrets: [], files: { 'favicon.svg': ICON } });

/** A GET of `path` with `headers`, asking the server to close the connection after its answer. */
const get = (path: string, headers: Record<string, string> = {}) =>
  [`GET ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), '', ''].join('\r\n');

/** The status line's code in what the server wrote. */
const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);

describe('a byte range the file does not have', () => {
  it('bytes=100-50 on 8 connections at once: each is answered 416 with the length, and closed, within 2 s', async () => {
    const url = await harness.startKiosk({});
    const endings = await Promise.all(Array.from({ length: 8 }, () => rawConnection(url, get('/favicon.svg', { Range: 'bytes=100-50' }), 2000)));
    for (const ending of endings) {
      expect(ending.closedAfterMs).not.toBeNull();
      expect(statusOf(ending.text)).toBe(416);
      expect(ending.text).toMatch(/\r\ncontent-range: bytes \*\/256\r\n/i);
      expect(ending.text).toMatch(/\r\ncontent-security-policy: /i);
    }
    // The server goes on serving its files.
    expect((await send(url, '/favicon.svg')).body).toBe(ICON);
  });

  it.each([
    ['bytes=300-', 'starts past the end'],
    ['bytes=256-300', 'starts at the end'],
  ])('%s (%s) is 416 at once', async (range) => {
    const url = await harness.startKiosk({});
    const ending = await rawConnection(url, get('/favicon.svg', { Range: range }), 2000);
    expect([statusOf(ending.text), ending.closedAfterMs === null]).toEqual([416, false]);
  });

  it.each([
    ['bytes=0-0', 206, 'bytes 0-0/256', ICON.slice(0, 1)],
    ['bytes=-5', 206, 'bytes 251-255/256', ICON.slice(-5)],
    ['bytes=250-', 206, 'bytes 250-255/256', ICON.slice(250)],
    ['bytes=10-19', 206, 'bytes 10-19/256', ICON.slice(10, 20)],
    ['bytes=0-1,5-6', 200, undefined, ICON],
    ['bytes=abc', 200, undefined, ICON],
    ['lines=1-2', 200, undefined, ICON],
  ])('%s is answered %d with the bytes it names', async (range, status, contentRange, body) => {
    const url = await harness.startKiosk({});
    const answer = await send(url, '/favicon.svg', { headers: { range } });
    expect([answer.status, answer.headers['content-range'], answer.body]).toEqual([status, contentRange, body]);
  });
});

describe('every route keeps the same deadlines', () => {
  it.each(['/index.html', '/favicon.svg', '/some/route'])('GET %s with a body sent a byte every 100 ms is closed at the 500 ms body deadline', async (path) => {
    const url = await harness.startKiosk({}, { bodyTimeoutMs: 500 });
    const head = [`GET ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Content-Type: text/plain', 'Content-Length: 1000', '', 'x'].join('\r\n');
    const ending = await rawConnection(url, head, 4000, { text: 'x', everyMs: 100 });
    expect(ending.closedAfterMs).not.toBeNull();
    expect(ending.closedAfterMs!).toBeGreaterThanOrEqual(450);
    expect(ending.closedAfterMs!).toBeLessThan(2500);
  });

  it('headers sent a byte every 100 ms are cut off at the deadline (408), on a file as on /api/', async () => {
    const url = await harness.startKiosk({}, { bodyTimeoutMs: 500 });
    for (const path of ['/favicon.svg', '/api/config']) {
      const ending = await rawConnection(url, `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `, 4000, { text: 'a', everyMs: 100 });
      expect(ending.closedAfterMs).not.toBeNull();
      expect(ending.closedAfterMs!).toBeLessThan(2500);
      expect(statusOf(ending.text)).toBe(408);
    }
  });
});
