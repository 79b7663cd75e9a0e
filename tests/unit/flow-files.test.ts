// Where the kiosk's flow comes from: bundled examples by name, and flow files at addresses loaded
// through the kiosk's own server (`/api/flows`, a real server here) from its own files or the
// origins the operator allowed, with clear failures, the server's last good copy while an
// address fails, a restart that forgets nothing, and the page's own copy for when the server
// itself cannot be reached.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bundledFlowNames, flowFiles, loadFlowFor } from '../../src/adapters/flow-files.ts';
import { formatDiagnostic } from '../../src/engine/language/diagnostics.ts';
import { FLOW_CACHE, cacheStorageCopies, shownTime } from '../../src/pwa/flow-copies.ts';
import { startServer, type RunningServer } from '../../server/app.ts';
import { FlowLibrary } from '../../server/flow-library.ts';
import { startFlowHost, type FlowHost } from '../support/flow-host.ts';
import { emptyTestMemory } from '../support/test-memory.ts';

const GOOD = 'id: mine\ntitle: Mine\nstates:\n  only: { ui: { artifact_type: card, title: Hi }, transitions: { on_ui_event: { done: __end__ } } }\n';
const NEWER = GOOD.replace('title: Mine', 'title: Mine, revised');
const BROKEN = 'id: bad\nstates:\n  a:\n    transitions: { on_ui_event: { go: nowhere } }\n';

const neverFetch = (() => {
  throw new Error('should not fetch a bundled flow');
}) as unknown as typeof fetch;

const folders: string[] = [];
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});
function folder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.push(dir);
  return dir;
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function flowHost(): Promise<FlowHost> {
  const host = await startFlowHost();
  closers.push(host.close);
  return host;
}

/** The kiosk's server with its own files in `root`, flows allowed from `origins`, copies kept in `dataDir`. */
async function kioskServer(origins: string[], dataDir = folder('kiosk-data-'), root = folder('kiosk-root-')): Promise<{ server: RunningServer; library: FlowLibrary; root: string; dataDir: string }> {
  const library = new FlowLibrary(null, join(dataDir, 'flows'));
  const server = await startServer({ root, config: { llm: null, stt: null, tts: null, flowOrigins: origins }, host: '127.0.0.1', port: 0, quiet: true, memory: await emptyTestMemory(), api: { flows: { library } } });
  closers.push(() => server.close());
  return { server, library, root, dataDir };
}

/** The page's fetch on the kiosk's address (the page's relative `/api/flows`). */
const pageFetch = (server: { url: string }): typeof fetch => ((url: string, init?: RequestInit) => fetch(new URL(url, server.url), init)) as typeof fetch;

describe('bundled flows', () => {
  it('bundles every example flow, and is the kiosk\'s flow source', async () => {
    expect(bundledFlowNames()).toEqual(['clinic-checkin', 'onboarding', 'visitor-signin']);
    expect(flowFiles.bundledNames()).toEqual(bundledFlowNames());
    expect(flowFiles.defaultName).toBe('onboarding');
    expect((await flowFiles.load('?flow=clinic-checkin')).loaded?.flow.id).toBe('clinic_checkin');
  });

  it.each([
    ['', 'onboarding'],
    ['?flow=clinic-checkin', 'clinic_checkin'],
    ['?flow=visitor-signin.yaml', 'visitor_signin'],
  ])('%s loads the bundled flow %s without the network', async (search, id) => {
    expect((await loadFlowFor(search, neverFetch)).loaded?.flow.id).toBe(id);
  });

  it('a plain name that is not bundled says so, and names the bundled ones', async () => {
    const r = await loadFlowFor('?flow=nope', neverFetch);
    expect(r.diagnostics[0]?.message).toBe(
      'could not load the flow: there is no bundled flow named "nope" (the bundled flows: clinic-checkin, onboarding, visitor-signin); give one of them, or the address of a flow file',
    );
    expect(r.unloaded).toBe('not_found');
  });
});

