// The copies the server keeps of flows it loaded from addresses (issue 29, points 3, 4 and 7): the
// only flows besides the bundled ones whose actions it runs. Another spelling of an address once
// re-labelled the kept copy, so that the page's next action failed (and the label survived a
// restart); every spelling kept a parsed copy of its own, without limit; and a copy still ran its
// actions after the operator had removed its origin. A real server on 127.0.0.1, a real flow host
// and a real action target, the copies kept in a real folder across restarts.

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FlowLibrary, type KeptLimits } from '../../server/flow-library.ts';
import { toolFlow, useServerHarness, type Upstream } from '../support/server-harness.ts';

const harness = useServerHarness({ rootPrefix: 'kiosk-copies-', secrets: [] });
const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** A flow `probe` whose one action posts a check-in to `target`; `title` (and `padding`) make another text of it. */
const probe = (target: string, title = 'Probe', padding = '') =>
  toolFlow({ method: 'POST', url: `${target}/check-ins` }, 'probe').replace('title: Summary', `title: ${JSON.stringify(title + padding)}`);

interface Setup {
  /** the flow host's origin, as 127.0.0.1:port */
  host: string;
  port: number;
  target: Upstream;
  /** the folder the copies are kept in (KIOSK_DATA_DIR/flows) */
  kept: string;
  /** starts a kiosk server on `kept` (a new library read from it: a restart) loading flows from `origins` */
  start: (origins: readonly string[], limits?: Partial<KeptLimits>) => Promise<{ kiosk: string; library: FlowLibrary }>;
}

/** A flow host answering every path with `text(path)`, an action target, and a folder for the copies. */
async function setup(text: (target: string, url: string) => string): Promise<Setup> {
  const target = await harness.startUpstream((_req, res) => res.writeHead(201, { 'content-type': 'application/json' }).end('{"queue_number":3}'));
  const targetOrigin = new URL(target.base).origin;
  const flowHost = await harness.startUpstream((req, res) => res.writeHead(200, { 'content-type': 'text/yaml' }).end(text(targetOrigin, req.url ?? '/')));
  const host = new URL(flowHost.base).origin;
  const kept = mkdtempSync(join(tmpdir(), 'kiosk-kept-flows-'));
  folders.push(kept);
  const start = async (origins: readonly string[], limits: Partial<KeptLimits> = {}) => {
    const library = new FlowLibrary(null, kept, limits);
    const kiosk = await harness.startKiosk({ flowOrigins: [...origins], actions: { allowedOrigins: [targetOrigin], secrets: {} } }, { flows: { library } });
    return { kiosk, library };
  };
  return { host, port: Number(new URL(host).port), target, kept, start };
}

/** `GET /api/flows?src=…`: the status and the answer's version (or error). */
async function load(kiosk: string, src: string): Promise<{ status: number; version?: string; error?: string }> {
  const response = await fetch(`${kiosk}/api/flows?src=${encodeURIComponent(src)}`);
  const body = (await response.json()) as { version?: string; error?: string };
  return { status: response.status, ...(body.version ? { version: body.version } : {}), ...(body.error ? { error: body.error } : {}) };
}

/** The page's action of the probe flow as it loaded it from `source`. */
async function act(kiosk: string, id: string, source: string, version: string): Promise<Record<string, unknown>> {
  const ask = { action_id: id, flow_id: 'probe', flow_source: source, flow_version: version, state: 'summary', tool: 'check_in', values: {} };
  const response = await fetch(`${kiosk}/api/actions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ask) });
  return (await response.json()) as Record<string, unknown>;
}

describe('every spelling of a flow address is one address', () => {
  it("another spelling (a fragment, HTTP, 0x7f000001, a port with a zero) or another address of the same text never changes what a page's actions find, nor after a restart", async () => {
    const { host, port, target, kept, start } = await setup((to) => probe(to));
    const { kiosk } = await start([host]);
    const src = `${host}/flows/probe.yaml`;
    const { version } = await load(kiosk, src);
    expect(version).toMatch(/^[0-9a-f]{32}$/);
    const spellings = [`${src}#x`, `HTTP://127.0.0.1:${port}/flows/probe.yaml`, `http://0x7f000001:${port}/flows/probe.yaml`, `http://127.0.0.1:0${port}/flows/probe.yaml`, `http://2130706433:${port}/flows/probe.yaml#y`, `${host}/flows/copy.yaml`];
    for (const spelling of spellings) expect(await load(kiosk, spelling), spelling).toEqual({ status: 200, version });

    expect(await act(kiosk, 'c-1', src, version!)).toMatchObject({ ok: true, status: 201 });
    expect(await act(kiosk, 'c-2', `HTTP://0x7f000001:0${port}/flows/probe.yaml#top`, version!)).toMatchObject({ ok: true });
    expect(await act(kiosk, 'c-3', `${host}/flows/copy.yaml`, version!)).toMatchObject({ ok: true });
    expect(readdirSync(kept)).toEqual([`${version}.json`]);

    const again = await start([host]);
    expect(await act(again.kiosk, 'c-4', src, version!)).toMatchObject({ ok: true });
    expect(target.received).toHaveLength(4);
  });
});

