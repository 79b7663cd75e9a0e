// A runtime check that an engine message has the shape its type in src/engine/runtime/messages.ts gives:
// the right `type`, every required field with the right JS type, enums within their values, no
// fields the type does not declare, and plain JSON wherever the type says `unknown`. Field lists
// and enum members are tied to the TypeScript types: when messages.ts changes, this file stops
// type-checking until it follows.

import type { Artifact, ArtifactType, ChoiceOption, Field, FieldProblem, FieldType, UiAction } from '../../src/engine/language/flow.ts';
import {
  ENGINE_MESSAGE_TYPES,
  type ActionResultMessage,
  type BlockReason,
  type EngineMessage,
  type EngineMessageType,
  type FlowEndMessage,
  type FlowStateMessage,
  type FlowVariableMessage,
  type GateStatus,
  type LlmTurnMessage,
  type RejectReason,
  type ResponseConstraintWire,
  type SpeechCueMessage,
  type ToolSpec,
  type TurnTakingWire,
  type VariableStatus,
} from '../../src/engine/runtime/messages.ts';

/** Checks one value; returns the problems found, each prefixed with the value's path. */
type Check = (value: unknown, path: string) => string[];

const ok: string[] = [];

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const typed =
  (name: string, test: (v: unknown) => boolean): Check =>
  (v, path) =>
    test(v) ? ok : [`${path}: expected ${name}, got ${show(v)}`];

const str = typed('a string', (v) => typeof v === 'string');
const num = typed('a finite number', (v) => typeof v === 'number' && Number.isFinite(v));
const int = typed('an integer', (v) => Number.isInteger(v));
const bool = typed('a boolean', (v) => typeof v === 'boolean');

/** Plain JSON all the way down: what `unknown` means in a message that crosses the boundary. */
const json: Check = (v, path) => {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return ok;
  if (typeof v === 'number') return Number.isFinite(v) ? ok : [`${path}: ${v} is not JSON`];
  if (Array.isArray(v)) return v.flatMap((x, i) => json(x, `${path}[${i}]`));
  if (isPlainObject(v)) return Object.entries(v).flatMap(([k, x]) => json(x, `${path}.${k}`));
  return [`${path}: ${show(v)} is not JSON`];
};

const literal =
  (...allowed: readonly unknown[]): Check =>
  (v, path) =>
    allowed.includes(v) ? ok : [`${path}: expected one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}, got ${show(v)}`];

/** One member of a string union; the record names each member once, so the compiler keeps it complete. */
const oneOf = <T extends string>(members: Record<T, true>): Check => literal(...Object.keys(members));

const nullable =
  (check: Check): Check =>
  (v, path) =>
    v === null ? ok : check(v, path);

const arrayOf =
  (check: Check): Check =>
  (v, path) =>
    Array.isArray(v) ? v.flatMap((x, i) => check(x, `${path}[${i}]`)) : [`${path}: expected an array, got ${show(v)}`];

const recordOf =
  (check: Check): Check =>
  (v, path) =>
    isPlainObject(v) ? Object.entries(v).flatMap(([k, x]) => check(x, `${path}.${k}`)) : [`${path}: expected an object, got ${show(v)}`];

/** A field that may be absent; when present it must pass `check`. */
interface Optional {
  optional: Check;
}
const optional = (check: Check): Optional => ({ optional: check });

/** A check for every field of `T`: `Optional` exactly for its optional fields. */
type FieldsOf<T> = { [F in keyof T]-?: object extends Pick<T, F> ? Optional : Check };

/** An object with exactly these fields (optional ones may be missing, nothing else may be there). */
function exactly(fields: Record<string, Check | Optional>): Check {
  const specs = Object.entries(fields);
  return (v, path) => {
    if (!isPlainObject(v)) return [`${path}: expected an object, got ${show(v)}`];
    const problems: string[] = [];
    for (const [name, spec] of specs) {
      const at = `${path}.${name}`;
      if (typeof spec === 'function') {
        problems.push(...(name in v ? spec(v[name], at) : [`${at}: missing`]));
      } else if (v[name] !== undefined) {
        problems.push(...spec.optional(v[name], at));
      }
    }
    for (const name of Object.keys(v)) if (!(name in fields)) problems.push(`${path}.${name}: not a field of this type`);
    return problems;
  };
}

