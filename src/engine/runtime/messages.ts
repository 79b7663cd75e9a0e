// Every message that crosses the engine's boundary, in both directions. All plain JSON.
// The engine only decides: it answers inputs with these messages and performs nothing itself.

import type { ToolSpec } from '../language/catalog.ts';
import type { Artifact, FieldProblem, UiAction } from '../language/flow.ts';
import type { HttpCall } from './http-call.ts';

export type { ToolSpec };

/** A state's `response_constraint`, in the LLM request's own spelling. */
export interface ResponseConstraintWire {
  max_tokens?: number;
  temperature?: number;
  stop_phrases?: string[];
}

/** How the kiosk listens in a state (`turn_taking`, the state's keys over the flow's). */
export interface TurnTakingWire {
  end_silence_ms?: number;
  dictation_silence_ms?: number;
  min_speech_ms?: number;
  barge_in?: boolean;
  barge_in_ms?: number;
  expect?: 'auto' | 'free' | 'dictation';
}

export type GateStatus = 'empty' | 'pending' | 'confirmed';

/** How a variable's value stands after a change. `set` is an ungated value. */
export type VariableStatus = 'set' | 'pending' | 'confirmed' | 'cleared';

// ---------------------------------------------------------------- engine -> client

/** A state was entered: render its artifact, give the LLM its prompt and tools. */
export interface FlowStateMessage {
  type: 'flow_state';
  flow_id: string;
  state: string;
  /** the language the artifact and prompt are in: the visit's */
  language: string;
  epoch: number;
  /** the artifact with titles, labels and texts interpolated; null when the state has no ui */
  artifact: Artifact | null;
  agent: {
    system_prompt: string;
    tools: ToolSpec[];
    context: 'append' | 'reset';
    response_constraint?: ResponseConstraintWire;
    /** timeout re-entries so far (0 on a fresh entry) */
    retry: number;
  };
  /** gated variables of this state and their status */
  gate: Record<string, GateStatus> | null;
  /** the confirmation question of this state's gate as the flow writes it ({var} templates),
   *  to be filled in with the values once they are captured */
  gate_prompt?: string;
  /** current values of the variables the artifact shows (fields, options) */
  values: Record<string, unknown>;
  /** true when a Back control may be shown */
  can_go_back: boolean;
  terminal: boolean;
  /** listening settings the flow gives for this state (defaults belong to the voice layer) */
  turn_taking: TurnTakingWire;
  /** the flow's global buttons that apply here ("Talk to a person"), labels filled in: shown on every step, apart from the artifact */
  global_actions?: UiAction[];
  /**
   * the tools of `agent.tools` offered only by the flow's `global` ("ask_for_person"): ways out of
   * the step, which an assistant calls only when the visitor asks for them, never as its way on
   */
  global_tools?: string[];
}

export interface FlowVariableMessage {
  type: 'flow_variable';
  name: string;
  value: unknown;
  status: VariableStatus;
  /** what set it */
  source: 'tool' | 'utterance' | 'ui' | 'hook' | 'transition' | 'gate' | 'action';
}

export type BlockReason = 'pending_confirmation' | 'not_captured' | 'guard_failed' | 'invalid_input';

export interface TransitionBlockedMessage {
  type: 'transition_blocked';
  flow_id: string;
  from_state: string;
  attempted_target: string | null;
  reason: BlockReason;
  detail: string;
  variables: Record<string, unknown>;
  /** invalid_input: by variable, the rule of its form field the value broke (the screen says it beside the field) */
  problems?: Record<string, FieldProblem>;
}

/**
 * Why a tool call was refused. `user_refused`: the visitor's last turn was a plain "no";
 * `action_running`: the tool's action is running for this step; `already_done`: the tool is a
 * write done already in this step (neither is proposed again).
 */
export type RejectReason =
  | 'not_in_state'
  | 'invalid_arguments'
  | 'stale'
  | 'no_user_turn'
  | 'user_refused'
  | 'not_captured'
  | 'no_pending_action'
  | 'action_running'
  | 'already_done';

export const REJECT_REASONS: readonly RejectReason[] = [
  'not_in_state',
  'invalid_arguments',
  'stale',
  'no_user_turn',
  'user_refused',
  'not_captured',
  'no_pending_action',
  'action_running',
  'already_done',
];

export interface ToolRejectedMessage {
  type: 'tool_rejected';
  tool: string;
  call_id: string;
  reason: RejectReason;
  detail: string;
  /** for invalid_arguments: the failing parameter */
  field?: string;
}

/** The answer to one tool call, for the LLM's history (OpenAI requires one per call). */
export interface ToolResultMessage {
  type: 'tool_result';
  call_id: string;
  tool: string;
  ok: boolean;
  content: Record<string, unknown>;
}

/** A short line the agent may say when the LLM has not said anything itself. */
export interface SpeechCueMessage {
  type: 'speech_cue';
  text: string;
  reason: 'tool_handled' | 'captured' | 'confirm_capture' | 'confirmed' | 'action_pending' | 'action_failed' | 'too_long' | 'not_ticked' | 'action_busy';
}

/** Ask the LLM for a turn now (state entry, or an utterance no rule handled). */
export interface LlmTurnMessage {
  type: 'llm_turn';
  epoch: number;
  reason: 'state_entered' | 'user_spoke';
}