describe('the kept copies are bounded', () => {
  it('50 addresses of one text keep one copy; 20 texts keep the last 8 (by count), in memory and on disk, and the newest still runs', async () => {
    const { host, target, kept, start } = await setup((to, url) => probe(to, url.includes('n=') ? `Probe ${/n=(\d+)/.exec(url)![1]}` : 'Probe'));
    const { kiosk, library } = await start([host], { maxCopies: 8 });
    const same = await Promise.all(Array.from({ length: 50 }, (_, i) => load(kiosk, `${host}/flows/probe.yaml?spelling=${i}#${i}`)));
    expect(new Set(same.map((answer) => answer.version)).size).toBe(1);
    expect(readdirSync(kept)).toHaveLength(1);
    expect(library.stats().copies).toBe(1);

    let last = '';
    for (let n = 0; n < 20; n++) last = (await load(kiosk, `${host}/flows/probe.yaml?n=${n}`)).version!;
    expect(readdirSync(kept)).toHaveLength(8);
    expect(library.stats().copies).toBe(8);
    expect(await act(kiosk, 'b-1', `${host}/flows/probe.yaml?n=19`, last)).toMatchObject({ ok: true });
    expect(target.received).toHaveLength(1);
  });

  it('large texts keep only what fits in the bytes allowed', async () => {
    const { host, kept, start } = await setup((to, url) => probe(to, `Probe ${url}`, ' '.repeat(4000)));
    const { kiosk, library } = await start([host], { maxBytes: 120_000 });
    for (let n = 0; n < 20; n++) expect((await load(kiosk, `${host}/flows/big.yaml?n=${n}`)).status).toBe(200);
    // Each is about 34 KB as the library counts a parsed flow: three fit.
    expect(readdirSync(kept)).toHaveLength(3);
    expect(library.stats()).toMatchObject({ copies: 3 });
    expect(library.stats().bytes).toBeLessThanOrEqual(120_000);
  });
});

describe('a copy goes with its origin', () => {
  it('after the operator removed its origin and restarted, a kept copy runs no action and the address is refused', async () => {
    const { host, target, start } = await setup((to) => probe(to));
    const first = await start([host]);
    const src = `${host}/flows/probe.yaml`;
    const { version } = await load(first.kiosk, src);
    expect(await act(first.kiosk, 'o-1', src, version!)).toMatchObject({ ok: true });

    const after = await start([]);
    expect(await load(after.kiosk, src)).toMatchObject({ status: 403, error: 'flow_origin_not_allowed' });
    const refused = await act(after.kiosk, 'o-2', src, version!);
    expect(refused).toMatchObject({ ok: false, error: 'flow_origin_not_allowed' });
    expect(refused['message']).toContain('FLOW_ALLOWED_ORIGINS');
    expect(target.received).toHaveLength(1);
  });

  it('a copy its address has not given for longer than the age limit is let go, from disk too', async () => {
    const { host, target, kept, start } = await setup((to) => probe(to));
    const first = await start([host]);
    const src = `${host}/flows/probe.yaml`;
    const { version } = await load(first.kiosk, src);
    const later = await start([host], { maxAgeMs: 60_000, now: () => Date.now() + 61_000 });
    expect(await act(later.kiosk, 'a-1', src, version!)).toMatchObject({ ok: false, error: 'unknown_flow' });
    expect(readdirSync(kept)).toEqual([]);
    expect(target.received).toHaveLength(0);
  });
});
