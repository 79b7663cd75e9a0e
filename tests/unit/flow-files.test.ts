// Where the kiosk's flow comes from: bundled examples by name, any URL, and clear failures.

import { describe, expect, it } from 'vitest';
import { bundledFlowNames, loadFlowFor } from '../../src/adapters/flow-files.ts';
import { formatDiagnostic } from '../../src/engine/diagnostics.ts';

const neverFetch = (() => {
  throw new Error('should not fetch a bundled flow');
}) as unknown as typeof fetch;

function answering(status: number, body: string): typeof fetch {
  return (async () => new Response(body, { status, statusText: status === 404 ? 'Not Found' : '' })) as typeof fetch;
}

describe('loadFlowFor', () => {
  it('bundles every example flow', () => {
    expect(bundledFlowNames()).toEqual(['clinic-checkin', 'onboarding', 'visitor-signin']);
  });

  it.each([
    ['', 'onboarding'],
    ['?flow=clinic-checkin', 'clinic_checkin'],
    ['?flow=visitor-signin.yaml', 'visitor_signin'],
  ])('%s loads the bundled flow %s without the network', async (search, id) => {
    const r = await loadFlowFor(search, neverFetch);
    expect(r.loaded?.flow.id).toBe(id);
  });

  it('fetches a URL and checks what comes back', async () => {
    const r = await loadFlowFor('?flow=/flows/mine.yaml', answering(200, 'id: mine\nstates:\n  only: { ui: { artifact_type: card, title: Hi } }\n'));
    expect(r.loaded?.flow.id).toBe('mine');
    expect(r.source).toBe('/flows/mine.yaml');
  });

  it('reports a bad flow with the same diagnostics as vfdl check', async () => {
    const r = await loadFlowFor('?flow=/flows/bad.yaml', answering(200, 'id: bad\nstates:\n  a:\n    transitions: { on_ui_event: { go: nowhere } }\n'));
    expect(r.loaded).toBeUndefined();
    expect(r.diagnostics.map(formatDiagnostic)).toContain(
      '/flows/bad.yaml:4:39: error: "nowhere" is not a state of this flow or __end__ [unknown-target]',
    );
  });

  it('turns an HTTP error and a network failure into a clear diagnostic', async () => {
    const missing = await loadFlowFor('?flow=/flows/gone.yaml', answering(404, ''));
    expect(missing.diagnostics[0]?.message).toBe('could not load the flow: the server answered 404 Not Found');
    const offline = await loadFlowFor('?flow=https://flows.example/x.yaml', (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch);
    expect(offline.diagnostics[0]?.message).toBe('could not load the flow: the server did not answer (Failed to fetch)');
  });

  it('gives up on an address that never answers, after flow_timeout_seconds', async () => {
    const silent = ((_url: string, init?: RequestInit) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)))) as typeof fetch;
    const r = await loadFlowFor('?flow=/flows/slow.yaml&flow_timeout_seconds=0.05', silent);
    expect(r.diagnostics[0]?.message).toBe('could not load the flow: the server did not answer within 0.05 seconds');
  });

  it('says so when the address gives a web page (a host that answers every path with the app)', async () => {
    const page = (async () => new Response('<!doctype html><title>Kiosk</title>', { status: 200, headers: { 'content-type': 'text/html' } })) as typeof fetch;
    const r = await loadFlowFor('?flow=/flows/typo.yaml', page);
    expect(r.loaded).toBeUndefined();
    expect(r.diagnostics[0]?.message).toBe('could not load the flow: the address gave a web page, not a flow file (is the path right?)');
  });
});
