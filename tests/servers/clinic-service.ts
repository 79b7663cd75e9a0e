// A small stand-in for a clinic's front-desk system, for the clinic example and the tests:
// `GET /appointments?name=…&dob=…` finds a known patient's appointment today, `POST /check-ins`
// records a check-in once per Idempotency-Key. Staged failures like the OpenAI doubles. Also a
// CLI: `npx tsx tests/servers/clinic-service.ts [port]` serves it until stopped.

import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { ClientWatch, CountWaiter, FailureSwitch, performOutage, readBody, sendJson } from './fake-http.ts';

/** A failure the service can stage: an error status, no answer, a dropped connection, a broken body. */
export type ClinicFailure = 'http_500' | 'hang' | 'refuse' | 'invalid_json';

/** A booked appointment today. */
export interface Appointment {
  appointment_id: string;
  name: string;
  dob: string;
  doctor: string;
  time: string;
}

/** The patients the service knows (two of them share a name: the date of birth tells them apart). */
export const APPOINTMENTS: readonly Appointment[] = [
  { appointment_id: 'apt-1001', name: 'Maria Garcia', dob: '1984-03-05', doctor: 'Dr. Lindqvist', time: '10:30' },
  { appointment_id: 'apt-1002', name: 'Maria Garcia', dob: '1980-07-04', doctor: 'Dr. Moreau', time: '14:00' },
  { appointment_id: 'apt-1003', name: 'Li Wei', dob: '1992-11-03', doctor: 'Dr. Okafor', time: '11:15' },
];

/** One look-up as the service received it. */
export interface Lookup {
  name: string;
  dob: string;
  found: boolean;
}

/** One recorded check-in. */
export interface CheckIn {
  check_in_id: string;
  queue_number: number;
  name: string;
  dob: string;
  reason: string;
  appointment_id?: string;
  /** the Idempotency-Key it came with, if any */
  idempotency_key?: string;
}

/** Every request that reached the service, whatever happened to it. */
export interface ClinicRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ClinicService {
  /** `http://127.0.0.1:PORT`, the origin to allow and to put in the flow's urls */
  url: string;
  port: number;
  /** check-ins recorded, in order (a repeated Idempotency-Key adds none) */
  checkIns: CheckIn[];
  /** appointment look-ups answered, in order */
  lookups: Lookup[];
  requests: ClinicRequest[];
  /** the next `count` requests (default: all) fail in `mode`; `fail('ok')` ends it */
  fail(mode: ClinicFailure | 'ok', count?: number): void;
  /** wait this long before answering each request */
  delayMs: number;
  /** resolves once `n` check-ins are recorded */
  whenCheckedIn(n?: number): Promise<void>;
  close(): Promise<void>;
}

