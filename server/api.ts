// The kiosk's /api/ routes: the page's service config, a proxy to exactly three upstream
// endpoints (chat, transcription, speech) that adds the keys, and the server's own routes:
// actions (a flow's HTTP effects), analytics, the operator's status and PIN. Nothing else is forwarded.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { createActionsRoute, type ActionsOptions } from './actions.ts';
import { Analytics, receiveEvent } from './analytics.ts';
import { readBody } from './body.ts';
import { publicConfig, type KioskConfig, type UpstreamService } from './config.ts';
import { forward } from './forward.ts';
import { createOperatorRoute, type OperatorOptions } from './operator.ts';
import { sendError, sendJson, sendRefusal } from './respond.ts';
import { sendStatus } from './status.ts';
import type { Memory } from './storage/memory.ts';

/** A connect-style handler: Vite's dev server and the kiosk's own server both mount it. */
export type ApiHandler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

export interface ApiOptions {
  /** how long to wait for an upstream's response headers before answering 504 (default 30 000 ms) */
  headersTimeoutMs?: number;
  /** where the one line per proxied request (and per action) goes (default: stderr) */
  log?: (line: string) => void;
  /** time-outs and limits of `/api/actions` (tests make them short) */
  actions?: ActionsOptions;
  /** how long a forward to ANALYTICS_URL may take (default 3000 ms) */
  analyticsTimeoutMs?: number;
  /** the operator PIN's lock: tries and durations (tests make them short) */
  operator?: OperatorOptions;
}

/** What the API handler reads of the configuration; actions, analytics and the operator panel are off when left out. */
export type ApiConfig = Pick<KioskConfig, 'llm' | 'stt' | 'tts'> & Partial<Pick<KioskConfig, 'actions' | 'analyticsUrl' | 'operatorPin'>>;

/** The largest request body each service takes; larger ones get 413 and never leave the kiosk. */
export const BODY_LIMITS = { llm: 1024 * 1024, stt: 8 * 1024 * 1024, tts: 64 * 1024 } as const;

type ServiceName = keyof typeof BODY_LIMITS;

interface ProxyRoute {
  service: ServiceName;
  /** appended to the service's base URL */
  upstreamPath: string;
  /** the body to send upstream, or an error message for a 400 */
  prepare: (body: Buffer, service: UpstreamService & { voice?: string }) => Buffer | string;
}

const LABELS: Record<ServiceName, string> = { llm: 'language model', stt: 'speech-to-text', tts: 'text-to-speech' };

/** Every path the proxy forwards, matched exactly (no decoding, no prefixes). */
const ROUTES = new Map<string, ProxyRoute>([
  ['/api/llm/chat/completions', { service: 'llm', upstreamPath: '/chat/completions', prepare: forceModel }],
  ['/api/stt/audio/transcriptions', { service: 'stt', upstreamPath: '/audio/transcriptions', prepare: (body) => body }],
  ['/api/tts/audio/speech', { service: 'tts', upstreamPath: '/audio/speech', prepare: fillSpeech }],
]);

/**
 * The handler for everything under `/api/`; other paths go to `next`. What must outlive a restart
 * (action ids, the PIN lock, the outcome counts) is kept in `memory` (server/storage/).
 */
export function createApiHandler(config: ApiConfig, memory: Memory, options: ApiOptions = {}): ApiHandler {
  const headersTimeoutMs = options.headersTimeoutMs ?? 30_000;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const services = publicConfig(config);
  const actions = createActionsRoute(config.actions ?? { allowedOrigins: [], secrets: {} }, options.actions ?? {}, log, memory);
  const analytics = new Analytics(config.analyticsUrl ?? null, { log, counts: memory.counts, ...(options.analyticsTimeoutMs ? { timeoutMs: options.analyticsTimeoutMs } : {}) });
  const operator = createOperatorRoute(config.operatorPin, options.operator ?? {}, log, memory.operatorLock);
  const startedAt = new Date().toISOString();

  return (req, res, next) => {
    const path = (req.url ?? '/').split('?', 1)[0] ?? '/';
    if (path !== '/api' && !path.startsWith('/api/')) return next();

    if (path === '/api/config') {
      if (req.method !== 'GET') return sendError(res, 405, 'method_not_allowed', 'Use GET here.', { allow: 'GET' });
      return sendJson(res, 200, services);
    }
    if (path === '/api/actions' || path.startsWith('/api/actions/')) return actions.handle(req, res, path);
    if (path === '/api/operator' || path.startsWith('/api/operator/')) return operator.handle(req, res, path);
    if (path === '/api/analytics') {
      if (req.method !== 'POST') return sendRefusal(res, 405, 'method_not_allowed', 'Use POST here.', { allow: 'POST' });
      void receiveEvent(req, res, analytics);
      return;
    }
    if (path === '/api/status') {
      if (req.method !== 'GET') return sendRefusal(res, 405, 'method_not_allowed', 'Use GET here.', { allow: 'GET' });
      void sendStatus(res, { config, memory, analytics, startedAt, log });
      return;
    }
    const route = ROUTES.get(path);
    if (!route) return sendError(res, 404, 'not_found', 'There is no such API route on this kiosk.');

    const started = Date.now();
    res.on('close', () => {
      const gone = res.writableFinished ? '' : ' (closed before the end)';
      log(`[api] ${req.method ?? '?'} ${path} ${res.statusCode} ${Date.now() - started}ms${gone}`);
    });
    if (req.method !== 'POST') return sendError(res, 405, 'method_not_allowed', 'Use POST here.', { allow: 'POST' });
    const service = config[route.service];
    if (!service) {
      const name = route.service.toUpperCase();
      return sendError(res, 503, 'not_configured', `The ${LABELS[route.service]} service is not configured on this kiosk's server (set ${name}_BASE_URL).`);
    }
    void proxy(req, res, route, service, headersTimeoutMs);
  };
}

async function proxy(req: IncomingMessage, res: ServerResponse, route: ProxyRoute, service: UpstreamService, headersTimeoutMs: number): Promise<void> {
  const limit = BODY_LIMITS[route.service];
  const read = await readBody(req, limit);
  if (res.destroyed || read === 'aborted') return;
  if (read === 'too-large') {
    return sendError(res, 413, 'request_too_large', `The ${LABELS[route.service]} request is larger than ${size(limit)}.`);
  }
  const body = route.prepare(read, service);
  if (typeof body === 'string') return sendError(res, 400, 'invalid_request', body);
  forward(res, {
    url: new URL(service.baseUrl + route.upstreamPath),
    body,
    contentType: route.service === 'stt' ? req.headers['content-type'] : 'application/json',
    accept: req.headers.accept,
    apiKey: service.apiKey,
    label: LABELS[route.service],
    headersTimeoutMs,
  });
}

/** The chat request with `model` set to the configured one: the page cannot pick another. */
function forceModel(body: Buffer, service: UpstreamService): Buffer | string {
  const request = jsonObject(body);
  if (!request) return 'The chat request must be a JSON object.';
  request['model'] = service.model;
  return Buffer.from(JSON.stringify(request));
}

/** The speech request with the configured model and voice where the page gave none. */
function fillSpeech(body: Buffer, service: UpstreamService & { voice?: string }): Buffer | string {
  const request = jsonObject(body);
  if (!request) return 'The speech request must be a JSON object.';
  if (typeof request['model'] !== 'string' || !request['model']) request['model'] = service.model;
  if ((typeof request['voice'] !== 'string' || !request['voice']) && service.voice) request['voice'] = service.voice;
  return Buffer.from(JSON.stringify(request));
}

function jsonObject(body: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function size(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`;
}
