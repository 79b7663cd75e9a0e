// The flow studio's routes on the kiosk's server (issue 34): what the studio may do here, saving a
// flow into the kiosks' flow folder (FLOW_FOLDER) only from the server's own machine or, from a
// device the operator paired (issue 28), with the operator PIN, never a flow with errors, and the
// kiosks loading it as /flows/NAME.yaml only while it has none; the studio's preview alone may be
// framed, by the server's own pages.

import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/app.ts';
import { testConfig } from '../support/test-config.ts';
import { readFlowFolder } from '../../server/flow-folder.ts';
import { isLocalRequest } from '../../server/device-guard.ts';
import type { Memory } from '../../server/storage/memory.ts';
import { pairedCookie } from '../support/paired-device.ts';
import { tempSiteRoot } from '../support/server-harness.ts';
import { emptyTestMemory } from '../support/test-memory.ts';

const PIN = '582046';
const GOOD = readFileSync('flows/onboarding.yaml', 'utf8');
const BAD = GOOD.replace('artifact_type: form', 'artifact_type: from');

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

/** A kiosk server with a site root of its own and, unless `folder` is false, a flow folder. */
async function kiosk(env: Record<string, string> = {}, folder = true): Promise<{ url: string; folder: string; memory: Memory }> {
  const root = tempSiteRoot('studio-site-');
  const flows = mkdtempSync(join(tmpdir(), 'studio-folder-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }), () => rmSync(flows, { recursive: true, force: true }));
  const memory = await emptyTestMemory();
  const server: RunningServer = await startServer({ root, config: { ...testConfig(env), flowFolder: folder ? flows : null }, host: '127.0.0.1', port: 0, quiet: true, memory });
  cleanups.push(() => server.close());
  return { url: server.url, folder: flows, memory };
}

/**
 * A save as the studio sends it; `proxied`: as if it came through a proxy on the server's machine
 * (so from elsewhere), `cookie`: the credential of a device the operator paired.
 */
function save(url: string, name: string, text: string, options: { pin?: string; proxied?: boolean; cookie?: string } = {}): Promise<Response> {
  return fetch(`${url}/api/studio/flows/${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', ...(options.proxied ? { 'x-forwarded-for': '192.0.2.10' } : {}), ...(options.cookie ? { cookie: options.cookie } : {}) },
    body: JSON.stringify({ text, ...(options.pin !== undefined ? { pin: options.pin } : {}) }),
  });
}

describe("the server's own machine", () => {
  const request = (remoteAddress: string, headers: Record<string, string>) => ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

  it('is a loopback connection to a loopback name, not passed on by a proxy', () => {
    expect(isLocalRequest(request('127.0.0.1', { host: '127.0.0.1:4173' }))).toBe(true);
    expect(isLocalRequest(request('::1', { host: 'localhost:4173' }))).toBe(true);
    expect(isLocalRequest(request('::ffff:127.0.0.1', { host: '[::1]:4173' }))).toBe(true);
    expect(isLocalRequest(request('127.0.0.1', { host: '127.0.0.1', 'x-forwarded-for': '192.0.2.10' }))).toBe(false);
    expect(isLocalRequest(request('127.0.0.1', { host: 'kiosk.example' }))).toBe(false);
    expect(isLocalRequest(request('192.168.1.20', { host: 'localhost' }))).toBe(false);
  });

  it('names the folder in FLOW_FOLDER, or none', () => {
    expect(readFlowFolder({})).toBeNull();
    expect(readFlowFolder({ FLOW_FOLDER: '  ' })).toBeNull();
    expect(readFlowFolder({ FLOW_FOLDER: '/srv/kiosk-flows' })).toBe('/srv/kiosk-flows');
  });
});

describe('saving for the kiosks', () => {
  it('saves a flow without errors from the server\'s own machine, and refuses one with errors, writing nothing', async () => {
    const { url, folder } = await kiosk();
    expect(await (await fetch(`${url}/api/studio`)).json()).toEqual({ folder: true, flows: [], from_this_machine: true, pin_set: false });
    const refused = await save(url, 'welcome.yaml', BAD);
    expect(refused.status).toBe(422);
    const body = (await refused.json()) as { error: string; diagnostics: { line: number; code: string; message: string }[] };
    expect(body.error).toBe('flow_invalid');
    expect(body.diagnostics[0]).toMatchObject({ code: 'bad-value', message: expect.stringContaining('"from" is not one of form') });
    expect(existsSync(join(folder, 'welcome.yaml'))).toBe(false);

    const saved = await save(url, 'welcome.yaml', GOOD);
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ ok: true, saved: '/flows/welcome.yaml' });
    expect(readFileSync(join(folder, 'welcome.yaml'), 'utf8')).toBe(GOOD);
    expect(((await (await fetch(`${url}/api/studio`)).json()) as { flows: string[] }).flows).toEqual(['welcome.yaml']);
    expect(await (await fetch(`${url}/api/studio/flows/welcome.yaml`)).json()).toEqual({ ok: true, name: 'welcome.yaml', text: GOOD });
  });

  it('refuses a device from elsewhere the operator has not paired, even with the PIN, before any try counts', async () => {
    const { url, folder } = await kiosk({ OPERATOR_PIN: PIN });
    for (const pin of [PIN, '111111']) {
      const refused = await save(url, 'welcome.yaml', GOOD, { proxied: true, pin });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ error: { type: 'not_paired' } });
    }
    expect((await fetch(`${url}/api/studio`, { headers: { 'x-forwarded-for': '192.0.2.10' } })).status).toBe(401);
    expect(existsSync(join(folder, 'welcome.yaml'))).toBe(false);
    // No wrong PIN was counted: the first wrong try from this machine still has four left after it.
    const wrong = await fetch(`${url}/api/operator/unlock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pin: '000000' }) });
    expect(await wrong.json()).toMatchObject({ error: 'wrong_pin', tries_left: 4 });
  });

  it('takes a flow from a paired device elsewhere only with the operator PIN, counting wrong ones', async () => {
    const { url, folder, memory } = await kiosk({ OPERATOR_PIN: PIN });
    const cookie = await pairedCookie(memory, 'Back office laptop');
    expect(await (await save(url, 'welcome.yaml', GOOD, { proxied: true, cookie })).json()).toMatchObject({ error: 'pin_required' });
    const wrong = await save(url, 'welcome.yaml', GOOD, { proxied: true, cookie, pin: '111111' });
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toMatchObject({ error: 'wrong_pin', tries_left: 4 });
    expect(existsSync(join(folder, 'welcome.yaml'))).toBe(false);
    expect((await save(url, 'welcome.yaml', GOOD, { proxied: true, cookie, pin: PIN })).status).toBe(200);
    // The PIN opens the door, not the checks: a flow with errors is refused all the same.
    expect((await save(url, 'welcome.yaml', BAD, { proxied: true, cookie, pin: PIN })).status).toBe(422);
    expect(readFileSync(join(folder, 'welcome.yaml'), 'utf8')).toBe(GOOD);
  });

  it('takes nothing from elsewhere on a kiosk without a PIN, and says where there is no folder', async () => {
    const open = await kiosk();
    const refused = await save(open.url, 'welcome.yaml', GOOD, { proxied: true, pin: PIN, cookie: await pairedCookie(open.memory) });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: 'operator_only' });
    const none = await kiosk({}, false);
    expect(await (await save(none.url, 'welcome.yaml', GOOD)).json()).toMatchObject({ error: 'no_folder' });
    expect(await (await fetch(`${none.url}/api/studio`)).json()).toMatchObject({ folder: false, flows: [] });
  });

  it('refuses a name that is no flow file of the folder, and a body that is not JSON', async () => {
    const { url } = await kiosk();
    for (const name of ['../escape.yaml', '.hidden.yaml', 'flow.yml', 'a%2Fb.yaml']) expect((await save(url, name, GOOD)).status, name).not.toBe(200);
    const text = await fetch(`${url}/api/studio/flows/welcome.yaml`, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: GOOD });
    expect(text.status).toBe(415);
  });
});

