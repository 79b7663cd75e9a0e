// `POST /api/analytics` and `GET /api/status` on a real kiosk server: events with names only (a
// visitor's words are refused), counted per flow and outcome, forwarded to a local collector
// without the page waiting, a collector that is down or silent only logged; and the status view.

import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { closeServer, json, listen, useServerHarness } from '../support/server-harness.ts';

const TOKEN = 'tok-status-5e8d1c0b9a7f2436';
const LLM_KEY = 'sk-status-llm-9b1c3d5e7f';
const harness = useServerHarness({ rootPrefix: 'kiosk-analytics-', secrets: [TOKEN, LLM_KEY, TOKEN.slice(-10)] });
const { logs, seen } = harness;

async function postEvent(kiosk: string, body: unknown, type = 'application/json'): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${kiosk}/api/analytics`, { method: 'POST', headers: { 'content-type': type }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await response.text();
  seen.push(text);
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
}

interface Status {
  services: Record<string, boolean>;
  actions: { allowedOrigins: number; counts: Record<string, Record<string, number>>; performed: Record<string, Record<string, number>>; remembered: number };
  analytics: { forwarding: boolean; received: number; forwarded: number; failed: number };
  started_at: string;
  counts_since: string;
}

async function status(kiosk: string): Promise<Status> {
  const response = await fetch(`${kiosk}/api/status`);
  const text = await response.text();
  seen.push(text);
  expect(response.status).toBe(200);
  return JSON.parse(text) as Status;
}

function until(check: () => boolean, ms = 2000): Promise<void> {
  const start = Date.now();
  return new Promise((resolve, reject) => {
    const poll = () => {
      if (check()) return resolve();
      if (Date.now() - start > ms) return reject(new Error('timed out waiting'));
      setTimeout(poll, 10);
    };
    poll();
  });
}

async function eventually(check: () => Promise<boolean>, ms = 2000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const ZERO = { proposed: 0, confirmed: 0, rejected: 0, edited: 0, expired: 0, replaced: 0, failed: 0, done: 0 };

describe('POST /api/analytics', () => {
  it('takes an event of names, answers 202 at once, and counts its outcome per flow', async () => {
    const kiosk = await harness.startKiosk({});
    const events = [
      { event: 'action', flow_id: 'clinic_checkin', state: 'summary', tool: 'check_in', outcome: 'proposed' },
      { event: 'action', flow_id: 'clinic_checkin', state: 'summary', tool: 'check_in', outcome: 'confirmed' },
      { event: 'action', flow_id: 'clinic_checkin', tool: 'check_in', outcome: 'done' },
      { event: 'action', flow_id: 'visitor_signin', outcome: 'expired' },
      { event: 'required_variables_unset', flow_id: 'visitor_signin', state: 'badge' },
    ];
    for (const event of events) expect(await postEvent(kiosk, event)).toEqual({ status: 202, body: { ok: true } });
    const view = await status(kiosk);
    expect(view.actions.counts).toEqual({
      clinic_checkin: { ...ZERO, proposed: 1, confirmed: 1, done: 1 },
      visitor_signin: { ...ZERO, expired: 1 },
    });
    expect(view.analytics).toEqual({ forwarding: false, received: 5, forwarded: 0, failed: 0 });
  });

  it.each<[string, unknown]>([
    ['an extra field', { event: 'action', flow_id: 'clinic_checkin', name: 'Maria Garcia' }],
    ['a value with spaces', { event: 'action', flow_id: 'clinic_checkin', state: 'Maria Garcia' }],
    ['a long name', { event: 'action', flow_id: 'f'.repeat(65) }],
    ['a number for a name', { event: 'action', flow_id: 7 }],
    ['an unknown outcome', { event: 'action', flow_id: 'clinic_checkin', outcome: 'maybe' }],
    ['no event', { flow_id: 'clinic_checkin' }],
    ['no flow id', { event: 'action' }],
    ['nested data', { event: 'action', flow_id: 'clinic_checkin', data: { dob: '1984-03-05' } }],
    ['a list', [{ event: 'action', flow_id: 'clinic_checkin' }]],
    ['not JSON', 'event=action'],
  ])('refuses %s with 400 and counts nothing', async (_what, body) => {
    const kiosk = await harness.startKiosk({});
    const answer = await postEvent(kiosk, body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ ok: false, error: 'invalid_request' });
    expect((await status(kiosk)).analytics.received).toBe(0);
  });

  it('refuses a body over 2 KB (413), another content type (400) and other methods (405)', async () => {
    const kiosk = await harness.startKiosk({});
    expect((await postEvent(kiosk, { event: 'action', flow_id: 'x', pad: 'p'.repeat(3000) })).status).toBe(413);
    expect((await postEvent(kiosk, { event: 'action', flow_id: 'x' }, 'text/plain')).status).toBe(400);
    const get = await fetch(`${kiosk}/api/analytics`);
    seen.push(await get.text());
    expect(get.status).toBe(405);
  });

  it('forwards each event to ANALYTICS_URL without the page waiting for the collector', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const collector = await harness.startUpstream((_req, res) => void held.then(() => json(res, 200, { ok: true })));
    const kiosk = await harness.startKiosk({ analyticsUrl: `${collector.base}/events` });
    const event = { event: 'action', flow_id: 'clinic_checkin', tool: 'check_in', outcome: 'rejected' };
    // The collector holds its answer until released: the page's 202 cannot have waited for it.
    expect((await postEvent(kiosk, event)).status).toBe(202);
    await until(() => collector.received.length === 1);
    expect((await status(kiosk)).analytics).toEqual({ forwarding: true, received: 1, forwarded: 0, failed: 0 });
    const got = collector.received[0]!;
    expect(got.url).toBe('/v1/events');
    expect(got.headers['content-type']).toBe('application/json');
    const sent = JSON.parse(got.body.toString('utf8')) as Record<string, unknown>;
    expect(sent).toEqual({ ...event, at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    release();
    await eventually(async () => (await status(kiosk)).analytics.forwarded === 1);
    expect((await status(kiosk)).analytics).toEqual({ forwarding: true, received: 1, forwarded: 1, failed: 0 });
  });

  it('only logs a collector that is down, answers an error or stays silent; the page still gets 202', async () => {
    const gone = createServer();
    const port = await listen(gone);
    await closeServer(gone);
    const down = await harness.startKiosk({ analyticsUrl: `http://127.0.0.1:${port}/events` });
    expect((await postEvent(down, { event: 'action', flow_id: 'clinic_checkin', outcome: 'failed' })).status).toBe(202);
    await until(() => logs.some((line) => line.startsWith('[analytics] not forwarded: the collector could not be reached')));

    const failing = await harness.startUpstream((_req, res) => json(res, 500, { error: 'no' }));
    const erring = await harness.startKiosk({ analyticsUrl: failing.base });
    await postEvent(erring, { event: 'action', flow_id: 'clinic_checkin', outcome: 'done' });
    await until(() => logs.some((line) => line === '[analytics] not forwarded: the collector answered 500'));

    const silent = await harness.startUpstream(() => {});
    const waiting = await harness.startKiosk({ analyticsUrl: silent.base }, { analyticsTimeoutMs: 100 });
    await postEvent(waiting, { event: 'action', flow_id: 'clinic_checkin', outcome: 'done' });
    await until(() => logs.some((line) => line === '[analytics] not forwarded: no answer within 100 ms'));
    expect((await status(waiting)).analytics).toMatchObject({ received: 1, forwarded: 0, failed: 1 });
  });
});

