// Conversation test scripts (SPEC 8): reading and checking the YAML, with the line of every step
// so a failed expectation can say where it was written. Every key is checked: a script with an
// unknown key, a value of the wrong kind or a name its flow does not have is invalid.

import { isMap, isPair, isScalar, isSeq, type Document, type Node, type YAMLMap, type YAMLSeq } from 'yaml';
import { didYouMean, type Diagnostic, type DiagnosticCode } from '../engine/language/diagnostics.ts';
import { END, ERROR } from '../engine/language/flow.ts';
import type { LoadedFlow } from '../engine/language/load-flow.ts';
import { ENGINE_MESSAGE_TYPES, REJECT_REASONS, type EngineMessage, type EngineMessageType } from '../engine/runtime/messages.ts';
import { readFlowSource } from '../engine/language/source.ts';
import { readPattern, type Pattern } from './expect-pattern.ts';

export type EpochRef = 'current' | 'previous' | number;

export type Step =
  | { kind: 'user'; text: string; line: number }
  | { kind: 'tool'; name: string; args: unknown; epoch: EpochRef; callId?: string; line: number }
  | { kind: 'ui'; event: string; values?: Record<string, unknown>; variable?: string; variables?: string[]; value?: unknown; selectedId?: string; line: number }
  | { kind: 'wait'; seconds: number; line: number }
  | { kind: 'together'; steps: Step[]; line: number }
  | { kind: 'expect'; expect: Expectation; refs: FlowRef[]; line: number };

/** One item of `messages`: a message of `type` whose fields match `pattern`. */
export interface MessageExpectation {
  type: EngineMessageType;
  pattern: Pattern;
  line: number;
}

export interface Expectation {
  state?: string;
  ended?: boolean;
  /** variable -> pattern of its value (null: unset) */
  variables?: Array<[string, Pattern]>;
  pending?: string[];
  tools?: string[];
  emitted?: string[];
  not_emitted?: string[];
  rejected?: string[];
  messages?: MessageExpectation[];
  /** the pattern of the current state's system prompt */
  system_prompt?: Pattern;
  /** tool -> pattern of its schema as the LLM gets it */
  tool_schema?: Array<[string, Pattern]>;
  /** the HTTP requests (`action_run`) since the previous expect: exactly these, in order */
  requests?: MessageExpectation[];
}

/** What a tool's HTTP effect gets in a test instead of a real call: a status and JSON, or no answer in time. */
export type CannedAnswer = { status: number; body?: unknown; line: number } | { timeout: true; line: number };

/** A name in an expectation that the flow must have: checked once the flow is loaded. */
export interface FlowRef {
  kind: 'state' | 'variable' | 'tool';
  name: string;
  line: number;
  col: number;
}

export interface Script {
  file: string;
  flow: string;
  name?: string;
  /** tool -> the answers its requests get, one each, in order */
  answers: Record<string, CannedAnswer[]>;
  /** where each tool of `answers` is written, for naming an unknown one */
  answerRefs: FlowRef[];
  steps: Step[];
}

const SCRIPT_KEYS = ['flow', 'name', 'answers', 'steps'];
const REQUEST_FIELDS = ['tool', 'method', 'url', 'body', 'headers', 'timeout_seconds'];

const STEP_KEYS: Record<string, readonly string[]> = {
  user: ['user'],
  tool: ['tool', 'args', 'epoch', 'call_id'],
  ui: ['ui', 'values', 'variable', 'variables', 'value', 'selected_id'],
  wait: ['wait'],
  together: ['together'],
  expect: ['expect'],
};
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
] as const;

type MessageOf<T extends EngineMessageType> = Extract<EngineMessage, { type: T }>;

/** The fields of every engine message, tied to messages.ts: when a message changes, this stops
 *  type-checking until it follows. */
const MESSAGE_FIELDS: { [T in EngineMessageType]: Record<keyof MessageOf<T>, true> } = {
  flow_state: {
    type: true, flow_id: true, state: true, epoch: true, artifact: true, agent: true, gate: true, gate_prompt: true,
    values: true, can_go_back: true, terminal: true, turn_taking: true,
  },
  flow_variable: { type: true, name: true, value: true, status: true, source: true },
  transition_blocked: { type: true, flow_id: true, from_state: true, attempted_target: true, reason: true, detail: true, variables: true },
  tool_rejected: { type: true, tool: true, call_id: true, reason: true, detail: true, field: true },
  tool_result: { type: true, call_id: true, tool: true, ok: true, content: true },
  speech_cue: { type: true, text: true, reason: true },
  llm_turn: { type: true, epoch: true, reason: true },
  action_pending: { type: true, action_id: true, tool: true, summary: true, args: true, expires_at: true, replaces: true },
  action_run: { type: true, action_id: true, tool: true, method: true, url: true, body: true, headers: true, timeout_seconds: true },
  action_result: { type: true, action_id: true, tool: true, status: true, detail: true },
  system_message: { type: true, text: true },
  analytics: { type: true, event: true, state: true, data: true },
  flow_end: { type: true, flow_id: true, last_state: true, mode: true, variables: true, reason: true },
  engine_error: { type: true, state: true, message: true },
};

