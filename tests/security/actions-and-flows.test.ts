// Attacks on what the kiosk's server does for a flow (issue 15, points 3, 4 and 6), each as the
// security review ran it, against a real server and real targets: a page that tries to send an
// action where it likes, a flow from a site the operator did not allow, a secret sent to the
// wrong allowed origin, and a flood of refused requests that tries to push a finished action out
// of the server's memory so that it runs again.

import { describe, expect, it } from 'vitest';
import { json, toolFlow, useServerHarness } from '../support/server-harness.ts';
import { emptyTestMemory } from '../support/test-memory.ts';

const TOKEN = 'sec-clinic-token-5a1f0e9c3b7d';
const harness = useServerHarness({ rootPrefix: 'kiosk-attacks-', secrets: [TOKEN, TOKEN.slice(0, 14), Buffer.from(TOKEN).toString('base64')] });

async function post(kiosk: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${kiosk}/api/actions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  harness.seen.push(text);
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
}

/** A check-in that posts the visitor's name to `url` with the clinic's token. */
const posting = (url: string) => ({ method: 'POST', url, headers: { Authorization: 'Bearer {secret:CLINIC_TOKEN}' }, body: { name: '{full_name}' } });

describe('the page cannot choose what an action sends', () => {
  it('refuses an action that names its own url, method, headers or body (the old request), and sends nothing', async () => {
    const target = await harness.startUpstream();
    const origin = new URL(target.base).origin;
    const kiosk = await harness.startKiosk({ actions: { allowedOrigins: [origin], secrets: { CLINIC_TOKEN: TOKEN }, secretOrigins: { CLINIC_TOKEN: [origin] } } });
    const old = { action_id: 'a1', flow_id: 'clinic_checkin', tool: 'check_in', method: 'POST', url: `${origin}/steal`, headers: { authorization: 'Bearer {secret:CLINIC_TOKEN}' }, body: {} };
    expect((await post(kiosk, old)).status).toBe(400);
    const unknown = { action_id: 'a2', flow_id: 'attack', flow_source: `${origin}/attack.yaml`, flow_version: '0'.repeat(32), state: 's', tool: 'send', values: {} };
    // A flow from an origin the server does not load flows from is not one of its flows.
    expect((await post(kiosk, unknown)).body).toMatchObject({ ok: false, error: 'flow_origin_not_allowed' });
    expect((await post(kiosk, { ...unknown, action_id: 'a3', flow_source: 'https://flows.example/attack.yaml' })).body).toMatchObject({ ok: false, error: 'unknown_flow' });
    expect(target.received).toHaveLength(0);
  });

  it('loads no flow from a site the operator did not allow, so none of its actions can ever run', async () => {
    const evil = await harness.startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/yaml', 'access-control-allow-origin': '*' });
      res.end(toolFlow(posting('http://127.0.0.1:9/x')));
    });
    const kiosk = await harness.startKiosk({});
    const response = await fetch(`${kiosk}/api/flows?src=${encodeURIComponent(`${evil.base}/attack.yaml`)}`);
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ ok: false, error: 'flow_origin_not_allowed' });
    expect(evil.received).toHaveLength(0);
  });
});

describe('a secret goes only where the operator says', () => {
  it('with two allowed origins, the clinic\'s token never reaches the other one', async () => {
    const clinic = await harness.startUpstream((_req, res) => json(res, 200, { ok: true }));
    const other = await harness.startUpstream((req, res) => json(res, 200, { echoed: req.headers.authorization ?? null }));
    const clinicOrigin = new URL(clinic.base).origin;
    const otherOrigin = new URL(other.base).origin;
    const kiosk = await harness.startKiosk({ actions: { allowedOrigins: [clinicOrigin, otherOrigin], secrets: { CLINIC_TOKEN: TOKEN }, secretOrigins: { CLINIC_TOKEN: [clinicOrigin] } } });
    const answer = await post(kiosk, { ...harness.toolAsk('b1', posting(`${otherOrigin}/collect`)), values: { full_name: 'Maria' } });
    expect(answer.body).toMatchObject({ ok: false, error: 'secret_not_allowed' });
    expect(other.received).toHaveLength(0);
    expect((await post(kiosk, { ...harness.toolAsk('b2', posting(`${clinicOrigin}/check-ins`)), values: { full_name: 'Maria' } })).body).toMatchObject({ ok: true });
    expect(clinic.received[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });
});

describe('the action memory', () => {
  it('requests refused before sending take no place: a finished action is not pushed out and never runs twice', async () => {
    const target = await harness.startUpstream((_req, res) => json(res, 201, { queue_number: 7 }));
    const origin = new URL(target.base).origin;
    const kiosk = await harness.startKiosk({ actions: { allowedOrigins: [origin], secrets: {} } }, {}, await emptyTestMemory({ actions: { maxEntries: 10 } }));
    const done = harness.toolAsk('c-first', { method: 'POST', url: `${origin}/check-ins` });
    expect((await post(kiosk, done)).body).toMatchObject({ ok: true, data: { queue_number: 7 } });
    const refused = harness.toolAsk('c-flood', { method: 'POST', url: 'http://evil.example/x' });
    for (let i = 0; i < 40; i++) {
      expect((await post(kiosk, { ...refused, action_id: `c-flood-${i}` })).body).toMatchObject({ error: 'refused_host' });
    }
    expect((await post(kiosk, done)).body).toMatchObject({ ok: true, replayed: true });
    expect(target.received).toHaveLength(1);
  });
});
