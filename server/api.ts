// The kiosk's /api/ routes: the page's service config, a proxy to exactly three upstream
// endpoints (chat, transcription, speech) that adds the keys (and, apart from these requests,
// the streaming transcription socket of stt-realtime.ts), and the server's own routes:
// actions (a flow's HTTP effects), the flows loaded from addresses, analytics, the operator's
// status and PIN, and the flow studio's (studio-route.ts). Nothing else is forwarded. Nothing at all is done for a request that does not come from the kiosk's own page
// (request-guard.ts); a body has a deadline and uploads have a few places (request-limits.ts);
// a route that fails answers 500 (route-guard.ts) instead of taking the server down.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { createActionsRoute, type ActionsOptions } from './actions.ts';
import { Analytics, receiveEvent } from './analytics.ts';
import { readBody } from './body.ts';
import { publicConfig, type KioskConfig, type UpstreamService } from './config.ts';
import { forward } from './forward.ts';
import { BUNDLED_FLOWS, FlowLibrary } from './flow-library.ts';
import { FlowFolder } from './flow-folder.ts';
import { createFlowsRoute } from './flows-route.ts';
import { createOperatorRoute, type OperatorOptions } from './operator.ts';
import { prepareChat, prepareSpeech, prepareTranscription, type Prepared } from './proxy-requests.ts';
import { refuseUnread, sendError, sendJson, sendRefusal } from './respond.ts';
import { refuseForeign } from './request-guard.ts';
import { BODY_TIMEOUT_MS, enforceBodyDeadline, MAX_UPLOADS, Slots } from './request-limits.ts';
import { guardRoute } from './route-guard.ts';
import { sendStatus } from './status.ts';
import { createStudioRoute } from './studio-route.ts';
import type { SttRealtimeOptions } from './stt-realtime.ts';
import type { Memory } from './storage/memory.ts';

/** A connect-style handler: Vite's dev server and the kiosk's own server both mount it. */
export type ApiHandler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

export interface ApiOptions {
  /** how long to wait for an upstream's response headers before answering 504 (default 30 000 ms) */
  headersTimeoutMs?: number;
  /** how long a proxied exchange may go with nothing moving either way before it is closed (default 30 000 ms) */
  streamIdleMs?: number;
  /** how long a request body may take to arrive before a 408 (default 15 000 ms) */
  bodyTimeoutMs?: number;
  /** uploads to /api/stt at once; more get 429 (default 4) */
  maxUploads?: number;
  /** the limits of the streaming speech recognition socket, /api/stt/realtime (its idle time is `streamIdleMs`) */
  sttRealtime?: SttRealtimeOptions;
  /** where the one line per proxied request (and per action) goes (default: stderr) */
  log?: (line: string) => void;
  /** time-outs and limits of `/api/actions` (tests make them short) */
  actions?: ActionsOptions;
  /** how long a forward to ANALYTICS_URL may take (default 3000 ms) */
  analyticsTimeoutMs?: number;
  /** the operator PIN's lock: tries and durations (tests make them short) */
  operator?: OperatorOptions;
  /** the flows whose actions may run (default: `flows/` bundled, copies kept in `dataDir/flows`), and the page's own files */
  flows?: { library?: FlowLibrary; root?: string };
}

/**
 * What the API handler reads of the configuration; actions, analytics, the operator panel and other
 * host names are off when left out. `flowFolder`: the kiosks' flow folder the studio saves into
 * (FLOW_FOLDER, flow-folder.ts); absent, there is none.
 */
export type ApiConfig = Pick<KioskConfig, 'llm' | 'stt' | 'tts'> &
  Partial<Pick<KioskConfig, 'actions' | 'analyticsUrl' | 'operatorPin' | 'allowedHosts' | 'flowOrigins' | 'dataDir'>> & { flowFolder?: string | null };