describe('a flow at an address, through the kiosk\'s server', () => {
  it('loads from an allowed origin with no CORS, and the server keeps that version for its actions', async () => {
    const host = await flowHost();
    host.files.set('/mine.yaml', GOOD);
    const { server, library } = await kioskServer([host.origin]);
    const r = await loadFlowFor(`?flow=${host.origin}/mine.yaml`, pageFetch(server), null);
    expect(r.loaded?.flow.id).toBe('mine');
    expect(r.source).toBe(`${host.origin}/mine.yaml`);
    expect(r.version).toMatch(/^[0-9a-f]{32}$/);
    expect(library.find({ source: r.source, version: r.version! })?.id).toBe('mine');
    expect(library.find({ source: 'https://elsewhere.example/mine.yaml', version: r.version! })).toBeUndefined();
  });

  it('loads one of the server\'s own files by path, and nothing outside its folder', async () => {
    const { server, root } = await kioskServer([]);
    mkdirSync(join(root, 'flows-here'));
    writeFileSync(join(root, 'flows-here', 'mine.yaml'), GOOD);
    expect((await loadFlowFor('?flow=/flows-here/mine.yaml', pageFetch(server), null)).loaded?.flow.id).toBe('mine');
    expect((await loadFlowFor(`?flow=${server.url}/flows-here/mine.yaml`, pageFetch(server), null)).loaded?.flow.id).toBe('mine');
    for (const path of ['/flows-here/../../etc/passwd', '/%2e%2e/%2e%2e/etc/hosts.yaml', '/index.html', '/flows-here/none.yaml']) {
      const r = await loadFlowFor(`?flow=${encodeURIComponent(path)}`, pageFetch(server), null);
      expect(r.loaded, path).toBeUndefined();
      expect(r.diagnostics[0]?.message, path).toMatch(/^could not load the flow: there is no flow file at .* on this kiosk's server$/);
    }
  });

  it('refuses an origin the operator did not allow, naming the setting, and never asks it', async () => {
    const host = await flowHost();
    host.files.set('/mine.yaml', GOOD);
    const { server } = await kioskServer([]);
    const r = await loadFlowFor(`?flow=${host.origin}/mine.yaml`, pageFetch(server), null);
    expect(r.loaded).toBeUndefined();
    expect(r.diagnostics[0]?.message).toContain('FLOW_ALLOWED_ORIGINS');
    expect(r.diagnostics[0]?.message).toContain(host.origin);
    expect(host.hits).toEqual([]);
  });

  it('reports a bad flow with the same diagnostics as vfdl check, and keeps no version of it', async () => {
    const host = await flowHost();
    host.files.set('/bad.yaml', BROKEN);
    const { server } = await kioskServer([host.origin]);
    const r = await loadFlowFor(`?flow=${host.origin}/bad.yaml`, pageFetch(server), null);
    expect(r.loaded).toBeUndefined();
    expect(r.version).toBeUndefined();
    expect(r.diagnostics.map(formatDiagnostic)).toContain(`${host.origin}/bad.yaml:4:39: error: "nowhere" is not a state of this flow or __end__ [unknown-target]`);
  });

  it('says plainly what went wrong: not there, a web page, a redirect, no answer in time', async () => {
    const host = await flowHost();
    host.files.set('/page.yaml', (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html>'));
    host.files.set('/moved.yaml', (_req, res) => res.writeHead(301, { location: 'https://evil.example/x.yaml' }).end());
    host.files.set('/slow.yaml', () => {});
    const { server } = await kioskServer([host.origin]);
    const load = (path: string, extra = '') => loadFlowFor(`?flow=${host.origin}${path}${extra}`, pageFetch(server), null);
    const message = async (path: string, extra = '') => (await load(path, extra)).diagnostics[0]?.message;
    expect(await message('/gone.yaml')).toBe(`could not load the flow: ${host.origin} answered 404 Not Found`);
    expect(await message('/page.yaml')).toBe('could not load the flow: the address gave a web page, not a flow file (is the path right?)');
    expect(await message('/moved.yaml')).toMatch(/answered 301, a redirect, which is never followed/);
    const slow = await load('/slow.yaml', '&flow_timeout_seconds=1');
    expect(slow.diagnostics[0]?.message).toBe(`could not load the flow: ${host.origin} did not answer within 1 s`);
    // The operator screen tells no one to run vfdl check on a file it never got.
    expect(slow.unloaded).toBe('unreachable');
    expect((await load('/gone.yaml')).unloaded).toBe('not_found');
    expect(host.hits.filter((h) => h.includes('evil'))).toEqual([]);
  });
});

describe('the last good copy', () => {
  const at = new Date(2026, 10, 22, 14, 3);

  it('the server serves its last good copy while the address fails, says so, and still knows it after a restart', async () => {
    const host = await flowHost();
    host.files.set('/mine.yaml', GOOD);
    const first = await kioskServer([host.origin]);
    const fresh = await loadFlowFor(`?flow=${host.origin}/mine.yaml`, pageFetch(first.server), null);
    host.files.set('/mine.yaml', NEWER);
    await loadFlowFor(`?flow=${host.origin}/mine.yaml`, pageFetch(first.server), null);
    host.files.set('/mine.yaml', BROKEN);
    expect((await loadFlowFor(`?flow=${host.origin}/mine.yaml`, pageFetch(first.server), null)).loaded, 'a broken file is reported, not replaced').toBeUndefined();
    host.files.set('/mine.yaml', (_req, res) => res.writeHead(503).end('down'));
    vi.spyOn(console, 'warn').mockImplementation(() => {});

    const kept = await loadFlowFor(`?flow=${host.origin}/mine.yaml`, pageFetch(first.server), null);
    expect(kept.loaded?.flow.title).toBe('Mine, revised');
    expect(kept.diagnostics[0]).toMatchObject({ severity: 'warning', code: 'not-a-flow' });
    expect(kept.diagnostics[0]?.message).toMatch(new RegExp(`^could not load the flow: ${host.origin} answered 503 Service Unavailable; running the last good copy, saved \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d$`));

    await first.server.close();
    await host.close();
    const again = await kioskServer([host.origin], first.dataDir);
    const after = await loadFlowFor(`?flow=${host.origin}/mine.yaml`, pageFetch(again.server), null);
    expect(after.loaded?.flow.title).toBe('Mine, revised');
    expect(after.version).toBe(kept.version);
    expect(again.library.find({ source: fresh.source, version: fresh.version! })?.id, 'the older version is still known for visits that run it').toBe('mine');
    vi.restoreAllMocks();
  });

  describe('on the page, for when the kiosk\'s server cannot be reached', () => {
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

    it('keeps each good flow with its version, and runs it with a warning when the server does not answer', async () => {
      const host = await flowHost();
      host.files.set('/mine.yaml', GOOD);
      const { server } = await kioskServer([host.origin]);
      const src = `?flow=${host.origin}/mine.yaml`;
      const loaded = await loadFlowFor(src, pageFetch(server), cacheStorageCopies(() => at));
      expect([...caches.stores.get(FLOW_CACHE)!.keys()]).toEqual([`${host.origin}/mine.yaml`]);
      await server.close();

      const r = await loadFlowFor(src, pageFetch(server));
      expect(r.loaded?.flow.title).toBe('Mine');
      expect(r.version).toBe(loaded.version);
      expect(r.diagnostics).toHaveLength(1);
      expect(r.diagnostics[0]?.message).toMatch(new RegExp(`^could not load the flow: the kiosk's server did not answer \\(.+\\); running the last good copy, saved ${shownTime(at)}$`));
    });

    it('does not stand in when the server says the file is not there, and is not touched for a bundled flow', async () => {
      const host = await flowHost();
      host.files.set('/mine.yaml', GOOD);
      const { server } = await kioskServer([host.origin]);
      await loadFlowFor(`?flow=${host.origin}/mine.yaml`, pageFetch(server));
      host.files.delete('/mine.yaml');
      expect((await loadFlowFor(`?flow=${host.origin}/mine.yaml`, pageFetch(server))).loaded).toBeUndefined();
      caches.stores.clear();
      await loadFlowFor('?flow=clinic-checkin', neverFetch);
      expect(caches.stores.size).toBe(0);
    });

    it('a cache that fails is no reason not to run the flow', async () => {
      (globalThis as { caches?: unknown }).caches = {
        open: async () => {
          throw new Error('quota exceeded');
        },
      };
      const host = await flowHost();
      host.files.set('/mine.yaml', GOOD);
      const { server } = await kioskServer([host.origin]);
      expect((await loadFlowFor(`?flow=${host.origin}/mine.yaml`, pageFetch(server))).loaded?.flow.id).toBe('mine');
    });
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
