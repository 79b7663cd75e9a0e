// Every answer of the kiosk's server carries the page's Content-Security-Policy and the headers
// beside it: the page and its files, /api/ answers and refusals alike. (That the built app, its
// service worker and the voice detector run under the policy is for the browser tests, which run
// against this server.)

import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../server/app.ts';
import { send } from '../support/hostile-requests.ts';
import { SITE_PAGE, useServerHarness } from '../support/server-harness.ts';

const harness = useServerHarness({ rootPrefix: 'kiosk-headers-', secrets: [] });

const EXPECTED = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'permissions-policy': 'microphone=(self)',
};

describe('security headers', () => {
  it.each([
    ['the page', 'GET', '/', {}, 200],
    ['the page at an address of the app', 'GET', '/visit/step?flow=clinic-checkin', {}, 200],
    ['a post to the page', 'POST', '/', {}, 405],
    ['the config', 'GET', '/api/config', {}, 200],
    ['the status', 'GET', '/api/status', {}, 200],
    ['an unknown route', 'GET', '/api/nothing', {}, 404],
    ['a refusal of another site', 'GET', '/api/config', { origin: 'http://attacker.example' }, 403],
    ['a service that is off', 'POST', '/api/llm/chat/completions', { 'content-type': 'application/json' }, 503],
  ])('are on %s', async (_what, method, path, headers, status) => {
    const url = await harness.startKiosk({});
    const answer = await send(url, path, { method, headers });
    expect(answer.status).toBe(status);
    expect(answer.headers).toMatchObject(EXPECTED);
  });

  it('serve the page itself under them', async () => {
    const answer = await send(await harness.startKiosk({}), '/');
    expect(answer.body).toBe(SITE_PAGE);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
  });

  it('allow scripts from the kiosk only, plus WebAssembly; no frame, no plugin, no base, forms to itself', () => {
    const directives = Object.fromEntries(CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
    expect(directives).toMatchObject({
      'default-src': "'self'",
      'script-src': "'self' 'wasm-unsafe-eval'",
      'frame-ancestors': "'none'",
      'base-uri': "'none'",
      'form-action': "'self'",
      'object-src': "'none'",
    });
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/'unsafe-inline'|'unsafe-eval'|\*/);
  });
});