/** The largest request body each service takes; larger ones get 413 and never leave the kiosk. */
export const BODY_LIMITS = { llm: 1024 * 1024, stt: 8 * 1024 * 1024, tts: 64 * 1024 } as const;

type ServiceName = keyof typeof BODY_LIMITS;

interface ProxyRoute {
  service: ServiceName;
  /** appended to the service's base URL */
  upstreamPath: string;
  /** the only request content type taken (checked before the body is read) */
  accepts: 'application/json' | 'multipart/form-data';
  /** what to send upstream in place of the page's body, or why it is refused (400) */
  prepare: (body: Buffer, contentType: string, config: ApiConfig) => Prepared | Promise<Prepared>;
}

const LABELS: Record<ServiceName, string> = { llm: 'language model', stt: 'speech-to-text', tts: 'text-to-speech' };

/** Every path the proxy forwards, matched exactly (no decoding, no prefixes). */
const ROUTES = new Map<string, ProxyRoute>([
  ['/api/llm/chat/completions', { service: 'llm', upstreamPath: '/chat/completions', accepts: 'application/json', prepare: (body, _type, config) => prepareChat(body, config.llm!) }],
  ['/api/stt/audio/transcriptions', { service: 'stt', upstreamPath: '/audio/transcriptions', accepts: 'multipart/form-data', prepare: (body, type, config) => prepareTranscription(body, type, config.stt!) }],
  ['/api/tts/audio/speech', { service: 'tts', upstreamPath: '/audio/speech', accepts: 'application/json', prepare: (body, _type, config) => prepareSpeech(body, config.tts!) }],
]);

/** What the proxy routes of one handler share. */
interface Proxy {
  config: ApiConfig;
  headersTimeoutMs: number;
  idleMs: number;
  uploads: Slots;
  log: (line: string) => void;
}

/**
 * The handler for everything under `/api/`; other paths go to `next`. What must outlive a restart
 * (action ids, the PIN lock, the outcome counts) is kept in `memory` (server/storage/).
 */
export function createApiHandler(config: ApiConfig, memory: Memory, options: ApiOptions = {}): ApiHandler {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const bodyTimeoutMs = options.bodyTimeoutMs ?? BODY_TIMEOUT_MS;
  const proxy: Proxy = {
    config,
    headersTimeoutMs: options.headersTimeoutMs ?? 30_000,
    idleMs: options.streamIdleMs ?? 30_000,
    uploads: new Slots(options.maxUploads ?? MAX_UPLOADS),
    log,
  };
  const services = publicConfig(config);
  const library = options.flows?.library ?? new FlowLibrary(BUNDLED_FLOWS, config.dataDir ? join(config.dataDir, 'flows') : null);
  const actions = createActionsRoute(config.actions ?? { allowedOrigins: [], secrets: {} }, library, options.actions ?? {}, log, memory, config.flowOrigins ?? []);
  const folder = config.flowFolder ? new FlowFolder(config.flowFolder) : null;
  const flows = createFlowsRoute({ library, origins: config.flowOrigins ?? [], folder, ...(options.flows?.root ? { root: options.flows.root } : {}) });
  const analytics = new Analytics(config.analyticsUrl ?? null, { log, counts: memory.counts, ...(options.analyticsTimeoutMs ? { timeoutMs: options.analyticsTimeoutMs } : {}) });
  const operator = createOperatorRoute(config.operatorPin, options.operator ?? {}, log, memory.operatorLock);
  const studio = createStudioRoute({ folder, gate: operator.gate, log });
  const startedAt = new Date().toISOString();

  const route = (req: IncomingMessage, res: ServerResponse, path: string): void | Promise<void> => {
    if (path === '/api/config') {
      if (req.method !== 'GET') return sendError(res, 405, 'method_not_allowed', 'Use GET here.', { allow: 'GET' });
      return sendJson(res, 200, services);
    }
    if (path === '/api/actions' || path.startsWith('/api/actions/')) return actions.handle(req, res, path);
    if (path === '/api/flows') return flows(req, res);
    if (path === '/api/operator' || path.startsWith('/api/operator/')) return operator.handle(req, res, path);
    if (path === '/api/studio' || path.startsWith('/api/studio/')) return studio(req, res, path);
    if (path === '/api/analytics') {
      if (req.method !== 'POST') return sendRefusal(res, 405, 'method_not_allowed', 'Use POST here.', { allow: 'POST' });
      return receiveEvent(req, res, analytics);
    }
    if (path === '/api/status') {
      if (req.method !== 'GET') return sendRefusal(res, 405, 'method_not_allowed', 'Use GET here.', { allow: 'GET' });
      return sendStatus(res, { config, memory, analytics, startedAt, log });
    }
    const proxied = ROUTES.get(path);
    if (!proxied) return sendError(res, 404, 'not_found', 'There is no such API route on this kiosk.');
    return proxyRoute(proxy, req, res, path, proxied);
  };

  return (req, res, next) => {
    const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
    if (path !== '/api' && !path.startsWith('/api/')) return next();
    enforceBodyDeadline(req, res, bodyTimeoutMs);
    const refusal = refuseForeign(req, config.allowedHosts ?? []);
    if (refusal) return refuseUnread(res, 403, refusal.type, refusal.message);
    guardRoute(req, res, path, log, () => route(req, res, path));
  };
}