/** The fields a message of `type` may have (for checking a script's `messages`). */
export function messageFields(type: EngineMessageType): string[] {
  return Object.keys(MESSAGE_FIELDS[type]);
}

interface Context {
  doc: Document;
  problem: (node: unknown, message: string, code?: DiagnosticCode) => void;
  at: (node: unknown) => { line: number; col: number };
}

/** Parses a script; on any problem returns diagnostics in check's format. */
export function parseScript(text: string, file: string): { script: Script } | { diagnostics: Diagnostic[] } {
  const src = readFlowSource(text, file);
  if (src.diagnostics.length) return { diagnostics: src.diagnostics };
  const problems: Diagnostic[] = [];
  const at = (node: unknown) => {
    const range = (node as Node | undefined)?.range;
    return src.lines.linePos(range ? range[0] : 0);
  };
  const problem = (node: unknown, message: string, code: DiagnosticCode = 'bad-value') => {
    const { line, col } = at(node);
    problems.push({ file, line, col, severity: 'error', code, message });
  };
  const ctx: Context = { doc: src.doc, problem, at };
  const root = src.doc.contents;
  const data = src.data as Record<string, unknown> | null;
  if (!isMap(root) || !data || typeof data !== 'object') {
    problem(root, 'a conversation test is a mapping with "flow" and "steps"');
    return { diagnostics: problems };
  }
  for (const k of Object.keys(data)) {
    if (!SCRIPT_KEYS.includes(k)) problem(root.get(k, true) ?? root, `unknown key "${k}"${didYouMean(k, SCRIPT_KEYS)}`, 'unknown-key');
  }
  const { answers, refs: answerRefs } = readAnswers(root.get('answers', true), ctx);
  if (typeof data['flow'] !== 'string') problem(root.get('flow', true) ?? root, '"flow" must name the flow file, relative to this script');
  const stepsNode = root.get('steps', true);
  if (!isSeq(stepsNode)) {
    problem(stepsNode ?? root, '"steps" must be a list of steps');
    return { diagnostics: problems };
  }
  const steps = readSteps(stepsNode, false, ctx);
  if (problems.length) return { diagnostics: problems };
  return {
    script: {
      file,
      flow: data['flow'] as string,
      ...(typeof data['name'] === 'string' ? { name: data['name'] } : {}),
      answers,
      answerRefs,
      steps,
    },
  };
}

const REF_PROBLEM: Record<FlowRef['kind'], { code: DiagnosticCode; what: string }> = {
  state: { code: 'unknown-target', what: 'is not a state of the flow' },
  variable: { code: 'unknown-variable', what: 'is not a variable of the flow' },
  tool: { code: 'unknown-tool', what: 'is not a tool the flow offers in any state' },
};

/** Checks the names a script's expectations use against its loaded flow. */
export function checkNames(script: Script, loaded: LoadedFlow): Diagnostic[] {
  const known: Record<FlowRef['kind'], readonly string[]> = {
    state: [...loaded.flow.stateOrder, END, ERROR],
    variable: [...loaded.catalog.variables.keys()],
    tool: [...new Set([...loaded.catalog.offered.values()].flat())],
  };
  const out: Diagnostic[] = [];
  const withHttp = new Set<string>();
  for (const t of Object.values(loaded.flow.tools)) if (t.http) withHttp.add(t.name);
  for (const s of Object.values(loaded.flow.states)) for (const t of Object.values(s.tools)) if (t.http) withHttp.add(t.name);
  for (const { name, line, col } of script.answerRefs) {
    if (!withHttp.has(name)) {
      out.push({ file: script.file, line, col, severity: 'error', code: 'unknown-tool', message: `"${name}" is not a tool of the flow with an http effect${didYouMean(name, [...withHttp])}` });
    }
  }
  for (const step of script.steps) {
    if (step.kind !== 'expect') continue;
    for (const { kind, name, line, col } of step.refs) {
      if (known[kind].includes(name)) continue;
      const { code, what } = REF_PROBLEM[kind];
      out.push({ file: script.file, line, col, severity: 'error', code, message: `"${name}" ${what}${didYouMean(name, known[kind])}` });
    }
  }
  return out;
}

