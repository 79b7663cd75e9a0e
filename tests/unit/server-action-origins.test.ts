// `{origin:NAME}`: a flow's url may start with the origin the operator set as ACTION_ORIGIN_NAME,
// so one flow file works against a local service and a real one; the origin is allowed, nothing
// else about the checks changes, and a reference anywhere but the start is refused.

import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../server/config.ts';
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
});
