// `{origin:NAME}`: a flow's url may start with the origin the operator set as ACTION_ORIGIN_NAME,
// so one flow file works against a local service and a real one; the origin is allowed, nothing
// else about the checks changes, and a reference anywhere but the start is refused. An origin not set
// is named, by its setting, in the answer, the log line and the server's start banner.

import { describe, expect, it } from 'vitest';
import { describeServices, missingOrigins } from '../../server/banner.ts';
import { ConfigError, readConfig } from '../../server/config.ts';
import { BUNDLED_FLOWS, FlowLibrary } from '../../server/flow-library.ts';
import { startClinicService } from '../servers/clinic-service.ts';
import { useServerHarness } from '../support/server-harness.ts';

const TOKEN = 'origin-test-token-81f0c2';
const harness = useServerHarness({ rootPrefix: 'kiosk-origins-', secrets: [TOKEN] });

describe('ACTION_ORIGIN_<NAME>', () => {
  it('is read as an origin and allowed, beside ACTIONS_ALLOWED_ORIGINS', () => {
    const config = readConfig({ ACTIONS_ALLOWED_ORIGINS: 'https://a.example', ACTION_ORIGIN_CLINIC: 'HTTP://127.0.0.1:5055' });
    expect(config.actions.origins).toEqual({ CLINIC: 'http://127.0.0.1:5055' });
    expect(config.actions.allowedOrigins).toEqual(['https://a.example', 'http://127.0.0.1:5055']);
    expect(() => readConfig({ ACTION_ORIGIN_CLINIC: 'https://clinic.example/api' })).toThrow(new ConfigError('ACTION_ORIGIN_CLINIC: "https://clinic.example/api" must be an origin only, with no path, query or fragment (expected origins like https://clinic.example,http://127.0.0.1:5055).'));
    expect(() => readConfig({ ACTION_ORIGIN_clinic: 'https://clinic.example' })).toThrow(/may hold only A-Z, 0-9 and _/);
  });

  it('fills {origin:NAME} at the start of a url; an unknown name or a reference elsewhere sends nothing', async () => {
    const service = await startClinicService({ token: TOKEN });
    harness.onCleanup(() => service.close());
    const kiosk = await harness.startKiosk({ actions: { allowedOrigins: [], secrets: { CLINIC_TOKEN: TOKEN }, secretOrigins: { CLINIC_TOKEN: [service.url] }, origins: { CLINIC: service.url } } });
    let n = 0;
    const send = async (url: string) => {
      n += 1;
      const request = harness.toolAsk(`o-${n}`, { method: 'GET', url, headers: { Authorization: 'Bearer {secret:CLINIC_TOKEN}' } });
      const response = await fetch(`${kiosk}/api/actions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) });
      const text = await response.text();
      harness.seen.push(text);
      return JSON.parse(text) as Record<string, unknown>;
    };
    expect(await send('{origin:CLINIC}/appointments?name=Li%20Wei&dob=1992-11-03')).toMatchObject({ ok: true, data: { appointment_id: 'apt-1003' } });
    expect(await send('{origin:FRONTDESK}/appointments')).toMatchObject({ ok: false, error: 'refused_host', message: expect.stringContaining('set ACTION_ORIGIN_FRONTDESK') });
    expect(await send(`${service.url}/x{origin:CLINIC}`)).toMatchObject({ ok: false, error: 'refused_host', message: expect.stringContaining('may only start the url') });
    expect(await send('{origin:CLINIC}@evil.example/appointments')).toMatchObject({ ok: false, error: 'refused_host' });
    expect(service.requests).toHaveLength(1);
  });

  it('names ACTION_ORIGIN_<NAME> when no origin is set at all, in the answer and in the log line', async () => {
    const kiosk = await harness.startKiosk({});
    const request = harness.toolAsk('o-none', { method: 'GET', url: '{origin:CLINIC}/appointments?name={full_name}' });
    const response = await fetch(`${kiosk}/api/actions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) });
    expect(await response.json()).toMatchObject({ ok: false, error: 'refused_host', message: expect.stringContaining('set ACTION_ORIGIN_CLINIC') });
    const line = harness.logs.find((l) => l.includes(String(request['action_id'])));
    expect(line).toMatch(/ failed refused_host, not sent \d+ms id=\S+: This kiosk's server has no origin CLINIC: set ACTION_ORIGIN_CLINIC to the service's origin/);
  });
});

describe('the start banner', () => {
  const clinic = new Map([['CLINIC', ['flows/clinic-checkin.yaml']]]);

  it('names ACTION_ORIGIN_CLINIC, the setting the bundled clinic flow needs, when no action may run', () => {
    const line = describeServices(readConfig({}), clinic).find((l) => l.trim().startsWith('actions'));
    expect(line).toBe('  actions         not configured: every action is refused (set ACTION_ORIGIN_CLINIC for clinic-checkin; ACTIONS_ALLOWED_ORIGINS for flows that name their origins in full)');
    expect(missingOrigins(readConfig({}), clinic)).toEqual([]);
  });

  it('reads the bundled flows for their {origin:NAME}s', () => {
    expect(new FlowLibrary(BUNDLED_FLOWS, null).bundledOrigins()).toEqual(clinic);
  });

  it('warns of a bundled flow whose origin is not set while other actions may run', () => {
    const config = readConfig({ ACTIONS_ALLOWED_ORIGINS: 'https://other.example' });
    expect(describeServices(config, clinic).find((l) => l.trim().startsWith('actions'))).toBe('  actions         may call https://other.example; secrets: none');
    expect(missingOrigins(config, clinic)).toEqual(["flows/clinic-checkin.yaml calls {origin:CLINIC}, which is not set: its actions fail until ACTION_ORIGIN_CLINIC is set to the service's origin."]);
    expect(missingOrigins(readConfig({ ACTION_ORIGIN_CLINIC: 'http://127.0.0.1:5055' }), clinic)).toEqual([]);
  });
});
