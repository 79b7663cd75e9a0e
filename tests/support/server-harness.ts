// A harness for the kiosk server tests: a temporary folder standing in for the built page,
// local upstreams (and action targets) that record what reaches them, the kiosk's server started
// in front of them with an empty memory for each test (the kiosks of one test share it, as a
// fleet would), everything closed after each test, and a last check that no secret reached the
// page or a log.

import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { ApiOptions } from '../../server/api.ts';
import { startServer } from '../../server/app.ts';
import type { KioskConfig } from '../../server/config.ts';
import { FlowLibrary } from '../../server/flow-library.ts';
import type { Memory } from '../../server/storage/memory.ts';
import { emptyTestMemory } from './test-memory.ts';

/** Where the flows a test keeps (`keepFlow`) say they came from; every kiosk of the harness loads flows from it. */
export const FLOWS_ORIGIN = 'https://flows.example';

/** The page the temporary site root serves as `index.html`. */
export const SITE_PAGE = '<!doctype html><title>kiosk</title>';

/** A fresh folder under the system's temp folder holding `index.html` (SITE_PAGE); the caller removes it. */
export function tempSiteRoot(prefix: string): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(root, 'index.html'), SITE_PAGE);
  return root;
}

/** Starts `server` on a free port of 127.0.0.1; resolves with that port. */
export function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/** Stops `server`, dropping the connections still open (streams in flight included). */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** One request as an upstream received it. */
export interface Received {
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** How an upstream answers, called once the whole request body has arrived. */
export type Reply = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

/** A recording upstream: its OpenAI-style base URL and every request it received, in order. */
export interface Upstream {
  base: string;
  received: Received[];
}

/** The services (and actions, analytics, host names) the kiosk is started with; those left out are not configured. */
export type KioskServices = Partial<Pick<KioskConfig, 'llm' | 'stt' | 'tts' | 'actions' | 'analyticsUrl' | 'operatorPin' | 'allowedHosts' | 'flowOrigins'>>;

/** A flow as the page names it to the server's actions. */
export interface FlowNamed {
  flow_source: string;
  flow_version: string;
}

export interface ServerHarnessOptions {
  /** the start of the temporary site root's folder name */
  rootPrefix: string;
  /** strings that must appear in nothing the page saw and in no log line (the key, pieces of it) */
  secrets: readonly string[];
  /** more files of the site root beside `index.html`, by their path in it (`favicon.svg`) */
  files?: Readonly<Record<string, string | Uint8Array>>;
}

/** What a test file gets from `useServerHarness`; its functions can be taken out of it (no `this`). */
export interface ServerHarness {
  /** every line the kiosk servers logged, in order */
  readonly logs: string[];
  /** what the page was answered (headers and bodies, as text); push to it, it is checked for the secrets at the end */
  readonly seen: string[];
  /** starts a local upstream that records each request and then answers with `reply` (default: 200 `{"ok":true}`) */
  startUpstream: (reply?: Reply) => Promise<Upstream>;
  /** starts the kiosk's server with `services` on a free port, logging into `logs`, on the test's memory; resolves with its URL */
  startKiosk: (services: KioskServices, api?: ApiOptions, memory?: Memory) => Promise<string>;
  /**
   * Makes `text` a flow the kiosk servers of this file know (as if loaded through /api/flows from
   * `source`), so their actions may run; throws when it does not load.
   */
  keepFlow: (text: string, source?: string) => FlowNamed;
  /** What the page asks `/api/actions` for: `toolFlow(http, flowId)`'s check_in, kept, with no values. */
  toolAsk: (actionId: string, http: Record<string, unknown>, flowId?: string) => Record<string, unknown>;
  /** the memory the kiosks of the current test share (empty when the test began) */
  memory: () => Promise<Memory>;
  /** closes `close` after the current test, with the servers the harness started */
  onCleanup: (close: () => unknown) => void;
}

/**
 * A flow whose state `summary` has one tool, `check_in`, with the HTTP effect `http`: what the
 * server tests run actions of. The names its url and body fill in are declared as variables, as
 * vfdl check asks of a flow.
 */
export function toolFlow(http: Record<string, unknown>, flowId = 'clinic_checkin'): string {
  const effect = Object.fromEntries(Object.entries(http).filter(([, v]) => v !== undefined));
  const names = [...JSON.stringify([effect['url'], effect['body']]).matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]!);
  const variables = Object.fromEntries(names.map((n) => [n, { type: 'string' }]));
  return stringify({ id: flowId, variables, states: { summary: { ui: { artifact_type: 'card', title: 'Summary' }, tools: { check_in: { description: 'Check in.', http: effect } } } } });
}

