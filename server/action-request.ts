// What the page may ask of `POST /api/actions`: which flow (as the kiosk loaded it), state and
// tool, the values its effect uses, and the action's id, checked field by field; anything
// malformed is the page's mistake (a 400). The request itself (method, url, body, headers) is
// built here from the server's own copy of the flow, by the engine's own http-call.ts.

import { createHash } from 'node:crypto';
import { buildCatalog, type Catalog } from '../src/engine/language/catalog.ts';
import { dayOf } from '../src/engine/language/dates.ts';
import { resolveTool, type Flow } from '../src/engine/language/flow.ts';
import { own } from '../src/engine/language/records.ts';
import { checkEffectValues } from '../src/engine/runtime/effect-values.ts';
import { httpCall } from '../src/engine/runtime/http-call.ts';
import { OWN_FILES, placeOf } from './flow-address.ts';
import type { FlowLibrary, FlowName } from './flow-library.ts';

/** The methods an action may use. */
export const ACTION_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type ActionMethod = (typeof ACTION_METHODS)[number];

/** An action id: also the `Idempotency-Key` the target gets, so one per action, never reused. */
export const ACTION_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
/** A flow id, tool or state name as analytics and logs may carry it. */
export const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;

/** Header names the server sets itself: a flow's spelling of them is dropped. */
export const SERVER_HEADERS = new Set(['accept', 'content-type', 'idempotency-key']);
/** Header names that shape the connection or the message: a flow may not set them. */
const FORBIDDEN_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'proxy-connection',
]);
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/;
/** What Node will send in a header value: tab, visible ASCII and Latin-1, no line breaks. */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]{0,4096}$/;
const MAX_HEADERS = 32;
const MAX_URL = 8192;

const FIELDS = new Set(['type', 'action_id', 'flow_id', 'flow_source', 'flow_version', 'state', 'tool', 'values']);
/** A variable's name, as a flow's templates write it. */
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const MAX_VALUES = 64;
/** A version as /api/flows names it. */
const VERSION = /^[0-9a-f]{32}$/;

/** What the page asks for: which flow, state and tool, and the values the tool's effect uses. */
export interface ActionAsk {
  actionId: string;
  flow: FlowName;
  flowId: string;
  state: string;
  tool: string;
  values: Record<string, unknown>;
}

/** A well-formed request for one action, built from the server's own copy of its flow, before secrets are put in. */
export interface ActionRequest {
  actionId: string;
  flowId: string;
  tool: string;
  method: ActionMethod;
  /** as the flow's effect makes it; may hold `{secret:NAME}` */
  url: string;
  /** the JSON body; absent means no body */
  body?: unknown;
  /** the flow's headers, names in lower case, without those the server sets itself */
  headers: Record<string, string>;
  /** the tool's `timeout_seconds` in ms, when it gives one (not yet capped) */
  timeoutMs?: number;
  /** a digest of everything that decides what is sent: tells a repeat from a reused id */
  fingerprint: string;
}

/** Why an action the page asked for is not built: the server does not know it (or no longer loads flows from where it came), or its values are refused. */
export interface RefusedAsk {
  error: 'unknown_flow' | 'flow_origin_not_allowed' | 'invalid_flow' | 'refused_values';
  message: string;
}

/** Where the server loads flows from, for the request at hand: its own host (the request's Host) and FLOW_ALLOWED_ORIGINS. */
export interface FlowsFrom {
  host: string | undefined;
  origins: readonly string[];
}

/** A value the page sent that the flow's own rules refuse: the page's mistake (a 400), naming the value. */
export interface RefusedValue {
  error: 'invalid_value';
  /** the parameter or variable whose value is refused */
  param: string;
  message: string;
}

/** The ask in `value` (the parsed JSON body), or a message saying what is wrong with it. */
export function readActionAsk(value: unknown): ActionAsk | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'The request must be a JSON object.';
  const r = value as Record<string, unknown>;
  const extra = Object.keys(r).filter((key) => !FIELDS.has(key));
  if (extra.length) return `Unknown field${extra.length > 1 ? 's' : ''}: ${extra.slice(0, 5).join(', ')}.`;
  if (r['type'] !== undefined && r['type'] !== 'action_run') return 'type, when given, must be "action_run".';
  if (typeof r['action_id'] !== 'string' || !ACTION_ID.test(r['action_id'])) {
    return 'action_id must be 1 to 128 letters, digits, "_", ".", ":" or "-", starting with a letter or digit.';
  }
  for (const field of ['flow_id', 'tool', 'state'] as const) {
    const v = r[field];
    if (typeof v !== 'string' || !NAME.test(v)) return `${field} must be a name of 1 to 64 letters, digits, "_", "." or "-".`;
  }
  const source = r['flow_source'];
  if (typeof source !== 'string' || !source || source.length > 2048) return 'flow_source must be the flow as the kiosk loaded it: flows/<name>.yaml or its address.';
  const version = r['flow_version'];
  if (version !== undefined && (typeof version !== 'string' || !VERSION.test(version))) return 'flow_version, when given, must be the version /api/flows gave.';
  const values = readValues(r['values']);
  if (typeof values === 'string') return values;
  return {
    actionId: r['action_id'],
    flow: version === undefined ? { source } : { source, version: version as string },
    flowId: r['flow_id'] as string,
    state: r['state'] as string,
    tool: r['tool'] as string,
    values,
  };
}

