// Where the kiosk's flow comes from: bundled examples by name, any URL, clear failures, and the
// last good copy of a URL's flow when its address does not answer.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bundledFlowNames, flowFiles, loadFlowFor } from '../../src/adapters/flow-files.ts';
import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { FLOW_CACHE, cacheStorageCopies, shownTime } from '../../src/pwa/flow-copies.ts';

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

  it("is the kiosk's flow source: the bundled names, the default, the same loading", async () => {
    expect(flowFiles.bundledNames()).toEqual(bundledFlowNames());
    expect(flowFiles.defaultName).toBe('onboarding');
    expect((await flowFiles.load('?flow=clinic-checkin')).loaded?.flow.id).toBe('clinic_checkin');
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

/** Cache Storage as far as the kiosk uses it (open, put and match, by address), in memory. */
class MemoryCaches {
  readonly stores = new Map<string, Map<string, Response>>();

  async open(name: string) {
    const store = this.stores.get(name) ?? new Map<string, Response>();
    this.stores.set(name, store);
    return {
      put: async (key: string, response: Response) => void store.set(key, response.clone()),
      match: async (key: string) => store.get(key)?.clone(),
    };
  }
}

const GOOD = 'id: mine\ntitle: Mine\nstates:\n  only: { ui: { artifact_type: card, title: Hi }, transitions: { on_ui_event: { done: __end__ } } }\n';
const NEWER = GOOD.replace('title: Mine', 'title: Mine, revised');
const BROKEN = 'id: mine\nstates:\n  a:\n    transitions: { on_ui_event: { go: nowhere } }\n';

const failing = (async () => {
  throw new TypeError('Failed to fetch');
}) as typeof fetch;

describe('the last good copy of a flow from a URL', () => {
  let caches: MemoryCaches;
  beforeEach(() => {
    caches = new MemoryCaches();
    (globalThis as { caches?: unknown }).caches = caches;
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    delete (globalThis as { caches?: unknown }).caches;
    vi.restoreAllMocks();
  });

  const at = new Date(2026, 10, 22, 14, 3);
  const copiesAt = (when: Date) => cacheStorageCopies(() => when);

  it('keeps a flow that loaded, and runs it when the address no longer answers, with a warning', async () => {
    await loadFlowFor('?flow=https://flows.example/mine.yaml', answering(200, GOOD), copiesAt(at));
    expect([...caches.stores.get(FLOW_CACHE)!.keys()]).toEqual(['https://flows.example/mine.yaml']);

    const r = await loadFlowFor('?flow=https://flows.example/mine.yaml', failing);
    expect(r.loaded?.flow.title).toBe('Mine');
    expect(r.source).toBe('https://flows.example/mine.yaml');
    expect(r.diagnostics).toEqual([
      {
        file: 'https://flows.example/mine.yaml',
        line: 1,
        col: 1,
        severity: 'warning',
        code: 'not-a-flow',
        message: `could not load the flow: the server did not answer (Failed to fetch); running the last good copy, saved ${shownTime(at)}`,
      },
    ]);
  });

  it('uses the copy on a time-out and a server error too, and says which', async () => {
    await loadFlowFor('?flow=/flows/mine.yaml', answering(200, GOOD));
    const silent = ((_url: string, init?: RequestInit) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)))) as typeof fetch;
    const slow = await loadFlowFor('?flow=/flows/mine.yaml&flow_timeout_seconds=0.05', silent);
    expect(slow.loaded?.flow.id).toBe('mine');
    expect(slow.diagnostics[0]?.message).toMatch(/^could not load the flow: the server did not answer within 0.05 seconds; running the last good copy, saved \d{4}-\d\d-\d\d \d\d:\d\d$/);
    for (const status of [500, 502, 503, 504, 408, 429]) {
      const r = await loadFlowFor('?flow=/flows/mine.yaml', answering(status, 'down'));
      expect(r.loaded?.flow.id, `status ${status}`).toBe('mine');
      expect(r.diagnostics[0]?.severity).toBe('warning');
    }
  });

  it('replaces the copy with each newer flow that loads, and never with one that has errors', async () => {
    await loadFlowFor('?flow=/flows/mine.yaml', answering(200, GOOD));
    await loadFlowFor('?flow=/flows/mine.yaml', answering(200, NEWER));
    const broken = await loadFlowFor('?flow=/flows/mine.yaml', answering(200, BROKEN));
    expect(broken.loaded, 'a broken file is reported, not replaced by the copy').toBeUndefined();
    const r = await loadFlowFor('?flow=/flows/mine.yaml', failing);
    expect(r.loaded?.flow.title).toBe('Mine, revised');
  });

  it('does not stand in when the address says the file is not there, or gives a web page', async () => {
    await loadFlowFor('?flow=/flows/mine.yaml', answering(200, GOOD));
    const missing = await loadFlowFor('?flow=/flows/mine.yaml', answering(404, ''));
    expect(missing.loaded).toBeUndefined();
    expect(missing.diagnostics[0]?.message).toBe('could not load the flow: the server answered 404 Not Found');
    const page = (async () => new Response('<!doctype html>', { status: 200, headers: { 'content-type': 'text/html' } })) as typeof fetch;
    expect((await loadFlowFor('?flow=/flows/mine.yaml', page)).loaded).toBeUndefined();
  });

  it('with no copy kept, the failure is the same as ever', async () => {
    const r = await loadFlowFor('?flow=https://flows.example/other.yaml', failing);
    expect(r.loaded).toBeUndefined();
    expect(r.diagnostics.map((d) => [d.severity, d.message])).toEqual([['error', 'could not load the flow: the server did not answer (Failed to fetch)']]);
  });

  it('keeps one copy per address', async () => {
    await loadFlowFor('?flow=/flows/mine.yaml', answering(200, GOOD));
    const other = await loadFlowFor('?flow=/flows/theirs.yaml', failing);
    expect(other.loaded).toBeUndefined();
  });

  it('never touches the cache for a bundled flow', async () => {
    await loadFlowFor('?flow=clinic-checkin', neverFetch);
    expect(caches.stores.size).toBe(0);
  });

  it('a cache that fails is no reason not to run the flow', async () => {
    (globalThis as { caches?: unknown }).caches = {
      open: async () => {
        throw new Error('quota exceeded');
      },
    };
    const r = await loadFlowFor('?flow=/flows/mine.yaml', answering(200, GOOD));
    expect(r.loaded?.flow.id).toBe('mine');
    expect((await loadFlowFor('?flow=/flows/mine.yaml', failing)).loaded).toBeUndefined();
  });
});

describe('without Cache Storage (Node, a page outside a secure context)', () => {
  it('has no copies, and loads as before', async () => {
    expect(cacheStorageCopies()).toBeNull();
    const r = await loadFlowFor('?flow=/flows/mine.yaml', answering(200, GOOD));
    expect(r.loaded?.flow.id).toBe('mine');
  });
});