/** The check of a value of type `T`, given a check for each of its fields. */
const shape = <T>(fields: FieldsOf<T>): Check => exactly(fields);

const sourcePath = arrayOf((v, path) => (typeof v === 'string' || Number.isInteger(v) ? ok : [`${path}: expected a string or an index`]));

const choiceOption = shape<ChoiceOption>({ id: str, label: str, description: optional(str) });

const field = shape<Field>({
  id: str,
  type: oneOf<FieldType>({ text: true, email: true, tel: true, number: true, date: true, select: true, radio: true, checkbox: true }),
  label: str,
  required: bool,
  placeholder: optional(str),
  options: optional(arrayOf(choiceOption)),
  pattern: optional(str),
  minLength: optional(int),
  maxLength: optional(int),
  min: optional((v, path) => (typeof v === 'string' ? str(v, path) : num(v, path))),
  max: optional((v, path) => (typeof v === 'string' ? str(v, path) : num(v, path))),
  message: optional(str),
  case: optional(oneOf<'upper' | 'lower'>({ upper: true, lower: true })),
  at: sourcePath,
});

const artifact = shape<Artifact>({
  type: oneOf<ArtifactType>({ form: true, options: true, card: true, other: true }),
  declaredType: str,
  title: optional(str),
  text: optional(str),
  fields: arrayOf(field),
  submitLabel: optional(str),
  options: arrayOf(choiceOption),
  variable: optional(str),
  actions: arrayOf(shape<UiAction>({ event: str, label: str, tool: optional(str) })),
  params: optional(recordOf(json)),
});

const toolSpec = shape<ToolSpec>({
  type: literal('function'),
  function: shape<ToolSpec['function']>({
    name: str,
    description: str,
    parameters: shape<ToolSpec['function']['parameters']>({
      type: literal('object'),
      properties: recordOf(recordOf(json)),
      required: arrayOf(str),
      additionalProperties: literal(false),
    }),
  }),
});

const agent = shape<FlowStateMessage['agent']>({
  system_prompt: str,
  tools: arrayOf(toolSpec),
  context: oneOf<FlowStateMessage['agent']['context']>({ append: true, reset: true }),
  response_constraint: optional(
    shape<ResponseConstraintWire>({ max_tokens: optional(num), temperature: optional(num), stop_phrases: optional(arrayOf(str)) }),
  ),
  retry: int,
});

type MessageOf<K extends EngineMessageType> = Extract<EngineMessage, { type: K }>;

/** The check of one message type: its `type` literal and its other fields. */
function message<K extends EngineMessageType>(type: K, fields: Omit<FieldsOf<MessageOf<K>>, 'type'>): Check {
  return exactly({ ...fields, type: literal(type) });
}

