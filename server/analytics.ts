// `POST /api/analytics`: the page's outcome events (an action proposed, confirmed, done...),
// checked to be small names only, with no room for a visitor's words; counted per flow in the
// kiosk's memory (server/storage/) and forwarded one by one to ANALYTICS_URL when it is set
// (errors only logged).

import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { NAME } from './action-request.ts';
import { isJsonRequest, parseJson, readBody } from './body.ts';
import { sendJson, sendRefusal } from './respond.ts';
import { oneLine } from './storage/database.ts';
import type { OutcomeCounts } from './storage/outcome-counts.ts';

/** The outcomes of an action, as the operator's status view counts them. */
export const OUTCOMES = ['proposed', 'confirmed', 'rejected', 'edited', 'expired', 'replaced', 'failed', 'done'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** One event, as the page sends it and as it is forwarded (plus the time it arrived). */
export interface AnalyticsEvent {
  event: string;
  flow_id: string;
  state?: string;
  tool?: string;
  outcome?: Outcome;
}

/** The largest analytics request read. */
export const ANALYTICS_REQUEST_LIMIT = 2048;

/** The event in `value`, or what is wrong with it: unknown fields, anything but short names. */
export function readAnalyticsEvent(value: unknown): AnalyticsEvent | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'The event must be a JSON object.';
  const r = value as Record<string, unknown>;
  const extra = Object.keys(r).filter((key) => !['event', 'flow_id', 'state', 'tool', 'outcome'].includes(key));
  if (extra.length) return `Unknown field${extra.length > 1 ? 's' : ''}: ${extra.slice(0, 5).join(', ')} (events carry names only, never what a visitor said).`;
  for (const field of ['event', 'flow_id'] as const) {
    if (typeof r[field] !== 'string' || !NAME.test(r[field])) return `${field} must be a name of 1 to 64 letters, digits, "_", "." or "-".`;
  }
  for (const field of ['state', 'tool'] as const) {
    const v = r[field];
    if (v !== undefined && (typeof v !== 'string' || !NAME.test(v))) return `${field}, when given, must be a name of 1 to 64 letters, digits, "_", "." or "-".`;
  }
  const outcome = r['outcome'];
  if (outcome !== undefined && !OUTCOMES.includes(outcome as Outcome)) return `outcome, when given, must be one of ${OUTCOMES.join(', ')}.`;
  const event: AnalyticsEvent = { event: r['event'] as string, flow_id: r['flow_id'] as string };
  if (r['state'] !== undefined) event.state = r['state'] as string;
  if (r['tool'] !== undefined) event.tool = r['tool'] as string;
  if (outcome !== undefined) event.outcome = outcome as Outcome;
  return event;
}

export interface AnalyticsOptions {
  /** how long a forward may take before it is dropped (default 3000 ms) */
  timeoutMs?: number;
  /** forwards in flight at most; events beyond are counted but not forwarded (default 20) */
  maxInFlight?: number;
  log: (line: string) => void;
  /** where outcomes are counted */
  counts: OutcomeCounts;
}

/** Counts events and forwards them; one per server. */
export class Analytics {
  /** events received, forwarded (answered 2xx), and not forwarded (failed or dropped) */
  readonly totals = { received: 0, forwarded: 0, failed: 0 };
  private inFlight = 0;
  private readonly timeoutMs: number;
  private readonly maxInFlight: number;

  constructor(
    /** ANALYTICS_URL, or null to count only */
    readonly url: string | null,
    private readonly options: AnalyticsOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? 3000;
    this.maxInFlight = options.maxInFlight ?? 20;
  }

  /**
   * Counts `event` and, when a URL is set, sends it on without waiting. Resolves once the memory
   * has the count: false when the memory failed (the line says so).
   */
  async record(event: AnalyticsEvent): Promise<boolean> {
    this.totals.received += 1;
    if (this.url) this.forward(event, this.url);
    if (!event.outcome) return true;
    try {
      await this.options.counts.add('reported', event.flow_id, event.outcome);
      return true;
    } catch (error) {
      this.options.log(`[analytics] not counted: the kiosk's memory failed (${oneLine(error)})`);
      return false;
    }
  }

  private forward(event: AnalyticsEvent, url: string): void {
    if (this.inFlight >= this.maxInFlight) {
      this.totals.failed += 1;
      this.options.log(`[analytics] not forwarded: ${this.maxInFlight} events are already on their way`);
      return;
    }
    this.inFlight += 1;
    const body = Buffer.from(JSON.stringify({ ...event, at: new Date().toISOString() }));
    const target = new URL(url);
    let done = false;
    const finish = (problem?: string) => {
      if (done) return;
      done = true;
      this.inFlight -= 1;
      clearTimeout(timer);
      req.destroy();
      if (problem) {
        this.totals.failed += 1;
        this.options.log(`[analytics] not forwarded: ${problem}`);
      } else {
        this.totals.forwarded += 1;
      }
    };
    const req = (target.protocol === 'https:' ? https : http).request(target, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': body.length },
    });
    const timer = setTimeout(() => finish(`no answer within ${this.timeoutMs} ms`), this.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => finish(`the collector could not be reached (${error.code ?? 'network error'})`));
    req.on('response', (answer) => {
      const status = answer.statusCode ?? 0;
      answer.resume();
      finish(status >= 200 && status < 300 ? undefined : `the collector answered ${status}`);
    });
    req.end(body);
  }
}

/** `POST /api/analytics`: one event, checked, counted and (when configured) forwarded; 202 when taken. */
export async function receiveEvent(req: IncomingMessage, res: ServerResponse, analytics: Analytics): Promise<void> {
  if (!isJsonRequest(req)) {
    req.resume();
    return sendRefusal(res, 400, 'invalid_request', 'Send the event as JSON, with content-type: application/json.');
  }
  const body = await readBody(req, ANALYTICS_REQUEST_LIMIT);
  if (body === 'aborted' || res.destroyed) return;
  if (body === 'too-large') return sendRefusal(res, 413, 'request_too_large', `An analytics event may be at most ${ANALYTICS_REQUEST_LIMIT} bytes.`);
  const parsed = parseJson(body);
  const event = parsed.ok ? readAnalyticsEvent(parsed.value) : parsed.message;
  if (typeof event === 'string') return sendRefusal(res, 400, 'invalid_request', event);
  if (!(await analytics.record(event))) {
    return sendRefusal(res, 503, 'memory_unavailable', "The kiosk's server cannot reach its memory just now; the event was not counted.");
  }
  if (!res.destroyed) sendJson(res, 202, { ok: true });
}