describe('the kiosks load a flow of the folder', () => {
  it('as /flows/NAME.yaml, only while it has no error', async () => {
    const { url, folder } = await kiosk();
    expect((await save(url, 'welcome.yaml', GOOD)).status).toBe(200);
    const loaded = await fetch(`${url}/api/flows?src=${encodeURIComponent('/flows/welcome.yaml')}`);
    expect(await loaded.json()).toMatchObject({ ok: true, text: GOOD });
    // Changed by hand into a flow with errors: not served.
    writeFileSync(join(folder, 'broken.yaml'), BAD);
    const broken = await fetch(`${url}/api/flows?src=${encodeURIComponent('/flows/broken.yaml')}`);
    expect(broken.ok).toBe(false);
    expect(await broken.json()).toMatchObject({ ok: false, message: expect.stringContaining('has errors') });
  });
});

describe('framing', () => {
  it('lets only the studio\'s preview be framed, and only by the server\'s own pages', async () => {
    const { url } = await kiosk();
    const frameAncestors = async (path: string) => /frame-ancestors ([^;]+)/.exec((await fetch(`${url}${path}`)).headers.get('content-security-policy') ?? '')?.[1];
    expect(await frameAncestors('/studio/preview.html')).toBe("'self'");
    expect(await frameAncestors('/')).toBe("'none'");
    expect(await frameAncestors('/studio/')).toBe("'none'");
    expect(await frameAncestors('/api/studio')).toBe("'none'");
    const bare = await fetch(`${url}/studio`, { redirect: 'manual' });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/studio/');
  });
});
