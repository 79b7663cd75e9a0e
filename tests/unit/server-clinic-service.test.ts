// The local clinic service on its own (appointments, idempotent check-ins, the bearer token, the
// staged failures), then behind the kiosk's /api/actions as the clinic example uses it: a look-up
// that runs at once and a check-in with a secret token that reaches the clinic exactly once.

import { describe, expect, it } from 'vitest';
import { startClinicService, type ClinicService } from '../servers/clinic-service.ts';
import { clinicAsk, useServerHarness } from '../support/server-harness.ts';

const TOKEN = 'clinic-token-3c9e71d2a8b4f605';
const harness = useServerHarness({ rootPrefix: 'kiosk-clinic-', secrets: [TOKEN, TOKEN.slice(-10)] });
const { seen } = harness;

async function clinic(options: { token?: string } = {}): Promise<ClinicService> {
  const service = await startClinicService(options);
  harness.onCleanup(() => service.close());
  return service;
}

async function call(url: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
}

function checkIn(service: ClinicService, body: unknown, key?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key) headers['idempotency-key'] = key;
  return call(`${service.url}/check-ins`, { method: 'POST', headers, body: JSON.stringify(body) });
}

const MARIA = { name: 'Maria Garcia', dob: '1984-03-05', reason: 'appointment', appointment_id: 'apt-1001' };

describe('the clinic service', () => {
  it('finds a known patient\'s appointment, telling two patients of one name apart by date of birth', async () => {
    const service = await clinic();
    expect(await call(`${service.url}/appointments?name=${encodeURIComponent('maria  GARCIA')}&dob=1984-03-05`)).toEqual({
      status: 200,
      body: { appointment_id: 'apt-1001', doctor: 'Dr. Lindqvist', time: '10:30' },
    });
    expect((await call(`${service.url}/appointments?name=Maria%20Garcia&dob=1980-07-04`)).body).toMatchObject({ appointment_id: 'apt-1002', doctor: 'Dr. Moreau' });
    expect(service.lookups).toEqual([
      { name: 'maria  GARCIA', dob: '1984-03-05', found: true },
      { name: 'Maria Garcia', dob: '1980-07-04', found: true },
    ]);
  });

  it('answers 404 JSON for no appointment and 400 for a look-up without a date of birth', async () => {
    const service = await clinic();
    const none = await call(`${service.url}/appointments?name=Nobody%20Here&dob=2000-01-01`);
    expect(none).toEqual({ status: 404, body: { error: { code: 'no_appointment', message: expect.any(String) } } });
    expect((await call(`${service.url}/appointments?name=Maria%20Garcia`)).status).toBe(400);
    expect(service.lookups).toEqual([{ name: 'Nobody Here', dob: '2000-01-01', found: false }]);
  });

  it('records a check-in and answers 201 with its id and queue number', async () => {
    const service = await clinic();
    expect(await checkIn(service, MARIA, 'k1')).toEqual({ status: 201, body: { check_in_id: 'chk-1', queue_number: 1 } });
    expect(await checkIn(service, { name: 'Li Wei', dob: '1992-11-03', reason: 'walk_in' }, 'k2')).toEqual({ status: 201, body: { check_in_id: 'chk-2', queue_number: 2 } });
    expect(service.checkIns).toEqual([
      { check_in_id: 'chk-1', queue_number: 1, ...MARIA, idempotency_key: 'k1' },
      { check_in_id: 'chk-2', queue_number: 2, name: 'Li Wei', dob: '1992-11-03', reason: 'walk_in', idempotency_key: 'k2' },
    ]);
  });

  it('records a check-in once per Idempotency-Key, in turn or at once, and refuses the key for another body', async () => {
    const service = await clinic();
    const first = await checkIn(service, MARIA, 'same-key');
    const again = await checkIn(service, MARIA, 'same-key');
    expect(again).toEqual(first);
    const together = await Promise.all([1, 2, 3].map(() => checkIn(service, MARIA, 'other-key')));
    expect(new Set(together.map((t) => JSON.stringify(t))).size).toBe(1);
    expect(service.checkIns).toHaveLength(2);
    expect((await checkIn(service, { ...MARIA, reason: 'walk_in' }, 'same-key')).status).toBe(409);
    expect(service.checkIns).toHaveLength(2);
  });

  it('records each check-in without a key, and refuses a malformed one with 400', async () => {
    const service = await clinic();
    await checkIn(service, MARIA);
    await checkIn(service, MARIA);
    expect(service.checkIns).toHaveLength(2);
    for (const body of [{ name: 'A B' }, { ...MARIA, dob: '5 March 1984' }, { ...MARIA, name: ' ' }, [MARIA]]) {
      expect((await checkIn(service, body)).status).toBe(400);
    }
    expect(service.checkIns).toHaveLength(2);
  });

  it('asks for the bearer token when it has one', async () => {
    const service = await clinic({ token: TOKEN });
    expect((await checkIn(service, MARIA, 'k')).status).toBe(401);
    const ok = await call(`${service.url}/check-ins`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(MARIA) });
    expect(ok.status).toBe(201);
    expect(service.checkIns).toHaveLength(1);
  });

  it('stages failures for a number of requests, then works again', async () => {
    const service = await clinic();
    service.fail('http_500', 1);
    expect((await checkIn(service, MARIA, 'a')).status).toBe(500);
    service.fail('invalid_json', 1);
    const broken = await fetch(`${service.url}/check-ins`, { method: 'POST', body: JSON.stringify(MARIA) });
    expect(broken.status).toBe(200);
    expect(broken.headers.get('content-type')).toBe('application/json');
    const text = await broken.text();
    expect(() => JSON.parse(text) as unknown).toThrow();
    service.fail('refuse', 1);
    await expect(checkIn(service, MARIA, 'b')).rejects.toThrow();
    service.fail('hang', 1);
    await expect(fetch(`${service.url}/check-ins`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(200) })).rejects.toThrow();
    expect(service.checkIns).toHaveLength(0);
    expect((await checkIn(service, MARIA, 'c')).status).toBe(201);
    expect(service.checkIns).toHaveLength(1);
  });
});