function readSteps(seq: YAMLSeq, nested: boolean, ctx: Context): Step[] {
  const { problem } = ctx;
  const steps: Step[] = [];
  for (const item of seq.items) {
    if (!isMap(item)) {
      problem(item, 'a step is a mapping such as {user: "..."} or {tool: name, args: {...}}', 'wrong-type');
      continue;
    }
    const map = item as YAMLMap;
    const obj = map.toJSON() as Record<string, unknown>;
    const kind = Object.keys(STEP_KEYS).find((k) => Object.hasOwn(obj, k));
    if (!kind) {
      const first = Object.keys(obj)[0] ?? '';
      problem(item, `unknown step "${first}"${didYouMean(first, Object.keys(STEP_KEYS))}; a step is one of ${Object.keys(STEP_KEYS).join(', ')}`, 'unknown-key');
      continue;
    }
    for (const k of Object.keys(obj)) {
      if (!STEP_KEYS[kind]!.includes(k)) problem(map.get(k, true) ?? item, `"${k}" does not belong in a ${kind} step${didYouMean(k, STEP_KEYS[kind]!)}`, 'unknown-key');
    }
    const line = ctx.at(item).line;
    if (nested && !['user', 'tool', 'ui'].includes(kind)) {
      problem(item, `a "together" step may hold only user, tool and ui steps, not ${kind}`);
      continue;
    }
    switch (kind) {
      case 'user':
        if (typeof obj['user'] !== 'string') problem(item, '"user" is the transcript, as text', 'wrong-type');
        steps.push({ kind, text: String(obj['user']), line });
        break;
      case 'tool': {
        const e = obj['epoch'];
        if (e !== undefined && e !== 'previous' && e !== 'current' && typeof e !== 'number') {
          problem(map.get('epoch', true), '"epoch" is previous, current or a number');
        }
        steps.push({
          kind,
          name: String(obj['tool']),
          args: obj['args'] ?? {},
          epoch: (e as EpochRef | undefined) ?? 'current',
          ...(typeof obj['call_id'] === 'string' ? { callId: obj['call_id'] } : {}),
          line,
        });
        break;
      }
      case 'ui':
        steps.push({
          kind,
          event: String(obj['ui']),
          ...(obj['values'] && typeof obj['values'] === 'object' ? { values: obj['values'] as Record<string, unknown> } : {}),
          ...(typeof obj['variable'] === 'string' ? { variable: obj['variable'] } : {}),
          ...(Array.isArray(obj['variables']) ? { variables: obj['variables'].map(String) } : {}),
          ...(Object.hasOwn(obj, 'value') ? { value: obj['value'] } : {}),
          ...(typeof obj['selected_id'] === 'string' ? { selectedId: obj['selected_id'] } : {}),
          line,
        });
        break;
      case 'wait':
        if (typeof obj['wait'] !== 'number' || obj['wait'] < 0) problem(item, '"wait" is a number of seconds', 'wrong-type');
        steps.push({ kind, seconds: Number(obj['wait']), line });
        break;
      case 'together': {
        const inner = map.get('together', true);
        if (!isSeq(inner)) {
          problem(item, '"together" is a list of steps delivered in the same engine step', 'wrong-type');
          break;
        }
        steps.push({ kind, steps: readSteps(inner, true, ctx), line });
        break;
      }
      case 'expect': {
        const node = map.get('expect', true);
        if (!isMap(node)) {
          problem(node ?? item, '"expect" is a mapping of expectations', 'wrong-type');
          break;
        }
        steps.push({ kind, ...readExpectation(node, ctx), line });
        break;
      }
    }
  }
  return steps;
}

