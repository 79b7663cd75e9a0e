// `POST /api/actions` and `GET /api/actions/<id>`: the server performs a flow's HTTP effect for the
// page (which hands it the engine's `action_run`), at most once per action id, only towards the
// origins the operator allowed, with the secrets put in here and scrubbed from what goes back.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { performCall } from './action-call.ts';
import { ACTION_ID, buildActionRequest, readActionAsk, type ActionRequest } from './action-request.ts';
import type { ActionAnswer, ActionView, Claim } from './action-store.ts';
import { prepareCall, type PreparedCall } from './action-target.ts';
import { isJsonRequest, parseJson, readBody } from './body.ts';
import type { ActionsConfig } from './config.ts';
import type { FlowLibrary } from './flow-library.ts';
import { sendJson, sendRefusal } from './respond.ts';
import { Scrubber } from './secrets.ts';
import type { ActionMemory } from './storage/action-memory.ts';
import { oneLine } from './storage/database.ts';
import type { Memory } from './storage/memory.ts';

/** The largest request the page may send to `POST /api/actions`. */
export const ACTION_REQUEST_LIMIT = 64 * 1024;

export interface ActionsOptions {
  /** an action's time-out when the request gives none (default 10 000 ms) */
  defaultTimeoutMs?: number;
  /** the longest time-out a request may ask for (default 60 000 ms) */
  maxTimeoutMs?: number;
  /** the largest answer read from a target (default 256 KB) */
  maxAnswerBytes?: number;
}

/** What the server performed, per flow, as the status view counts it. */
export const PERFORMED = ['done', 'failed'] as const;

/** How long past its time-out a running action's id stays claimed before a repeat takes its server for stopped. */
export const LEASE_MARGIN_MS = 15_000;

/** The actions routes of one server. */
export interface ActionsRoute {
  /** answers a request whose path is `/api/actions` or starts with `/api/actions/` (the promise, when there is one, is the caller's to watch) */
  handle(req: IncomingMessage, res: ServerResponse, path: string): void | Promise<void>;
}

/**
 * The routes for `config`, building requests from the flows in `library` and keeping action ids
 * and counts in `memory`; `log` gets one line per action and never a value or a secret.
 */
export function createActionsRoute(config: ActionsConfig, library: FlowLibrary, options: ActionsOptions, log: (line: string) => void, memory: Memory, flowOrigins: readonly string[] = []): ActionsRoute {
  const scrubber = new Scrubber(config.secrets);
  const actions: Actions = {
    config,
    library,
    flowOrigins,
    store: memory.actions,
    scrubber,
    performed: (flowId, outcome) => memory.counts.add('performed', flowId, outcome),
    limits: {
      defaultTimeoutMs: options.defaultTimeoutMs ?? 10_000,
      maxTimeoutMs: options.maxTimeoutMs ?? 60_000,
      maxAnswerBytes: options.maxAnswerBytes ?? 256 * 1024,
    },
    say: (line: string) => log(scrubber.text(line)),
  };
  return {
    handle(req, res, path) {
      if (path === '/api/actions') {
        if (req.method !== 'POST') return sendRefusal(res, 405, 'method_not_allowed', 'Use POST here.', { allow: 'POST' });
        return post(actions, req, res);
      }
      const rest = path.slice('/api/actions/'.length);
      if (req.method !== 'GET') return sendRefusal(res, 405, 'method_not_allowed', 'Use GET here.', { allow: 'GET' });
      return get(actions, res, rest);
    },
  };
}

/** What the routes of one server share: its configuration, the flows, the id memory, the scrubber, the counts, the limits and the log. */
interface Actions {
  config: ActionsConfig;
  /** the flows whose actions may run: the request is built from the server's own copy */
  library: FlowLibrary;
  /** FLOW_ALLOWED_ORIGINS: a copy kept from any other origin runs no action */
  flowOrigins: readonly string[];
  store: ActionMemory;
  scrubber: Scrubber;
  /** counts an action this server ran (or refused) for a flow */
  performed: (flowId: string, outcome: (typeof PERFORMED)[number]) => Promise<void>;
  limits: { defaultTimeoutMs: number; maxTimeoutMs: number; maxAnswerBytes: number };
  /** logs a line, scrubbed */
  say: (line: string) => void;
}