export interface ClinicServiceOptions {
  /** 0 (the default) takes a free port */
  port?: number;
  /** when set, every request must carry `Authorization: Bearer <token>` (else 401) */
  token?: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Starts the service on 127.0.0.1. */
export async function startClinicService(options: ClinicServiceOptions = {}): Promise<ClinicService> {
  const checkIns: CheckIn[] = [];
  const lookups: Lookup[] = [];
  const requests: ClinicRequest[] = [];
  const failures = new FailureSwitch<ClinicFailure>();
  const checkInWaiter = new CountWaiter(() => checkIns.length);
  /** Idempotency-Key -> the check-in it made and the body that asked for it */
  const byKey = new Map<string, { checkIn: CheckIn; body: string }>();
  const service = { delayMs: 0 };

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const watch = new ClientWatch(res, () => {});
    const body = (await readBody(req)).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://clinic.invalid');
    requests.push({ method: req.method ?? '', path: url.pathname + url.search, headers: req.headers, body });
    if (service.delayMs > 0 && !(await watch.pause(service.delayMs))) return;

    const failure = failures.take();
    if (failure === 'invalid_json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end('{"check_in_id": "chk-');
    }
    if (failure && performOutage(failure, res, watch)) return;

    if (options.token !== undefined && req.headers.authorization !== `Bearer ${options.token}`) {
      return problem(res, 401, 'unauthorized', 'A valid bearer token is required.');
    }
    if (url.pathname === '/appointments') {
      if (req.method !== 'GET') return problem(res, 405, 'method_not_allowed', 'Use GET for /appointments.');
      return findAppointment(res, url.searchParams, lookups);
    }
    if (url.pathname === '/check-ins') {
      if (req.method !== 'POST') return problem(res, 405, 'method_not_allowed', 'Use POST for /check-ins.');
      const key = headerText(req.headers['idempotency-key']);
      return checkIn(res, body, key, { checkIns, byKey, notify: () => checkInWaiter.notify() });
    }
    problem(res, 404, 'not_found', `There is no ${req.method} ${url.pathname} here.`);
  };

  const server = createServer((req, res) => {
    route(req, res).catch(() => {
      if (!res.headersSent) problem(res, 500, 'server_error', 'The clinic service failed.');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return Object.assign(service, {
    url: `http://127.0.0.1:${port}`,
    port,
    checkIns,
    lookups,
    requests,
    fail: (mode: ClinicFailure | 'ok', count?: number) => failures.set(mode, count),
    whenCheckedIn: (n = 1) => checkInWaiter.until(n),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  });
}

function findAppointment(res: ServerResponse, query: URLSearchParams, lookups: Lookup[]): void {
  const name = query.get('name')?.trim() ?? '';
  const dob = query.get('dob')?.trim() ?? '';
  if (!name || !DATE.test(dob)) return problem(res, 400, 'invalid_query', 'Give name and dob (YYYY-MM-DD).');
  const found = appointmentOf(name, dob);
  lookups.push({ name, dob, found: found !== undefined });
  if (!found) return problem(res, 404, 'no_appointment', 'No appointment today for that name and date of birth.');
  sendJson(res, 200, { appointment_id: found.appointment_id, doctor: found.doctor, time: found.time });
}

interface CheckInBook {
  checkIns: CheckIn[];
  byKey: Map<string, { checkIn: CheckIn; body: string }>;
  notify: () => void;
}

function checkIn(res: ServerResponse, body: string, key: string | undefined, book: CheckInBook): void {
  if (key !== undefined) {
    const earlier = book.byKey.get(key);
    if (earlier && earlier.body !== body) return problem(res, 409, 'idempotency_key_reused', 'This Idempotency-Key was used for a different check-in.');
    if (earlier) return sendJson(res, 201, answerOf(earlier.checkIn), { 'idempotent-replayed': 'true' });
  }
  let request: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    request = parsed as Record<string, unknown>;
  } catch {
    return problem(res, 400, 'invalid_body', 'Send a JSON object with name, dob and reason.');
  }
  const { name, dob, reason, appointment_id: appointmentId } = request;
  if (typeof name !== 'string' || !name.trim()) return problem(res, 400, 'invalid_body', 'name is required.');
  if (typeof dob !== 'string' || !DATE.test(dob)) return problem(res, 400, 'invalid_body', 'dob is required, as YYYY-MM-DD.');
  if (typeof reason !== 'string' || !reason.trim()) return problem(res, 400, 'invalid_body', 'reason is required.');
  if (appointmentId !== undefined && appointmentId !== null && typeof appointmentId !== 'string') {
    return problem(res, 400, 'invalid_body', 'appointment_id, when given, is a text.');
  }
  const number = book.checkIns.length + 1;
  const record: CheckIn = { check_in_id: `chk-${number}`, queue_number: number, name: name.trim(), dob, reason };
  if (typeof appointmentId === 'string' && appointmentId) record.appointment_id = appointmentId;
  if (key !== undefined) {
    record.idempotency_key = key;
    book.byKey.set(key, { checkIn: record, body });
  }
  book.checkIns.push(record);
  book.notify();
  sendJson(res, 201, answerOf(record));
}

function answerOf(record: CheckIn): { check_in_id: string; queue_number: number } {
  return { check_in_id: record.check_in_id, queue_number: record.queue_number };
}

/** Names match ignoring case and runs of spaces. */
/** Today's appointment of the patient of this name (letter case and spaces aside) and date of birth, if any. */
export function appointmentOf(name: string, dob: string): Appointment | undefined {
  return APPOINTMENTS.find((a) => sameName(a.name, name) && a.dob === dob);
}

function sameName(a: string, b: string): boolean {
  const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();
  return norm(a) === norm(b);
}

function headerText(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && value ? value : undefined;
}

function problem(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, { error: { code, message } });
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const port = Number(process.argv[2] ?? 5055);
  const token = process.env['CLINIC_TOKEN'];
  const clinic = await startClinicService({ port: Number.isInteger(port) ? port : 5055, ...(token ? { token } : {}) });
  console.log(`clinic service at ${clinic.url}: GET /appointments?name=&dob=, POST /check-ins${token ? ' (bearer token required)' : ''}; Ctrl-C stops it`);
  const stop = () => void clinic.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
