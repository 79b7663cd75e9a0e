// Reading one `expect` of a conversation test: each expectation it gives, checked against what the
// engine can say (message types and their fields, refusal reasons), with the flow's names it uses.

import { isMap, isPair, isScalar, isSeq, type YAMLMap } from 'yaml';
import { didYouMean } from '../engine/language/diagnostics.ts';
import { ENGINE_MESSAGE_TYPES, REJECT_REASONS, type EngineMessage, type EngineMessageType } from '../engine/runtime/messages.ts';
import { readPattern, type Pattern } from './expect-pattern.ts';
import type { Expectation, FlowRef, MessageExpectation, ReadContext } from './script-types.ts';

const REQUEST_FIELDS = ['tool', 'method', 'url', 'body', 'headers', 'timeout_seconds'];

export const EXPECT_KEYS = [
  'state',
  'ended',
  'variables',
  'pending',
  'tools',
  'emitted',
  'not_emitted',
  'rejected',
  'messages',
  'system_prompt',
  'tool_schema',
  'requests',
  'given',
] as const;

type MessageOf<T extends EngineMessageType> = Extract<EngineMessage, { type: T }>;

/** The fields of every engine message, tied to messages.ts: when a message changes, this stops
 *  type-checking until it follows. */
const MESSAGE_FIELDS: { [T in EngineMessageType]: Record<keyof MessageOf<T>, true> } = {
  flow_state: {
    type: true, flow_id: true, state: true, language: true, epoch: true, artifact: true, agent: true, gate: true, gate_prompt: true,
    values: true, can_go_back: true, terminal: true, turn_taking: true, global_actions: true, global_tools: true,
  },
  flow_variable: { type: true, name: true, value: true, status: true, source: true },
  transition_blocked: { type: true, flow_id: true, from_state: true, attempted_target: true, reason: true, detail: true, variables: true, problems: true },
  tool_rejected: { type: true, tool: true, call_id: true, reason: true, detail: true, field: true },
  tool_result: { type: true, call_id: true, tool: true, ok: true, content: true },
  speech_cue: { type: true, text: true, reason: true },
  llm_turn: { type: true, epoch: true, reason: true },
  action_pending: { type: true, action_id: true, tool: true, summary: true, args: true, expires_at: true, replaces: true },
  action_run: { type: true, action_id: true, tool: true, state: true, values: true, method: true, url: true, body: true, headers: true, timeout_seconds: true },
  action_result: { type: true, action_id: true, tool: true, status: true, detail: true, http_status: true, handled: true },
  system_message: { type: true, text: true },
  analytics: { type: true, event: true, state: true, data: true },
  flow_end: { type: true, flow_id: true, last_state: true, mode: true, variables: true, reason: true },
  engine_error: { type: true, state: true, message: true },
};

/** The fields a message of `type` may have (for checking a script's `messages`). */
export function messageFields(type: EngineMessageType): string[] {
  return Object.keys(MESSAGE_FIELDS[type]);
}

/** The expectations of one `expect`, with the names of the flow they use (checked once the flow is loaded). */
export function readExpectation(node: YAMLMap, ctx: ReadContext): { expect: Expectation; refs: FlowRef[] } {
  const { problem } = ctx;
  const ex: Expectation = {};
  const refs: FlowRef[] = [];
  const ref = (kind: FlowRef['kind'], name: string, at: unknown) => refs.push({ kind, name, ...ctx.at(at) });
  for (const pair of node.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    const value = pair.value;
    switch (key) {
      case 'state': {
        const name = text(value);
        if (name === undefined) problem(value ?? pair.key, '"state" is a state id or __end__', 'wrong-type');
        else {
          ex.state = name;
          ref('state', name, value);
        }
        break;
      }
      case 'ended':
        if (isScalar(value) && typeof value.value === 'boolean') ex.ended = value.value;
        else problem(value ?? pair.key, '"ended" is true or false', 'wrong-type');
        break;
      case 'variables': {
        const fields = mapping(value, key, ctx, (name, at) => ref('variable', name, at));
        if (fields) ex.variables = fields;
        break;
      }
      case 'pending':
      case 'tools': {
        const names = textList(value, key, ctx);
        if (!names) break;
        ex[key] = names.map((n) => n.text);
        for (const n of names) ref(key === 'pending' ? 'variable' : 'tool', n.text, n.node);
        break;
      }
      case 'emitted':
      case 'not_emitted': {
        const names = knownNames(value, key, ctx, ENGINE_MESSAGE_TYPES, 'a message type');
        if (names) ex[key] = names;
        break;
      }
      case 'rejected': {
        const names = knownNames(value, key, ctx, REJECT_REASONS, 'a reason a tool call is refused for');
        if (names) ex.rejected = names;
        break;
      }
      case 'messages': {
        const list = readMessages(value, ctx);
        if (list) ex.messages = list;
        break;
      }
      case 'system_prompt': {
        const p = readSystemPrompt(value, pair.key, ctx);
        if (p) ex.system_prompt = p;
        break;
      }
      case 'requests': {
        const list = readRequests(value, ctx);
        if (list) ex.requests = list;
        break;
      }
      case 'given': {
        const list = readGiven(value, ctx);
        if (list) ex.given = list;
        break;
      }
      case 'tool_schema': {
        const fields = readToolSchema(value, ctx, (name, at) => ref('tool', name, at));
        if (fields) ex.tool_schema = fields;
        break;
      }
      default:
        problem(pair.key, `unknown expectation "${key}"${didYouMean(key, EXPECT_KEYS)}; an expect may give ${EXPECT_KEYS.join(', ')}`, 'unknown-key');
    }
  }
  return { expect: ex, refs };
}