/** The clinic example's states of its two actions. */
const CLINIC_STATES = { find_appointment: 'appointment', check_in: 'summary' } as const;

/**
 * What the page asks `/api/actions` for one of the bundled clinic example's actions: the tool,
 * the values its effect uses, and the id.
 */
export function clinicAsk(actionId: string, tool: keyof typeof CLINIC_STATES, values: Record<string, unknown>): Record<string, unknown> {
  return { action_id: actionId, flow_id: 'clinic_checkin', flow_source: 'flows/clinic-checkin.yaml', state: CLINIC_STATES[tool], tool, values };
}

/** Writes `value` as a JSON answer with `status` and any extra headers. */
export function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

/**
 * Sets up the servers of one test file; call it once at the file's top level. It registers the
 * hooks: the site root made before all tests, every server started in a test closed after it
 * (the last started first), and after all tests the root removed and the secrets looked for.
 */
export function useServerHarness(options: ServerHarnessOptions): ServerHarness {
  const cleanups: Array<() => unknown> = [];
  const logs: string[] = [];
  const seen: string[] = [];
  // The bundled flows (the clinic example among them), and the flows a test keeps.
  const library = new FlowLibrary(resolve('flows'), null);
  let root = '';
  let flowSeq = 0;
  let memory: Promise<Memory> | undefined;
  const testMemory = () => (memory ??= emptyTestMemory());

  beforeAll(() => {
    root = tempSiteRoot(options.rootPrefix);
    for (const [path, content] of Object.entries(options.files ?? {})) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), content);
    }
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    memory = undefined;
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    const everything = [...seen, ...logs].join('\n');
    for (const secret of options.secrets) expect(everything).not.toContain(secret);
  });

  const keepFlow = (text: string, source = `${FLOWS_ORIGIN}/test-${++flowSeq}.yaml`): FlowNamed => {
    const version = library.keep(source, text);
    if (!version) throw new Error(`the test flow for ${source} does not load`);
    return { flow_source: source, flow_version: version };
  };

  return {
    logs,
    seen,
    startUpstream: async (reply = (_req, res) => json(res, 200, { ok: true })) => {
      const received: Received[] = [];
      const server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          const body = Buffer.concat(chunks);
          received.push({ url: req.url ?? '', headers: req.headers, body });
          reply(req, res, body);
        });
      });
      const port = await listen(server);
      cleanups.push(() => closeServer(server));
      return { base: `http://127.0.0.1:${port}/v1`, received };
    },
    startKiosk: async (services, api = {}, memory) => {
      // The flows keepFlow keeps come from FLOWS_ORIGIN: the server runs their actions while it would load flows from there.
      const config = { llm: null, stt: null, tts: null, ...services, flowOrigins: [FLOWS_ORIGIN, ...(services.flowOrigins ?? [])] };
      const server = await startServer({ root, config, host: '127.0.0.1', port: 0, memory: memory ?? (await testMemory()), api: { log: (line) => logs.push(line), flows: { library }, ...api } });
      cleanups.push(() => server.close());
      return server.url;
    },
    keepFlow,
    memory: testMemory,
    toolAsk: (actionId, http, flowId = 'clinic_checkin') => ({ action_id: actionId, flow_id: flowId, ...keepFlow(toolFlow(http, flowId)), state: 'summary', tool: 'check_in', values: {} }),
    onCleanup: (close) => {
      cleanups.push(close);
    },
  };
}