describe('GET /api/status', () => {
  it('says which services are configured and how many origins are allowed, never the keys, secrets or addresses', async () => {
    const target = await harness.startUpstream((_req, res) => json(res, 201, { queue_number: 1 }));
    const origin = new URL(target.base).origin;
    const kiosk = await harness.startKiosk({
      llm: { baseUrl: 'http://llm.internal.example/v1', apiKey: LLM_KEY, model: 'm' },
      actions: { allowedOrigins: [origin, 'https://clinic.internal.example'], secrets: { CLINIC_TOKEN: TOKEN }, secretOrigins: { CLINIC_TOKEN: [origin] } },
      analyticsUrl: 'https://stats.internal.example/e',
    });
    const send = (url: string, id: string) =>
      fetch(`${kiosk}/api/actions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(harness.toolAsk(id, { method: 'POST', url, headers: { authorization: 'Bearer {secret:CLINIC_TOKEN}' } })),
      }).then((r) => r.text());
    seen.push(await send(`${origin}/check-ins`, 'v1:a1'), await send('http://evil.example/x', 'v1:a2'));

    const view = await status(kiosk);
    expect(view).toEqual({
      services: { llm: true, stt: false, tts: false },
      // the refused one was never sent: counted as failed, and no id kept for it
      actions: { allowedOrigins: 2, counts: {}, performed: { clinic_checkin: { done: 1, failed: 1 } }, remembered: 1 },
      analytics: { forwarding: true, received: 0, forwarded: 0, failed: 0 },
      started_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/),
      counts_since: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/),
      devices: [],
    });
    const text = JSON.stringify(view);
    for (const hidden of [TOKEN, LLM_KEY, 'internal.example', '127.0.0.1', 'CLINIC_TOKEN']) expect(text).not.toContain(hidden);
  });

  it('shows zero origins when none are allowed, and answers 405 to other methods', async () => {
    const kiosk = await harness.startKiosk({});
    expect((await status(kiosk)).actions.allowedOrigins).toBe(0);
    const post = await fetch(`${kiosk}/api/status`, { method: 'POST' });
    seen.push(await post.text());
    expect(post.status).toBe(405);
  });
});