/**
 * `POST /api/actions`: builds the request from the server's copy of the flow and runs it the
 * first time its id is seen; answers a repeat with how the first ended. A request refused before
 * sending (an unknown flow, a refused origin or secret) is answered at once and takes no place in
 * the store: nothing was sent, so there is nothing to protect from a repeat.
 */
async function post(actions: Actions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { store, performed, say } = actions;
  const request = await readRequest(actions, req, res);
  if (!request) return;
  const started = Date.now();
  const where = `${request.flowId} ${request.tool}${'method' in request ? ` ${request.method}` : ''}`;
  const prepared = 'method' in request ? prepare(actions, request) : request;
  const memoryFailed = (error: unknown) => say(`[actions] ${where} id=${request.actionId}: the kiosk's memory failed to count it (${oneLine(error)})`);
  if (!('call' in prepared)) {
    const answer: ActionAnswer = { action_id: request.actionId, ok: false, error: prepared.error, message: actions.scrubber.text(prepared.message) };
    await performed(request.flowId, 'failed').catch(memoryFailed);
    // The refusal's own words name the setting to change (ACTION_ORIGIN_CLINIC, a secret's name), never a value.
    say(`[actions] ${where} ${prepared.origin ?? '-'} ${describe(answer)}, not sent ${Date.now() - started}ms id=${request.actionId}: ${answer.message}`);
    return sendJson(res, 200, answer);
  }
  const { call, built } = prepared;
  let claim: Claim;
  try {
    claim = await store.claim(built.actionId, built.fingerprint, { flowId: built.flowId, tool: built.tool, leaseMs: timeoutOf(actions, built) + LEASE_MARGIN_MS });
  } catch (error) {
    say(`[actions] ${where} id=${built.actionId}: the kiosk's memory failed (${oneLine(error)}), nothing was run (503)`);
    return sendRefusal(res, 503, 'memory_unavailable', "The kiosk's server cannot reach its memory just now; nothing was run. Try again later.", { action_id: built.actionId });
  }
  if (claim.kind === 'conflict') {
    say(`[actions] ${where} id=${built.actionId}: the id was used before for another action (409)`);
    return sendRefusal(res, 409, 'action_id_reused', `The action id ${built.actionId} was already used for a different action; nothing was run. Every action needs an id of its own.`, {
      action_id: built.actionId,
    });
  }
  if (claim.kind === 'repeat') {
    let answer: ActionAnswer;
    try {
      answer = await claim.answer;
    } catch (error) {
      say(`[actions] ${where} repeat of id=${built.actionId}: the kiosk's memory failed (${oneLine(error)}) (503)`);
      return sendRefusal(res, 503, 'memory_unavailable', "The kiosk's server cannot reach its memory just now to tell how this action ended; it was not run again.", { action_id: built.actionId });
    }
    say(`[actions] ${where} repeat of id=${built.actionId}, not sent again: ${describe(answer)} ${Date.now() - started}ms`);
    if (!res.destroyed) sendJson(res, 200, answer);
    return;
  }
  let answer: ActionAnswer;
  try {
    answer = await run(actions, built, call);
  } catch {
    // Unreachable in practice; a claimed id must still end, and it ends failed.
    answer = { action_id: built.actionId, ok: false, error: 'network', message: "The kiosk's server failed while running this action." };
  }
  // The page gets its answer even when the memory fails to keep it (the line says so).
  await Promise.all([claim.settle(answer), performed(built.flowId, answer.ok ? 'done' : 'failed')]).catch((error: unknown) =>
    say(`[actions] ${where} id=${built.actionId}: the kiosk's memory failed to keep how it ended (${oneLine(error)})`),
  );
  say(`[actions] ${where} ${call.origin} ${describe(answer)} ${Date.now() - started}ms id=${built.actionId}`);
  // The action ran even if the page has gone: a reload asks GET /api/actions/<id> how it ended.
  if (!res.destroyed) sendJson(res, 200, answer);
}

/** A refusal before anything is sent. */
interface NotSent {
  error: Extract<ActionAnswer, { ok: false }>['error'];
  message: string;
  origin?: string;
}

/** The built request, or why it may not be sent, as the page's answer will say. */
function prepare({ config }: Actions, built: ActionRequest): { call: PreparedCall; built: ActionRequest } | NotSent {
  const call = prepareCall(built, config);
  return call.ok ? { call, built } : call;
}