function readValues(value: unknown): Record<string, unknown> | string {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) return 'values must be an object of variable names and their values.';
  const entries = Object.entries(value);
  if (entries.length > MAX_VALUES) return `values may hold at most ${MAX_VALUES} values.`;
  const bad = entries.find(([name]) => !VARIABLE.test(name));
  if (bad) return `values: "${bad[0].slice(0, 64)}" is not a variable's name.`;
  return Object.fromEntries(entries);
}

/**
 * The request the flow's own effect makes for `ask`, from the server's copy of the flow: the page
 * names the flow, state and tool and gives values; method, url, body and headers are the flow's.
 */
export function buildActionRequest(ask: ActionAsk, library: FlowLibrary, where: FlowsFrom): ActionRequest | RefusedAsk | RefusedValue {
  const named = `${ask.flow.source}${ask.flow.version ? ` (version ${ask.flow.version.slice(0, 8)})` : ''}`;
  // A flow kept from an address runs only while the server would still load it from there.
  const place = library.isBundled(ask.flow.source) ? null : placeOf(ask.flow.source, where.host, where.origins);
  if (place && 'refused' in place) {
    if (place.error === 'invalid_request') return { error: 'unknown_flow', message: `${place.refused} Nothing was sent.` };
    return {
      error: 'flow_origin_not_allowed',
      message: `The flow ${named} comes from ${place.origin}, which is not among the origins this kiosk's server loads flows from (FLOW_ALLOWED_ORIGINS): its actions do not run. Nothing was sent.`,
    };
  }
  const flow = library.find(ask.flow, place ? ('own' in place ? OWN_FILES : place.remote.origin) : undefined);
  if (!flow || flow.id !== ask.flowId) {
    return { error: 'unknown_flow', message: `This kiosk's server does not know the flow ${named}: it runs actions only of the flows it bundles or loaded itself. Nothing was sent.` };
  }
  const state = own(flow.states, ask.state);
  const tool = state ? resolveTool(flow, state, ask.tool) : undefined;
  if (!tool?.http) return { error: 'unknown_flow', message: `The flow ${flow.id} has no tool ${ask.tool} with an HTTP effect in the state ${ask.state}. Nothing was sent.` };
  // Every value is held to the flow's own rules, as the page's engine held it, before it is used.
  const checked = checkEffectValues(flow, catalogOf(flow), tool, ask.values, dayOf(Date.now()));
  if (!checked.ok) return { error: 'invalid_value', param: checked.name, message: `The value of "${checked.name}" ${checked.problem}; nothing was sent.` };
  const call = httpCall(tool.http, ask.values);
  if ('refused' in call) return { error: 'refused_values', message: `Not sent: ${call.refused}.` };
  const method = call.method.toUpperCase();
  if (!ACTION_METHODS.includes(method as ActionMethod)) return { error: 'invalid_flow', message: `The flow's method ${call.method} is not one of ${ACTION_METHODS.join(', ')}.` };
  if (call.url.length > MAX_URL) return { error: 'refused_values', message: `The url would be longer than ${MAX_URL} characters. Nothing was sent.` };
  const headers = readHeaders(call.headers);
  if (typeof headers === 'string') return { error: 'invalid_flow', message: `The flow's ${headers} Nothing was sent.` };
  const request: ActionRequest = { actionId: ask.actionId, flowId: flow.id, tool: tool.name, method: method as ActionMethod, url: call.url, headers, fingerprint: '' };
  if (call.body !== undefined && call.body !== null) request.body = call.body;
  if (call.timeout_seconds !== undefined) request.timeoutMs = Math.ceil(call.timeout_seconds * 1000);
  request.fingerprint = fingerprint(request);
  return request;
}

const catalogs = new WeakMap<Flow, Catalog>();

/** The flow's catalog (its variables' types and field rules), worked out once per flow. */
function catalogOf(flow: Flow): Catalog {
  let cat = catalogs.get(flow);
  if (!cat) catalogs.set(flow, (cat = buildCatalog(flow)));
  return cat;
}

function readHeaders(value: unknown): Record<string, string> | string {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) return 'headers must be an object of header names and texts.';
  const entries = Object.entries(value);
  if (entries.length > MAX_HEADERS) return `headers may hold at most ${MAX_HEADERS} headers.`;
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, v] of entries) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) return `headers: "${name.slice(0, 64)}" is not a header name.`;
    if (typeof v !== 'string' || !HEADER_VALUE.test(v)) return `headers: the value of ${name} must be a text of at most 4096 characters, on one line.`;
    if (FORBIDDEN_HEADERS.has(lower) || lower.startsWith('proxy-')) return `headers: ${name} is set by the connection, not by a flow.`;
    if (seen.has(lower)) return `headers: ${name} is given twice.`;
    seen.add(lower);
    if (!SERVER_HEADERS.has(lower)) headers[lower] = v;
  }
  return headers;
}

function fingerprint(r: ActionRequest): string {
  const headers = Object.entries(r.headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const what = JSON.stringify([r.flowId, r.tool, r.method, r.url, r.body ?? null, headers]);
  return createHash('sha256').update(what).digest('hex');
}