/** A list of names, each one of `known` (what the engine can say); `what` says what a known one is. */
function knownNames(node: unknown, key: string, ctx: ReadContext, known: readonly string[], what: string): string[] | undefined {
  const names = textList(node, key, ctx);
  if (!names) return undefined;
  for (const n of names) {
    if (!known.includes(n.text)) ctx.problem(n.node, `"${n.text}" is not ${what}${didYouMean(n.text, known)}`);
  }
  return names.map((n) => n.text);
}

/** `system_prompt`: the exact text, or a $contains or $matches pattern of it. */
function readSystemPrompt(node: unknown, key: unknown, ctx: ReadContext): Pattern | undefined {
  const p = readPattern(node, ctx);
  if (p && p.op !== 'equal' && p.op !== 'contains' && p.op !== 'matches') {
    ctx.problem(node ?? key, '"system_prompt" is the exact text, {$contains: text} or {$matches: regex}', 'wrong-type');
  } else if (p?.op === 'equal' && typeof p.value !== 'string') {
    ctx.problem(node, '"system_prompt" is the exact text, {$contains: text} or {$matches: regex}', 'wrong-type');
  } else return p;
  return undefined;
}

/** `tool_schema`: tool -> a mapping matched against its schema as the LLM gets it; `onName` sees each tool. */
function readToolSchema(node: unknown, ctx: ReadContext, onName: (name: string, at: unknown) => void): Array<[string, Pattern]> | undefined {
  const fields = mapping(node, 'tool_schema', ctx, onName);
  if (!fields) return undefined;
  const bad = fields.find(([, p]) => p.op !== 'fields');
  const message = `tool_schema: the schema of ${bad?.[0]} is matched by a mapping such as {required: [name]}`;
  if (!bad) return fields;
  ctx.problem((node as YAMLMap).get(bad[0], true) ?? node, message, 'wrong-type');
  return undefined;
}

function text(node: unknown): string | undefined {
  return isScalar(node) && typeof node.value === 'string' ? node.value : undefined;
}

/** A list of texts, with each item's node for pointing at it. */
function textList(node: unknown, key: string, ctx: ReadContext): Array<{ text: string; node: unknown }> | undefined {
  if (!isSeq(node)) {
    ctx.problem(node, `"${key}" is a list`, 'wrong-type');
    return undefined;
  }
  const out: Array<{ text: string; node: unknown }> = [];
  for (const item of node.items) {
    const t = text(item);
    if (t === undefined) ctx.problem(item, `"${key}" lists names, as text`, 'wrong-type');
    else out.push({ text: t, node: item });
  }
  return out.length === node.items.length ? out : undefined;
}

/** A mapping of names to patterns; `onName` sees each name with its key's node. */
function mapping(node: unknown, key: string, ctx: ReadContext, onName: (name: string, at: unknown) => void): Array<[string, Pattern]> | undefined {
  if (!isMap(node)) {
    ctx.problem(node, `"${key}" is a mapping`, 'wrong-type');
    return undefined;
  }
  const out: Array<[string, Pattern]> = [];
  let ok = true;
  for (const pair of node.items) {
    const name = isScalar(pair.key) ? String(pair.key.value) : '';
    onName(name, pair.key);
    const p = readPattern(pair.value, ctx);
    if (p) out.push([name, p]);
    else ok = false;
  }
  return ok ? out : undefined;
}