/**
 * The action a POST asks for, built from the server's flow (or, with the ask's names, why it
 * was not); nothing when the page has gone or the request is malformed (answered here).
 */
async function readRequest({ library, flowOrigins, say }: Actions, req: IncomingMessage, res: ServerResponse): Promise<ActionRequest | (NotSent & { actionId: string; flowId: string; tool: string }) | void> {
  if (!isJsonRequest(req)) {
    req.resume();
    return sendRefusal(res, 400, 'invalid_request', 'Send the action as JSON, with content-type: application/json.');
  }
  const body = await readBody(req, ACTION_REQUEST_LIMIT);
  if (body === 'aborted' || res.destroyed) return;
  if (body === 'too-large') return sendRefusal(res, 413, 'request_too_large', `An action request may be at most ${ACTION_REQUEST_LIMIT / 1024} KB.`);
  const parsed = parseJson(body);
  if (!parsed.ok) return sendRefusal(res, 400, 'invalid_request', parsed.message);
  const ask = readActionAsk(parsed.value);
  if (typeof ask === 'string') {
    const id = (parsed.value as Record<string, unknown> | null)?.['action_id'];
    say(`[actions] refused a malformed request (400)`);
    return sendRefusal(res, 400, 'invalid_request', ask, typeof id === 'string' && ACTION_ID.test(id) ? { action_id: id } : {});
  }
  const built = buildActionRequest(ask, library, { host: req.headers.host, origins: flowOrigins });
  if ('error' in built && built.error === 'invalid_value') {
    say(`[actions] ${ask.flowId} ${ask.tool} id=${ask.actionId}: refused the value of "${built.param}" (400), not sent`);
    return sendRefusal(res, 400, 'invalid_value', built.message, { action_id: ask.actionId, param: built.param });
  }
  return 'error' in built ? { ...built, actionId: ask.actionId, flowId: ask.flowId, tool: ask.tool } : built;
}

/** Performs `request` (its id is new) and returns the page's answer; never rejects. */
async function run({ limits, scrubber }: Actions, request: ActionRequest, call: PreparedCall): Promise<ActionAnswer> {
  const outcome = await performCall(request.method, call, { timeoutMs: timeoutOf({ limits }, request), maxAnswerBytes: limits.maxAnswerBytes, scrubber });
  return outcome.ok
    ? { action_id: request.actionId, ok: true, status: outcome.status, data: scrubber.deep(outcome.data) }
    : { action_id: request.actionId, ok: false, error: outcome.error, ...(outcome.status !== undefined ? { status: outcome.status } : {}), message: scrubber.text(outcome.message) };
}

/** How long `request` may take: its own time-out, or the default, and never more than the longest. */
function timeoutOf({ limits }: Pick<Actions, 'limits'>, request: ActionRequest): number {
  return Math.min(request.timeoutMs ?? limits.defaultTimeoutMs, limits.maxTimeoutMs);
}

/** `GET /api/actions/<id>`: how the action of that id went, from the memory. */
async function get({ store, say }: Actions, res: ServerResponse, rest: string): Promise<void> {
  let id: string;
  try {
    id = decodeURIComponent(rest);
  } catch {
    id = '';
  }
  if (!ACTION_ID.test(id)) return sendRefusal(res, 400, 'invalid_request', 'That is not an action id.');
  let view: ActionView | undefined;
  try {
    view = await store.view(id);
  } catch (error) {
    say(`[actions] GET id=${id}: the kiosk's memory failed (${oneLine(error)}) (503)`);
    return sendRefusal(res, 503, 'memory_unavailable', "The kiosk's server cannot reach its memory just now; ask again later.", { action_id: id });
  }
  if (res.destroyed) return;
  if (!view) {
    return sendRefusal(res, 404, 'unknown', "This kiosk's server has no record of that action (never sent here, or forgotten: ids are kept 24 hours).", { action_id: id });
  }
  sendJson(res, 200, view);
}

/** An answer in a log line: `done 201` or `failed timeout`, never data or a message. */
function describe(answer: ActionAnswer): string {
  if (answer.ok) return `done ${answer.status}`;
  return `failed ${answer.error}${answer.status !== undefined ? ` ${answer.status}` : ''}`;
}
