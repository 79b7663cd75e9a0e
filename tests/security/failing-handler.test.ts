// The guard around every /api/ route (server/route-guard.ts), on a real server whose handlers fail
// on purpose: a throw or a rejection becomes a 500 in the shape the page reads, or a closed
// connection when the answer had begun; one log line names the error's kind and place but never
// its message; and the server answers the next request.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { guardRoute } from '../../server/route-guard.ts';
import { send } from '../support/hostile-requests.ts';
import { closeServer, listen, useServerHarness } from '../support/server-harness.ts';

const harness = useServerHarness({ rootPrefix: 'kiosk-failing-', secrets: ['Maria Garcia'] });

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** A server whose every request runs `handler` behind the guard; `/ok` answers 200 beside it. */
async function serverWith(handler: Handler): Promise<{ url: string; logs: string[] }> {
  const logs: string[] = [];
  const server = createServer((req, res) => {
    if (req.url === '/ok') return void res.end('ok');
    guardRoute(req, res, req.url ?? '/', (line) => logs.push(line), () => handler(req, res));
  });
  const port = await listen(server);
  harness.onCleanup(() => closeServer(server));
  return { url: `http://127.0.0.1:${port}`, logs };
}

/** What a visitor's words would cost if an error's message were logged. */
const SAID = 'Maria Garcia';

const overflow = (): string => {
  let deep: unknown = [];
  for (let i = 0; i < 200_000; i++) deep = [deep];
  return JSON.stringify(deep);
};

describe('a failing handler', () => {
  it.each([
    ['throws', () => {
      throw new TypeError(`cannot read ${SAID}`);
    }, 'TypeError'],
    ['overflows the stack', () => void overflow(), 'RangeError'],
    ['rejects', async () => {
      await Promise.resolve();
      throw new Error(`upstream said ${SAID}`);
    }, 'Error'],
    ['rejects with something that is no error', () => Promise.reject(SAID), 'a thrown string'],
  ] as Array<[string, Handler, string]>)('that %s answers 500 server_error, logs one line without the message, and the server goes on', async (_what, handler, kind) => {
    const { url, logs } = await serverWith(handler);
    const answer = await send(url, '/api/actions', { method: 'POST' });
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body)).toEqual({ error: { type: 'server_error', message: "The kiosk's server failed on this request; nothing more was done with it." } });
    expect(logs).toEqual([expect.stringMatching(new RegExp(`^\\[api\\] POST /api/actions failed: ${kind}( at (server|src)/[\\w./-]+\\.ts:\\d+)?$`))]);
    expect(logs.join('\n')).not.toContain(SAID);
    expect((await send(url, '/ok')).body).toBe('ok');
  });

  it('that fails after its answer began closes the connection instead', async () => {
    const { url, logs } = await serverWith(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
      await Promise.resolve();
      throw new RangeError('in the middle');
    });
    await expect(send(url, '/api/llm/chat/completions', { method: 'POST' })).rejects.toThrow();
    expect(logs).toEqual([expect.stringMatching(/^\[api\] POST \/api\/llm\/chat\/completions failed: RangeError/)]);
    expect((await send(url, '/ok')).body).toBe('ok');
  });

  it('that answered before it failed leaves the answer alone', async () => {
    const { url, logs } = await serverWith(async (_req, res) => {
      res.end('done');
      await Promise.resolve();
      throw new Error('after the end');
    });
    expect((await send(url, '/api/status')).body).toBe('done');
    await expect.poll(() => logs, { timeout: 30_000 }).toHaveLength(1);
  });
});