/** `given`: the end screen's lines, each a mapping of its `label` and `value` to match. */
function readGiven(node: unknown, ctx: ReadContext): Pattern[] | undefined {
  const shape = '"given" is the end screen\'s list of what the visitor gave, in order: - { label: Name, value: Maria Garcia }';
  if (!isSeq(node)) {
    ctx.problem(node, shape, 'wrong-type');
    return undefined;
  }
  const out: Pattern[] = [];
  for (const item of node.items) {
    const keys = isMap(item) ? item.items.map((p) => (isScalar(p.key) ? String(p.key.value) : '')) : [];
    const extra = keys.find((k) => k !== 'label' && k !== 'value');
    if (!isMap(item)) ctx.problem(item, shape, 'wrong-type');
    else if (extra !== undefined) ctx.problem(item.get(extra, true) ?? item, `a line of the end screen has a label and a value, not "${extra}"${didYouMean(extra, ['label', 'value'])}`, 'unknown-key');
    const pattern = isMap(item) && extra === undefined ? readPattern(item, ctx) : undefined;
    if (!pattern || pattern.op !== 'fields') return undefined;
    out.push(pattern);
  }
  return out;
}

/** `requests`: action_run messages without their type, fields limited to what a request is. */
function readRequests(node: unknown, ctx: ReadContext): MessageExpectation[] | undefined {
  if (!isSeq(node)) {
    ctx.problem(node, '"requests" is a list of requests such as {tool: check_in, method: POST, body: {...}}', 'wrong-type');
    return undefined;
  }
  const out: MessageExpectation[] = [];
  let ok = true;
  for (const item of node.items) {
    if (!isMap(item)) {
      ctx.problem(item, 'a request is a mapping of the fields to match: tool, method, url, body, headers, timeout_seconds', 'wrong-type');
      ok = false;
      continue;
    }
    for (const pair of item.items) {
      const k = isPair(pair) && isScalar(pair.key) ? String(pair.key.value) : '';
      if (!REQUEST_FIELDS.includes(k)) ctx.problem(pair.key, `a request has no field "${k}"${didYouMean(k, REQUEST_FIELDS)}; its fields are ${REQUEST_FIELDS.join(', ')}`, 'unknown-key');
    }
    const pattern = readPattern(item, ctx);
    if (!pattern || pattern.op !== 'fields') {
      ok = false;
      continue;
    }
    out.push({ type: 'action_run', pattern, line: ctx.at(item).line });
  }
  return ok ? out : undefined;
}

function readMessages(node: unknown, ctx: ReadContext): MessageExpectation[] | undefined {
  const { problem } = ctx;
  if (!isSeq(node)) {
    problem(node, '"messages" is a list of messages such as {type: speech_cue, text: "..."}', 'wrong-type');
    return undefined;
  }
  const out: MessageExpectation[] = [];
  let ok = true;
  for (const item of node.items) {
    if (!isMap(item)) {
      problem(item, 'a message is a mapping of its type and the fields to match, such as {type: speech_cue, text: "..."}', 'wrong-type');
      ok = false;
      continue;
    }
    const type = text(item.get('type', true));
    if (type === undefined || !(ENGINE_MESSAGE_TYPES as readonly string[]).includes(type)) {
      const given = type === undefined ? 'a message needs its "type"' : `"${type}" is not a message type${didYouMean(type, ENGINE_MESSAGE_TYPES)}`;
      problem(item.get('type', true) ?? item, given, type === undefined ? 'missing-key' : 'bad-value');
      ok = false;
      continue;
    }
    const fields = messageFields(type as EngineMessageType);
    for (const pair of item.items) {
      const k = isPair(pair) && isScalar(pair.key) ? String(pair.key.value) : '';
      if (!fields.includes(k)) problem(pair.key, `a ${type} message has no field "${k}"${didYouMean(k, fields)}; its fields are ${fields.join(', ')}`, 'unknown-key');
    }
    const pattern = readPattern(item, ctx);
    if (!pattern || pattern.op !== 'fields') {
      ok = false;
      continue;
    }
    out.push({ type: type as EngineMessageType, pattern, line: ctx.at(item).line });
  }
  return ok ? out : undefined;
}