describe('the clinic service behind /api/actions', () => {
  /**
   * A kiosk whose actions reach `service`. `maxTimeoutMs` is how long an action may take: long by
   * default, since a busy machine (npm test's other lanes) can stretch a 100 ms answer far past a
   * few hundred ms; a test of a hanging service sets it short.
   */
  async function kioskFor(service: ClinicService, maxTimeoutMs = 15_000): Promise<(request: Record<string, unknown>) => Promise<Record<string, unknown>>> {
    const actions = { allowedOrigins: [], origins: { CLINIC: service.url }, secrets: { CLINIC_TOKEN: TOKEN }, secretOrigins: { CLINIC_TOKEN: [service.url] } };
    const kiosk = await harness.startKiosk({ actions }, { actions: { maxTimeoutMs } });
    return async (request) => {
      const response = await fetch(`${kiosk}/api/actions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) });
      const text = await response.text();
      seen.push(text);
      return JSON.parse(text) as Record<string, unknown>;
    };
  }

  const PATIENT = { full_name: 'Maria Garcia', date_of_birth: '1984-03-05' };
  const CHECK_IN = { ...PATIENT, visit_reason: 'appointment', appointment_id: 'apt-1001' };

  it('looks an appointment up with the name and date of birth in the query', async () => {
    const service = await clinic({ token: TOKEN });
    const send = await kioskFor(service);
    const answer = await send(clinicAsk('visit-a:action_1', 'find_appointment', PATIENT));
    expect(answer).toEqual({ action_id: 'visit-a:action_1', ok: true, status: 200, data: { appointment_id: 'apt-1001', doctor: 'Dr. Lindqvist', time: '10:30' } });
    expect(service.lookups).toEqual([{ name: 'Maria Garcia', dob: '1984-03-05', found: true }]);
    const none = await send(clinicAsk('visit-a:action_2', 'find_appointment', { ...PATIENT, date_of_birth: '1985-03-05' }));
    expect(none).toMatchObject({ ok: false, error: 'http', status: 404, message: expect.stringContaining('No appointment today') });
  });

  it('checks a patient in exactly once however often the page sends it, with the action id as the clinic\'s Idempotency-Key', async () => {
    const service = await clinic({ token: TOKEN });
    service.delayMs = 100;
    const send = await kioskFor(service);
    const request = clinicAsk('visit-b:action_3', 'check_in', CHECK_IN);
    const answers = await Promise.all([send(request), send(request), send(request)]);
    answers.push(await send(request));
    for (const answer of answers) expect(answer).toMatchObject({ ok: true, status: 201, data: { check_in_id: 'chk-1', queue_number: 1 } });
    expect(service.checkIns).toHaveLength(1);
    expect(service.checkIns[0]!.idempotency_key).toBe('visit-b:action_3');
    expect(service.requests).toHaveLength(1);
    expect(service.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('reports the clinic\'s failures as failed actions, and none of them records a check-in', async () => {
    const service = await clinic({ token: TOKEN });
    // The hanging clinic is given up on after 2 s; the other failures answer at once.
    const send = await kioskFor(service, 2000);
    const base = clinicAsk('', 'check_in', CHECK_IN);
    const cases = [
      ['http_500', 'http'],
      ['invalid_json', 'invalid_json'],
      ['refuse', 'network'],
      ['hang', 'timeout'],
    ] as const;
    for (const [mode, error] of cases) {
      service.fail(mode, 1);
      expect(await send({ ...base, action_id: `visit-c:${mode}` })).toMatchObject({ ok: false, error });
    }
    expect(service.checkIns).toHaveLength(0);
    const wrong = { allowedOrigins: [], origins: { CLINIC: service.url }, secrets: { CLINIC_TOKEN: 'a-wrong-token-value' }, secretOrigins: { CLINIC_TOKEN: [service.url] } };
    const wrongToken = await harness.startKiosk({ actions: wrong });
    const refused = await fetch(`${wrongToken}/api/actions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...base, action_id: 'visit-c:token' }) });
    const text = await refused.text();
    seen.push(text);
    expect(JSON.parse(text)).toMatchObject({ ok: false, error: 'http', status: 401 });
  });
});