export interface ActionPendingMessage {
  type: 'action_pending';
  action_id: string;
  tool: string;
  summary: string;
  args: Record<string, unknown>;
  expires_at: number;
  /** the pending action this one replaces (an edit, or another tool's proposal) */
  replaces?: string;
}

/**
 * Ask the runtime to perform a tool's HTTP effect and answer with `action_done`: the request as the
 * engine built it, and what the kiosk's server needs to build it again from its own copy of the
 * flow (the state, and the values the effect uses).
 */
export interface ActionRunMessage extends HttpCall {
  type: 'action_run';
  action_id: string;
  tool: string;
  /** the state whose tool it is */
  state: string;
  /** the values the url and body use, by name */
  values: Record<string, unknown>;
}

/**
 * How an action ended: `edited` (the same tool proposed again with other values) and `replaced`
 * (another tool proposed) end a pending one in favour of a new id; `cancelled`: the visitor left.
 */
export interface ActionResultMessage {
  type: 'action_result';
  action_id: string;
  tool: string;
  status: 'done' | 'failed' | 'rejected' | 'expired' | 'cancelled' | 'edited' | 'replaced';
  detail: string;
  /** failed: the HTTP status the target answered with, when it answered */
  http_status?: number;
  /**
   * failed, and the flow has a way on for this very answer (an `on_action_failed` branch with its
   * `status`, such as a 404 for "no appointment"): the flow's next step says what it means, so the
   * kiosk says nothing of its own ("that did not go through")
   */
  handled?: true;
}

/** A role-system message for the LLM's context. Never spoken, never shown. */
export interface SystemMessage {
  type: 'system_message';
  text: string;
}

export interface AnalyticsMessage {
  type: 'analytics';
  event: string;
  state: string;
  data?: Record<string, unknown>;
}

export interface FlowEndMessage {
  type: 'flow_end';
  flow_id: string;
  /** the state the flow ended from (a terminal state, or the one that went to __end__) */
  last_state: string;
  mode: 'kiosk' | 'assistant';
  variables: Record<string, unknown>;
  reason: 'completed' | 'max_duration';
}

/**
 * Something failed inside the engine while it handled a step (a bug, or a port that threw). The
 * step did not happen; the run has gone to `settings.on_error` or `__error__`, whose entry
 * follows. For the operator's log: `message` is the error's own text, never for the visitor.
 */
export interface EngineErrorMessage {
  type: 'engine_error';
  /** the state the run was in when the step failed */
  state: string;
  message: string;
}

export type EngineMessage =
  | FlowStateMessage
  | FlowVariableMessage
  | TransitionBlockedMessage
  | ToolRejectedMessage
  | ToolResultMessage
  | SpeechCueMessage
  | LlmTurnMessage
  | ActionPendingMessage
  | ActionRunMessage
  | ActionResultMessage
  | SystemMessage
  | AnalyticsMessage
  | FlowEndMessage
  | EngineErrorMessage;

export type EngineMessageType = EngineMessage['type'];

export const ENGINE_MESSAGE_TYPES: readonly EngineMessageType[] = [
  'flow_state',
  'flow_variable',
  'transition_blocked',
  'tool_rejected',
  'tool_result',
  'speech_cue',
  'llm_turn',
  'action_pending',
  'action_run',
  'action_result',
  'system_message',
  'analytics',
  'flow_end',
  'engine_error',
];

// ---------------------------------------------------------------- client -> engine

/**
 * A UI event. Built-in names: `form_submit` (values), `option_select` (value or selected_id),
 * `confirm_variable` (variable, or variables: "Confirm all"), `field_change` (variable, value),
 * `confirm_action` / `reject_action`, `back`. Any other name is an `actions` button.
 */
export interface UiEventInput {
  type: 'ui_event';
  event: string;
  values?: Record<string, unknown>;
  variable?: string;
  /** `confirm_variable`: several pending values confirmed by one tap ("Confirm all") */
  variables?: readonly string[];
  value?: unknown;
  selected_id?: string;
}

/** A final speech-to-text transcript (or typed text). */
export interface UtteranceInput {
  type: 'utterance';
  text: string;
}

/** A tool call from the LLM, tagged with the epoch its generation was asked for in. */
export interface ToolCallInput {
  type: 'tool_call';
  name: string;
  args: unknown;
  epoch: number;
  call_id?: string;
}

/** Time has passed: deadlines up to `now` fall due. */
export interface TickInput {
  type: 'tick';
}

/** The runtime's answer to an `action_run`. */
export interface ActionDoneInput {
  type: 'action_done';
  action_id: string;
  ok: boolean;
  data?: unknown;
  error?: string;
  /** a failure the target answered: its HTTP status */
  status?: number;
}

/** Something the runtime cannot recover from (e.g. the LLM is required and gone). */
export interface FatalErrorInput {
  type: 'fatal_error';
  message: string;
}

export type EngineInput =
  | UiEventInput
  | UtteranceInput
  | ToolCallInput
  | TickInput
  | ActionDoneInput
  | FatalErrorInput;

/** Arbitration rank of simultaneous inputs: lower wins (docs/vfdl.md, "How a step runs"). */
export function inputPriority(input: EngineInput): number {
  switch (input.type) {
    case 'ui_event':
      return 1;
    case 'tool_call':
      return 2;
    case 'utterance':
      return 3;
    case 'tick':
      return 4;
    default:
      return 0;
  }
}