function readExpectation(node: YAMLMap, ctx: Context): { expect: Expectation; refs: FlowRef[] } {
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
        const names = textList(value, key, ctx);
        if (!names) break;
        for (const n of names) {
          if (!(ENGINE_MESSAGE_TYPES as readonly string[]).includes(n.text)) {
            problem(n.node, `"${n.text}" is not a message type${didYouMean(n.text, ENGINE_MESSAGE_TYPES)}`);
          }
        }
        ex[key] = names.map((n) => n.text);
        break;
      }
      case 'rejected': {
        const names = textList(value, key, ctx);
        if (!names) break;
        for (const n of names) {
          if (!(REJECT_REASONS as readonly string[]).includes(n.text)) {
            problem(n.node, `"${n.text}" is not a reason a tool call is refused for${didYouMean(n.text, REJECT_REASONS)}`);
          }
        }
        ex.rejected = names.map((n) => n.text);
        break;
      }
      case 'messages': {
        const list = readMessages(value, ctx);
        if (list) ex.messages = list;
        break;
      }
      case 'system_prompt': {
        const p = readPattern(value, ctx);
        if (p && p.op !== 'equal' && p.op !== 'contains' && p.op !== 'matches') {
          problem(value ?? pair.key, '"system_prompt" is the exact text, {$contains: text} or {$matches: regex}', 'wrong-type');
        } else if (p?.op === 'equal' && typeof p.value !== 'string') {
          problem(value, '"system_prompt" is the exact text, {$contains: text} or {$matches: regex}', 'wrong-type');
        } else if (p) ex.system_prompt = p;
        break;
      }
      case 'requests': {
        const list = readRequests(value, ctx);
        if (list) ex.requests = list;
        break;
      }
      case 'tool_schema': {
        const fields = mapping(value, key, ctx, (name, at) => ref('tool', name, at));
        if (!fields) break;
        const bad = fields.find(([, p]) => p.op !== 'fields');
        const message = `tool_schema: the schema of ${bad?.[0]} is matched by a mapping such as {required: [name]}`;
        if (bad) problem((value as YAMLMap).get(bad[0], true) ?? value, message, 'wrong-type');
        else ex.tool_schema = fields;
        break;
      }
      default:
        problem(pair.key, `unknown expectation "${key}"${didYouMean(key, EXPECT_KEYS)}; an expect may give ${EXPECT_KEYS.join(', ')}`, 'unknown-key');
    }
  }
  return { expect: ex, refs };
}

function text(node: unknown): string | undefined {
  return isScalar(node) && typeof node.value === 'string' ? node.value : undefined;
}

/** A list of texts, with each item's node for pointing at it. */
function textList(node: unknown, key: string, ctx: Context): Array<{ text: string; node: unknown }> | undefined {
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
function mapping(node: unknown, key: string, ctx: Context, onName: (name: string, at: unknown) => void): Array<[string, Pattern]> | undefined {
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

/** `answers`: tool -> a list of `{status, body}` or `{timeout: true}`. */
function readAnswers(node: unknown, ctx: Context): { answers: Record<string, CannedAnswer[]>; refs: FlowRef[] } {
  const answers: Record<string, CannedAnswer[]> = Object.create(null);
  const refs: FlowRef[] = [];
  if (node === undefined) return { answers, refs };
  const shape = 'a canned answer is {status: 200, body: {...}} or {timeout: true}';
  if (!isMap(node)) {
    ctx.problem(node, '"answers" maps tools to lists of canned answers, such as check_in: [{status: 201, body: {queue_number: 4}}]', 'wrong-type');
    return { answers, refs };
  }
  for (const pair of node.items) {
    const tool = isScalar(pair.key) ? String(pair.key.value) : '';
    refs.push({ kind: 'tool', name: tool, ...ctx.at(pair.key) });
    if (!isSeq(pair.value)) {
      ctx.problem(pair.value ?? pair.key, `the answers of ${tool} are a list; ${shape}`, 'wrong-type');
      continue;
    }
    const list: CannedAnswer[] = [];
    for (const item of pair.value.items) {
      const value = isMap(item) ? (item.toJSON() as Record<string, unknown>) : null;
      const line = ctx.at(item).line;
      const extra = value ? Object.keys(value).filter((k) => !['status', 'body', 'timeout'].includes(k)) : [];
      if (value && extra.length) ctx.problem(item, `unknown key "${extra[0]}"${didYouMean(extra[0]!, ['status', 'body', 'timeout'])}; ${shape}`, 'unknown-key');
      else if (value && value['timeout'] === true && Object.keys(value).length === 1) list.push({ timeout: true, line });
      else if (value && Number.isInteger(value['status']) && (value['status'] as number) >= 100 && (value['status'] as number) <= 599 && value['timeout'] === undefined) {
        list.push({ status: value['status'] as number, ...(Object.hasOwn(value, 'body') ? { body: value['body'] } : {}), line });
      } else ctx.problem(item, `${shape} (a status is 100 to 599)`, 'wrong-type');
    }
    answers[tool] = list;
  }
  return { answers, refs };
}

/** `requests`: action_run messages without their type, fields limited to what a request is. */
function readRequests(node: unknown, ctx: Context): MessageExpectation[] | undefined {
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

function readMessages(node: unknown, ctx: Context): MessageExpectation[] | undefined {
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