/** Every engine message type, with every field as messages.ts declares it. */
const MESSAGES: { [K in EngineMessageType]: Check } = {
  flow_state: message('flow_state', {
    flow_id: str,
    state: str,
    language: str,
    epoch: int,
    artifact: nullable(artifact),
    agent,
    gate: nullable(recordOf(oneOf<GateStatus>({ empty: true, pending: true, confirmed: true }))),
    gate_prompt: optional(str),
    values: recordOf(json),
    can_go_back: bool,
    terminal: bool,
    turn_taking: shape<TurnTakingWire>({
      end_silence_ms: optional(int),
      dictation_silence_ms: optional(int),
      min_speech_ms: optional(int),
      barge_in: optional(bool),
      barge_in_ms: optional(int),
      expect: optional(oneOf<NonNullable<TurnTakingWire['expect']>>({ auto: true, free: true, dictation: true })),
    }),
    global_actions: optional(arrayOf(shape<UiAction>({ event: str, label: str, tool: optional(str) }))),
    global_tools: optional(arrayOf(str)),
  }),
  flow_variable: message('flow_variable', {
    name: str,
    value: json,
    status: oneOf<VariableStatus>({ set: true, pending: true, confirmed: true, cleared: true }),
    source: oneOf<FlowVariableMessage['source']>({ tool: true, utterance: true, ui: true, hook: true, transition: true, gate: true, action: true }),
  }),
  transition_blocked: message('transition_blocked', {
    flow_id: str,
    from_state: str,
    attempted_target: nullable(str),
    reason: oneOf<BlockReason>({ pending_confirmation: true, not_captured: true, guard_failed: true, invalid_input: true }),
    detail: str,
    variables: recordOf(json),
    problems: optional(
      recordOf(
        shape<FieldProblem>({
          rule: oneOf<FieldProblem['rule']>({ pattern: true, min: true, max: true, min_length: true, max_length: true }),
          limit: (v, path) => (typeof v === 'string' ? str(v, path) : num(v, path)),
          shown: optional(str),
          message: optional(str),
        }),
      ),
    ),
  }),
  tool_rejected: message('tool_rejected', {
    tool: str,
    call_id: str,
    reason: oneOf<RejectReason>({
      not_in_state: true,
      invalid_arguments: true,
      stale: true,
      no_user_turn: true,
      user_refused: true,
      not_captured: true,
      no_pending_action: true,
      action_running: true,
      already_done: true,
    }),
    detail: str,
    field: optional(str),
  }),
  tool_result: message('tool_result', { call_id: str, tool: str, ok: bool, content: recordOf(json) }),
  speech_cue: message('speech_cue', {
    text: str,
    reason: oneOf<SpeechCueMessage['reason']>({ tool_handled: true, captured: true, confirm_capture: true, confirmed: true, action_pending: true, action_failed: true, too_long: true, not_ticked: true, action_busy: true }),
  }),
  llm_turn: message('llm_turn', { epoch: int, reason: oneOf<LlmTurnMessage['reason']>({ state_entered: true, user_spoke: true }) }),
  action_pending: message('action_pending', { action_id: str, tool: str, summary: str, args: recordOf(json), expires_at: num, replaces: optional(str) }),
  action_run: message('action_run', { action_id: str, tool: str, state: str, values: recordOf(json), method: str, url: str, body: optional(json), headers: optional(recordOf(str)), timeout_seconds: optional(num) }),
  action_result: message('action_result', {
    action_id: str,
    tool: str,
    status: oneOf<ActionResultMessage['status']>({ done: true, failed: true, rejected: true, expired: true, cancelled: true, edited: true, replaced: true }),
    detail: str,
    http_status: optional(int),
    handled: optional((v, path) => (v === true ? [] : [`${path}: expected true`])),
  }),
  system_message: message('system_message', { text: str }),
  analytics: message('analytics', { event: str, state: str, data: optional(recordOf(json)) }),
  flow_end: message('flow_end', {
    flow_id: str,
    last_state: str,
    mode: oneOf<FlowEndMessage['mode']>({ kiosk: true, assistant: true }),
    variables: recordOf(json),
    reason: oneOf<FlowEndMessage['reason']>({ completed: true, max_duration: true }),
  }),
  engine_error: message('engine_error', { state: str, message: str }),
};

/** What is wrong with a message emitted by the engine; empty when it matches its type. */
export function messageShapeProblems(m: unknown): string[] {
  if (!isPlainObject(m)) return [`message: expected an object, got ${show(m)}`];
  const type = m['type'];
  if (!ENGINE_MESSAGE_TYPES.includes(type as EngineMessageType)) return [`message.type: ${show(type)} is not an engine message type`];
  return MESSAGES[type as EngineMessageType](m, String(type));
}

function show(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (typeof v === 'function') return 'a function';
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
