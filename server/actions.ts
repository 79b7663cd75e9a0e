// `POST /api/actions` and `GET /api/actions/<id>`: the server performs a flow's HTTP effect for the
// page (which hands it the engine's `action_run`), at most once per action id, only towards the
// origins the operator allowed, with the secrets put in here and scrubbed from what goes back.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { performCall } from './action-call.ts';
import { ACTION_ID, readActionRequest, type ActionRequest } from './action-request.ts';
import type { ActionAnswer, ActionView, Claim } from './action-store.ts';
import { prepareCall } from './action-target.ts';
import { isJsonRequest, parseJson, readBody } from './body.ts';
import type { ActionsConfig } from './config.ts';
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
  /** answers a request whose path is `/api/actions` or starts with `/api/actions/` */
  handle(req: IncomingMessage, res: ServerResponse, path: string): void;
}

/**
 * The routes for `config`, keeping action ids and counts in `memory`; `log` gets one line per
 * action and never a value or a secret.
 */
export function createActionsRoute(config: ActionsConfig, options: ActionsOptions, log: (line: string) => void, memory: Memory): ActionsRoute {
  const scrubber = new Scrubber(config.secrets);
  const actions: Actions = {
    config,
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
        void post(actions, req, res);
        return;
      }
      const rest = path.slice('/api/actions/'.length);
      if (req.method !== 'GET') return sendRefusal(res, 405, 'method_not_allowed', 'Use GET here.', { allow: 'GET' });
      void get(actions, res, rest);
    },
  };
}

/** What the routes of one server share: its configuration, the id memory, the scrubber, the counts, the limits and the log. */
interface Actions {
  config: ActionsConfig;
  store: ActionMemory;
  scrubber: Scrubber;
  /** counts an action this server ran (or refused) for a flow */
  performed: (flowId: string, outcome: (typeof PERFORMED)[number]) => Promise<void>;
  limits: { defaultTimeoutMs: number; maxTimeoutMs: number; maxAnswerBytes: number };
  /** logs a line, scrubbed */
  say: (line: string) => void;
}

/** `POST /api/actions`: runs an action the first time its id is seen, answers a repeat with how the first ended. */
async function post(actions: Actions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { store, performed, say } = actions;
  const request = await readRequest(req, res, say);
  if (!request) return;

  const started = Date.now();
  const where = `${request.flowId} ${request.tool} ${request.method}`;
  let claim: Claim;
  try {
    claim = await store.claim(request.actionId, request.fingerprint, { flowId: request.flowId, tool: request.tool, leaseMs: timeoutOf(actions, request) + LEASE_MARGIN_MS });
  } catch (error) {
    say(`[actions] ${where} id=${request.actionId}: the kiosk's memory failed (${oneLine(error)}), nothing was run (503)`);
    return sendRefusal(res, 503, 'memory_unavailable', "The kiosk's server cannot reach its memory just now; nothing was run. Try again later.", { action_id: request.actionId });
  }
  if (claim.kind === 'conflict') {
    say(`[actions] ${where} id=${request.actionId}: the id was used before for another action (409)`);
    return sendRefusal(res, 409, 'action_id_reused', `The action id ${request.actionId} was already used for a different action; nothing was run. Every action needs an id of its own.`, {
      action_id: request.actionId,
    });
  }
  if (claim.kind === 'repeat') {
    let answer: ActionAnswer;
    try {
      answer = await claim.answer;
    } catch (error) {
      say(`[actions] ${where} repeat of id=${request.actionId}: the kiosk's memory failed (${oneLine(error)}) (503)`);
      return sendRefusal(res, 503, 'memory_unavailable', "The kiosk's server cannot reach its memory just now to tell how this action ended; it was not run again.", { action_id: request.actionId });
    }
    say(`[actions] ${where} repeat of id=${request.actionId}, not sent again: ${describe(answer)} ${Date.now() - started}ms`);
    if (!res.destroyed) sendJson(res, 200, answer);
    return;
  }

  let result: { answer: ActionAnswer; origin: string };
  try {
    result = await run(actions, request);
  } catch {
    // Unreachable in practice; a claimed id must still end, and it ends failed.
    result = { answer: { action_id: request.actionId, ok: false, error: 'network', message: "The kiosk's server failed while running this action." }, origin: '-' };
  }
  // The page gets its answer even when the memory fails to keep it (the line says so).
  await Promise.all([claim.settle(result.answer), performed(request.flowId, result.answer.ok ? 'done' : 'failed')]).catch((error: unknown) =>
    say(`[actions] ${where} id=${request.actionId}: the kiosk's memory failed to keep how it ended (${oneLine(error)})`),
  );
  say(`[actions] ${where} ${result.origin} ${describe(result.answer)} ${Date.now() - started}ms id=${request.actionId}`);
  // The action ran even if the page has gone: a reload asks GET /api/actions/<id> how it ended.
  if (!res.destroyed) sendJson(res, 200, result.answer);
}

/** The action a POST asks for; nothing when the page has gone or the request is refused (answered here). */
async function readRequest(req: IncomingMessage, res: ServerResponse, say: (line: string) => void): Promise<ActionRequest | void> {
  if (!isJsonRequest(req)) {
    req.resume();
    return sendRefusal(res, 400, 'invalid_request', 'Send the action as JSON, with content-type: application/json.');
  }
  const body = await readBody(req, ACTION_REQUEST_LIMIT);
  if (body === 'aborted' || res.destroyed) return;
  if (body === 'too-large') return sendRefusal(res, 413, 'request_too_large', `An action request may be at most ${ACTION_REQUEST_LIMIT / 1024} KB.`);
  const parsed = parseJson(body);
  if (!parsed) return sendRefusal(res, 400, 'invalid_request', 'The request body is not valid JSON.');
  const request = readActionRequest(parsed.value);
  if (typeof request === 'string') {
    const id = (parsed.value as Record<string, unknown> | null)?.['action_id'];
    say(`[actions] refused a malformed request (400)`);
    return sendRefusal(res, 400, 'invalid_request', request, typeof id === 'string' && ACTION_ID.test(id) ? { action_id: id } : {});
  }
  return request;
}

/** Performs `request` (its id is new) and returns the page's answer; never rejects. */
async function run({ config, limits, scrubber }: Actions, request: ActionRequest): Promise<{ answer: ActionAnswer; origin: string }> {
  const prepared = prepareCall(request, config);
  if (!prepared.ok) {
    const answer: ActionAnswer = { action_id: request.actionId, ok: false, error: prepared.error, message: scrubber.message(prepared.message) };
    return { answer, origin: prepared.origin ?? '-' };
  }
  const outcome = await performCall(request.method, prepared, { timeoutMs: timeoutOf({ limits }, request), maxAnswerBytes: limits.maxAnswerBytes, scrubber });
  const answer: ActionAnswer = outcome.ok
    ? { action_id: request.actionId, ok: true, status: outcome.status, data: scrubber.deep(outcome.data) }
    : { action_id: request.actionId, ok: false, error: outcome.error, ...(outcome.status !== undefined ? { status: outcome.status } : {}), message: scrubber.message(outcome.message) };
  return { answer, origin: prepared.origin };
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