/** One of the three proxied routes: checked, logged, its body read and reshaped, then forwarded. */
function proxyRoute(proxy: Proxy, req: IncomingMessage, res: ServerResponse, path: string, route: ProxyRoute): void | Promise<void> {
  const started = Date.now();
  res.on('close', () => {
    const gone = res.writableFinished ? '' : ' (closed before the end)';
    proxy.log(`[api] ${req.method ?? '?'} ${path} ${res.statusCode} ${Date.now() - started}ms${gone}`);
  });
  if (req.method !== 'POST') return sendError(res, 405, 'method_not_allowed', 'Use POST here.', { allow: 'POST' });
  const service = proxy.config[route.service];
  if (!service) {
    const name = route.service.toUpperCase();
    return sendError(res, 503, 'not_configured', `The ${LABELS[route.service]} service is not configured on this kiosk's server (set ${name}_BASE_URL).`);
  }
  const type = req.headers['content-type'] ?? '';
  if (type.split(';', 1)[0]!.trim().toLowerCase() !== route.accepts) {
    return refuseUnread(res, 415, 'unsupported_media_type', `The ${LABELS[route.service]} route takes ${route.accepts} only.`);
  }
  if (route.service === 'stt' && !proxy.uploads.take(res)) {
    return refuseUnread(res, 429, 'busy', `${proxy.uploads.size} recordings are already being transcribed; try again in a moment.`, { 'retry-after': '1' });
  }
  return send(proxy, req, res, route, service, type);
}

async function send(proxy: Proxy, req: IncomingMessage, res: ServerResponse, route: ProxyRoute, service: UpstreamService, type: string): Promise<void> {
  const limit = BODY_LIMITS[route.service];
  const read = await readBody(req, limit);
  if (res.destroyed || read === 'aborted') return;
  if (read === 'too-large') {
    return sendError(res, 413, 'request_too_large', `The ${LABELS[route.service]} request is larger than ${size(limit)}.`);
  }
  const prepared = await route.prepare(read, type, proxy.config);
  if (res.destroyed) return;
  if (!prepared.ok) return sendError(res, 400, 'invalid_request', prepared.message);
  forward(res, {
    url: new URL(service.baseUrl + route.upstreamPath),
    body: prepared.body,
    contentType: prepared.contentType,
    accept: req.headers.accept,
    apiKey: service.apiKey,
    label: LABELS[route.service],
    headersTimeoutMs: proxy.headersTimeoutMs,
    idleMs: proxy.idleMs,
  });
}

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`;
}
