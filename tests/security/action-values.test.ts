// The values a page sends for an action (issue 29, point 1). The server builds the request from its
// own copy of the flow, but it filled in whatever values the page sent: `..` for a parameter
// whose pattern forbids it took the clinic's token to another path, and an object for a choice
// went into the body as that object. Each value is now held to the flow's own rules (the engine's
// checks, as the page applies them) before anything is sent, and refused with a 400 naming it.

import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { useServerHarness, type Upstream } from '../support/server-harness.ts';

const TOKEN = 'sec-records-token-8c1d4e7a2f90';
const harness = useServerHarness({ rootPrefix: 'kiosk-values-', secrets: [TOKEN, TOKEN.slice(0, 14)] });

/** A flow of a clinic's records: a patient's visits by id (a value filled into the path), and a person added with a role. */
const RECORDS = stringify({
  id: 'records',
  variables: { pid: { type: 'string' }, role: { type: 'enum', enum: ['patient', 'carer'] }, member_id: { type: 'string' }, visits: { type: 'integer' }, note: { type: 'string' } },
  states: {
    lookup: {
      ui: { artifact_type: 'form', title: 'Records', fields: [{ id: 'member_id', type: 'text', label: 'Member number', pattern: '^M[0-9]{6}$', max_length: 7 }] },
      tools: {
        open_record: {
          description: "Open a patient's visits.",
          parameters: { pid: { type: 'string', required: true, pattern: '^[A-Za-z0-9-]+$' } },
          http: { method: 'GET', url: '{origin:CLINIC}/api/patients/{pid}/visits', headers: { Authorization: 'Bearer {secret:CLINIC_TOKEN}' } },
        },
        open_note: {
          description: 'Open a note (its name has no pattern).',
          http: { method: 'GET', url: '{origin:CLINIC}/api/notes/{note}/text', headers: { Authorization: 'Bearer {secret:CLINIC_TOKEN}' } },
        },
        add_person: {
          description: 'Add a person to the record.',
          parameters: { role: { type: 'enum', enum: ['patient', 'carer'], required: true }, visits: { type: 'integer', min: 0, max: 50 } },
          http: { method: 'POST', url: '{origin:CLINIC}/people', headers: { Authorization: 'Bearer {secret:CLINIC_TOKEN}' }, body: { role: '{role}', member: '{member_id}', visits: '{visits}' } },
        },
      },
    },
  },
});

async function clinicKiosk(): Promise<{ kiosk: string; clinic: Upstream; ask: (id: string, tool: string, values: unknown) => Record<string, unknown> }> {
  const clinic = await harness.startUpstream();
  const origin = new URL(clinic.base).origin;
  const kiosk = await harness.startKiosk({ actions: { allowedOrigins: [], origins: { CLINIC: origin }, secrets: { CLINIC_TOKEN: TOKEN }, secretOrigins: { CLINIC_TOKEN: [origin] } } });
  const flow = harness.keepFlow(RECORDS);
  return { kiosk, clinic, ask: (action_id, tool, values) => ({ action_id, flow_id: 'records', ...flow, state: 'lookup', tool, values }) };
}

async function post(kiosk: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${kiosk}/api/actions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  harness.seen.push(text);
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
}

describe('a value the flow does not allow is refused before anything is sent', () => {
  it.each([
    ['open_record', { pid: '..' }, 'pid', 'does not match ^[A-Za-z0-9-]+$'],
    ['open_record', { pid: '../../admin' }, 'pid', 'does not match'],
    ['open_record', { pid: { toString: 'x' } }, 'pid', 'expected text'],
    ['open_record', {}, 'pid', 'is required'],
    ['add_person', { role: { $ne: null, role: 'admin' } }, 'role', 'expected one of patient, carer'],
    ['add_person', { role: 'admin' }, 'role', 'expected one of patient, carer'],
    ['add_person', { role: 'carer', visits: 500 }, 'visits', 'above the maximum of 50'],
    ['add_person', { role: 'carer', visits: [1, 2] }, 'visits', 'expected a whole number'],
    ['add_person', { role: 'carer', member_id: 'M12' }, 'member_id', 'does not match ^M[0-9]{6}$'],
    ['add_person', { role: 'carer', member_id: { $gt: '' } }, 'member_id', 'expected text'],
    ['add_person', { role: 'carer', is_admin: true }, 'is_admin', 'is not filled in by the request of add_person'],
  ])('%s with %j: 400 naming %s', async (tool, values, param, problem) => {
    const { kiosk, clinic, ask } = await clinicKiosk();
    const answer = await post(kiosk, ask('v-1', tool, values));
    expect([answer.status, answer.body['ok'], answer.body['error'], answer.body['param'], answer.body['action_id']]).toEqual([400, false, 'invalid_value', param, 'v-1']);
    expect(answer.body['message']).toContain(`"${param}" ${problem}`);
    expect(clinic.received).toEqual([]);
    // Refused before it was run: the id is not taken, and an honest request under it runs.
    const honest = tool === 'open_record' ? { pid: 'p-1042' } : { role: 'carer' };
    expect((await post(kiosk, ask('v-1', tool, honest))).body).toMatchObject({ ok: true });
    expect(clinic.received).toHaveLength(1);
  });

  it('sends what the flow declares with values that hold: the path, the token, the body', async () => {
    const { kiosk, clinic, ask } = await clinicKiosk();
    expect((await post(kiosk, ask('v-2', 'open_record', { pid: 'p-1042' }))).body).toMatchObject({ ok: true, status: 200 });
    expect((await post(kiosk, ask('v-3', 'add_person', { role: 'carer', member_id: 'M123456', visits: 3 }))).body).toMatchObject({ ok: true });
    expect(clinic.received.map((r) => [r.url, r.headers.authorization])).toEqual([
      ['/api/patients/p-1042/visits', `Bearer ${TOKEN}`],
      ['/people', `Bearer ${TOKEN}`],
    ]);
    expect(JSON.parse(clinic.received[1]!.body.toString())).toEqual({ role: 'carer', member: 'M123456', visits: 3 });
  });

  it.each(['..', '.'])('a value with no pattern that would be the path segment %s is not sent either', async (note) => {
    const { kiosk, clinic, ask } = await clinicKiosk();
    const answer = await post(kiosk, ask('v-4', 'open_note', { note }));
    expect(answer.body).toMatchObject({ ok: false, error: 'refused_values' });
    expect(answer.body['message']).toContain('would change the path the url points to');
    expect(clinic.received).toEqual([]);
    expect((await post(kiosk, ask('v-5', 'open_note', { note: 'a..b' }))).body).toMatchObject({ ok: true });
    expect(clinic.received.map((r) => r.url)).toEqual(['/api/notes/a..b/text']);
  });
});
