// What the storage tests do to a kiosk's server over HTTP, in one place: a local action target that
// counts the requests reaching it, an action as the page sends it, the PIN unlock, the status. The
// servers may run in this process (startServer on a memory) or as a child process (main.ts).

import { createServer, type Server } from 'node:http';
import { startServer, type RunningServer } from '../../server/app.ts';
import type { KioskConfig } from '../../server/config.ts';
import type { Memory } from '../../server/storage/memory.ts';
import { closeServer, json, listen } from './server-harness.ts';

/** A local target of actions: its origin, and how many requests reached it. */
export interface CountingTarget {
  origin: string;
  reached(): number;
  close(): Promise<void>;
}

/**
 * Starts a target answering each request with 201 and `answer` (a visitor's details, as a clinic's
 * would), after `delayMs` (an action that takes a while).
 */
export async function startCountingTarget(answer: unknown = { queue_number: 7, patient: 'Maria Garcia' }, delayMs = 0): Promise<CountingTarget> {
  let reached = 0;
  const server: Server = createServer((req, res) => {
    reached += 1;
    req.resume();
    req.on('end', () => setTimeout(() => json(res, 201, answer), delayMs));
  });
  const port = await listen(server);
  return { origin: `http://127.0.0.1:${port}`, reached: () => reached, close: () => closeServer(server) };
}

/** The token the bundled clinic flow sends, as these kiosks are set up. */
export const CLINIC_TOKEN = 'memory-test-clinic-token';

/** Actions of the bundled clinic flow going to `clinic` (its CLINIC origin, the token allowed there), or nowhere. */
function clinicActions(clinic: string | undefined): KioskConfig['actions'] {
  if (!clinic) return { allowedOrigins: [], secrets: { CLINIC_TOKEN } };
  return { allowedOrigins: [], origins: { CLINIC: clinic }, secrets: { CLINIC_TOKEN }, secretOrigins: { CLINIC_TOKEN: [clinic] } };
}

/** The kiosk's server in this process on `memory`, sending the clinic flow's actions to `origins[0]`, with `pin` for the operator panel. */
export function startKioskOn(memory: Memory, root: string, options: { origins?: string[]; pin?: string; log?: (line: string) => void; operatorNow?: () => number } = {}): Promise<RunningServer> {
  const config: Pick<KioskConfig, 'llm' | 'stt' | 'tts' | 'actions'> & { operatorPin?: string } = {
    llm: null,
    stt: null,
    tts: null,
    actions: clinicActions(options.origins?.[0]),
    ...(options.pin ? { operatorPin: options.pin } : {}),
  };
  const operator = options.operatorNow ? { operator: { now: options.operatorNow } } : {};
  return startServer({ root, config, host: '127.0.0.1', port: 0, memory, api: { log: options.log ?? (() => {}), ...operator } });
}

/** What `/api/actions` answered. */
export interface ActionReply {
  status: number;
  body: { action_id?: string; ok?: boolean; status?: number; data?: unknown; error?: string; message?: string; replayed?: boolean };
}

/** Asks the kiosk at `kiosk` for the bundled clinic flow's check-in `id`, as the page would; the kiosk sends it to its CLINIC origin. */
export async function postAction(kiosk: string, id: string): Promise<ActionReply> {
  const request = {
    action_id: id,
    flow_id: 'clinic_checkin',
    flow_source: 'flows/clinic-checkin.yaml',
    state: 'summary',
    tool: 'check_in',
    values: { full_name: 'Maria Garcia', date_of_birth: '1984-03-05', visit_reason: 'walk_in' },
  };
  const response = await fetch(`${kiosk}/api/actions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) });
  return { status: response.status, body: (await response.json()) as ActionReply['body'] };
}

/** Tries `pin` on the operator panel; resolves with the status (200 right, 403 wrong, 429 locked) and the answer. */
export async function tryPin(kiosk: string, pin: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${kiosk}/api/operator/unlock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pin }) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** `GET /api/operator`: whether a PIN is set, and how long the panel stays locked. */
export async function operatorState(kiosk: string): Promise<{ pin_set: boolean; locked_for_seconds: number }> {
  return (await (await fetch(`${kiosk}/api/operator`)).json()) as { pin_set: boolean; locked_for_seconds: number };
}

/** `GET /api/status`, the parts the memory keeps. */
export interface MemoryStatus {
  actions: { counts: Record<string, Record<string, number>>; performed: Record<string, Record<string, number>>; remembered: number };
  started_at: string;
  counts_since: string;
  /** the paired devices, by name */
  devices: { name: string; paired_at: string; last_seen: string }[];
}

export async function memoryStatus(kiosk: string): Promise<MemoryStatus> {
  return (await (await fetch(`${kiosk}/api/status`)).json()) as MemoryStatus;
}

/** Posts one outcome event of `flowId`, as the page reports it. */
export async function reportOutcome(kiosk: string, flowId: string, outcome: string): Promise<number> {
  const response = await fetch(`${kiosk}/api/analytics`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ event: 'action', flow_id: flowId, outcome }) });
  await response.text();
  return response.status;
}
