// The normalized flow model: what a VFDL file means once it has been parsed and checked.
// Every spelling the language accepts (seed, SPEC and Prepatu forms) ends up in this one shape.
// Its records keyed by names (states, variables, tools, events) have no prototype (records.ts).

import { own } from './records.ts';
import type { TurnTakingDef } from './turn-taking.ts';

/** A path into the source document, used to point diagnostics at the right node. */
export type SourcePath = readonly (string | number)[];

/** Value types a variable or tool parameter may have. */
export type ValueType =
  | 'string'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'date'
  | 'email'
  | 'phone'
  | 'name'
  | 'enum'
  | 'object';

export const END = '__end__';
export const ERROR = '__error__';
/** As a target, the state it is written in (a re-prompt: the state entered again). */
export const SELF = 'self';

/** A declared variable (`variables:`). */
export interface VariableDecl {
  name: string;
  type: ValueType;
  required: boolean;
  default?: unknown;
  enum?: readonly unknown[];
  persist: boolean;
  /** how the kiosk names it to a visitor (the end screen, notices) */
  label?: string;
  /** the end screen shows it: what the visitor takes away (a queue number); nothing else is shown there */
  showAtEnd: boolean;
  at: SourcePath;
}

/** One parameter of a tool: a small JSON-Schema-like description. */
export interface ParamDef {
  name: string;
  type: ValueType;
  required: boolean;
  description?: string;
  enum?: readonly unknown[];
  pattern?: string;
  min?: number;
  max?: number;
  at: SourcePath;
}

/** An HTTP effect declared on a tool; the runtime performs it, the engine only asks. */
export interface HttpEffect {
  method: string;
  url: string;
  body?: unknown;
  headers?: Readonly<Record<string, string>>;
  /** variable name -> dotted path into the JSON answer */
  capture: Readonly<Record<string, string>>;
  /** how long the call may take (the server's default when absent) */
  timeoutSeconds?: number;
}

export interface ToolDef {
  name: string;
  description: string;
  parameters: readonly ParamDef[];
  /** parameter name -> variable it sets (default: the same name) */
  capture: Readonly<Record<string, string>>;
  /** An action-gated write: stored and confirmed before it runs. */
  confirm: boolean;
  summary?: string;
  expiresAfter?: number;
  http?: HttpEffect;
  speechCue?: string;
  /** parameter name -> patterns tried on the latest utterance when the LLM's value is missing */
  autoExtract: Readonly<Record<string, readonly string[]>>;
  at: SourcePath;
}

export type Operator =
  | 'eq'
  | 'neq'
  | 'in'
  | 'not_in'
  | 'empty'
  | 'not_empty'
  | 'gt'
  | 'lt'
  | 'gte'
  | 'lte'
  | 'matches';

export interface Condition {
  variable: string;
  /** the condition is on the age in whole years, today, of the date in `variable` (`age_of`) */
  age: boolean;
  operator: Operator;
  value?: unknown;
  at: SourcePath;
}

export type Guard =
  | { all: readonly (Condition | Guard)[] }
  | { any: readonly (Condition | Guard)[] };

/** One candidate of a transition: a target, values to set, and an optional guard. */
export interface Branch {
  target: string;
  set: Readonly<Record<string, unknown>>;
  guard?: Guard;
  /** in `on_action_failed` only: the HTTP statuses of the target's answer this branch is for */
  status?: readonly number[];
  at: SourcePath;
}

export interface UtteranceRule {
  pattern: string;
  /** variables for groups 1..n */
  captureTo: readonly string[];
  /** named groups in the pattern; each captures to the variable of its name */
  namedGroups: readonly string[];
  branches: readonly Branch[];
  requiresConfirmation: boolean;
  at: SourcePath;
}

export interface TimeoutRule {
  seconds: number;
  target: string;
  maxRetries?: number;
  fallback?: string;
  at: SourcePath;
}

/**
 * "Didn't understand" (`on_no_match`): once `maxRetries` of the visitor's answers in a row have
 * come to nothing, the next answer that no phrase or rule takes goes to `fallback`.
 */
export interface NoMatchRule {
  maxRetries: number;
  fallback: string;
  at: SourcePath;
}

/** Where a tool's HTTP action leads once it has ended (`on_action`). */
export interface ActionOutcomes {
  /** taken when it succeeded, instead of the tool's on_tool_call mapping */
  done?: readonly Branch[];
  /** taken when it failed (an error status, a time-out, a refused host, ...) */
  failed?: readonly Branch[];
}

export interface Transitions {
  onUiEvent: Readonly<Record<string, readonly Branch[]>>;
  onToolCall: Readonly<Record<string, readonly Branch[]>>;
  /** tool -> where its action leads when it is done or failed (absent: nowhere of its own) */
  onAction?: Readonly<Record<string, ActionOutcomes>>;
  onUtterance: readonly UtteranceRule[];
  onTimeout?: TimeoutRule;
  onNoMatch?: NoMatchRule;
}

export type HookAction =
  | { kind: 'set'; values: Readonly<Record<string, unknown>>; at: SourcePath }
  | { kind: 'clear'; variables: readonly string[]; at: SourcePath }
  | { kind: 'emit'; event: string; data?: Readonly<Record<string, unknown>>; at: SourcePath }
  /** on entering: run the tool's HTTP action at once, its arguments from the variables */
  | { kind: 'call'; tool: string; at: SourcePath };

export interface ChoiceOption {
  id: string;
  label: string;
  description?: string;
}

export type FieldType =
  | 'text'
  | 'email'
  | 'tel'
  | 'number'
  | 'date'
  | 'select'
  | 'radio'
  | 'checkbox';

export interface Field {
  id: string;
  type: FieldType;
  label: string;
  required: boolean;
  placeholder?: string;
  options?: readonly ChoiceOption[];
  /** text fields: a regular expression the value must match (not anchored) */
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  /** number fields: numbers; date fields: dates or today counted from (today - 18 years) */
  min?: number | string;
  max?: number | string;
  /** what the visitor reads when the value breaks a rule */
  message?: string;
  /** text fields: the value is written in this case from every source, before its rules are checked */
  case?: 'upper' | 'lower';
  at: SourcePath;
}

/** A rule of a field that a value breaks, for the visitor and the LLM (field-rules.ts). */
export interface FieldProblem {
  rule: 'pattern' | 'min' | 'max' | 'min_length' | 'max_length';
  /** the bound: a pattern, a number, a length, or a date (YYYY-MM-DD) */
  limit: number | string;
  /** the bound as the visitor reads it (a date in words), where it differs */
  shown?: string;
  /** the field's own message, in the visit's language */
  message?: string;
}

export interface UiAction {
  event: string;
  label: string;
  /** a tap proposes this tool's action (or runs it, when it needs no confirmation) */
  tool?: string;
}

/** Artifacts this kiosk renders; other Prepatu types are kept as `other`. */
export type ArtifactType = 'form' | 'options' | 'card' | 'other';

export interface Artifact {
  type: ArtifactType;
  /** the artifact_type as written (e.g. orb_layout for `other`) */
  declaredType: string;
  title?: string;
  /** heading or body text (`prompt`, `text` or `content`) */
  text?: string;
  fields: readonly Field[];
  /** the form's button; where the flow gives none, `flow_state` has the kiosk's word ("Continue", "Weiter") */
  submitLabel?: string;
  options: readonly ChoiceOption[];
  /** for `options`: the variable a tap sets */
  variable?: string;
  actions: readonly UiAction[];
  params?: Readonly<Record<string, unknown>>;
}

export interface Gate {
  variables: readonly string[];
  onConfirm: readonly Branch[];
  onReject: { action: 'clear' | 'keep'; target?: string };
  expiresAfter?: number;
  prompt?: string;
  confirmPhrases: readonly string[];
  rejectPhrases: readonly string[];
  notifyLlm: boolean;
  notifyClient: boolean;
  /** true when the gate was made from `requires_confirmation` utterance rules */
  implicit: boolean;
  at: SourcePath;
}

export interface ResponseConstraint {
  maxTokens?: number;
  temperature?: number;
  stopPhrases?: readonly string[];
}

export interface AgentDef {
  prompt: string;
  /** what the kiosk says on entering the state, as written (interpolated), instead of the LLM's first turn */
  say?: string;
  tools: readonly string[];
  context: 'append' | 'reset';
  responseConstraint?: ResponseConstraint;
}

export { TURN_TAKING_DEFAULTS, type TurnTakingDef } from './turn-taking.ts';

export interface StateDef {
  id: string;
  onEnter: readonly HookAction[];
  onExit: readonly HookAction[];
  ui?: Artifact;
  agent: AgentDef;
  /** tools defined inside the state (override top-level ones) */
  tools: Readonly<Record<string, ToolDef>>;
  gate?: Gate;
  /** this state's listening settings, over the flow's */
  turnTaking: TurnTakingDef;
  transitions: Transitions;
  /** a decision step (`decide`): on entering it, the first branch whose guard holds is taken at once */
  decide?: readonly Branch[];
  /** no transitions, no gate and no decision: entering it ends the flow after its entry sequence */
  terminal: boolean;
  /** who hears about a blocked transition here (`on_transition_blocked`; a gate's own wins) */
  blockedNotice: { notifyLlm: boolean; notifyClient: boolean };
  at: SourcePath;
}

/**
 * Flow-wide ways out (`global`): in every state but terminal ones and those in `except`, below
 * the state's own transitions in priority, and not held back by a confirmation gate.
 */
export interface GlobalDef {
  onUiEvent: Readonly<Record<string, readonly Branch[]>>;
  onToolCall: Readonly<Record<string, readonly Branch[]>>;
  onUtterance: readonly UtteranceRule[];
  /** for every state without its own */
  onNoMatch?: NoMatchRule;
  /** tools of the flow's `tools` offered to the LLM in every state */
  tools: readonly string[];
  /** buttons on every screen */
  actions: readonly UiAction[];
  except: readonly string[];
  at: SourcePath;
}

export interface FlowSettings {
  maxDurationSecs?: number;
  onTimeout?: string;
  onError?: string;
  llmRequired: boolean;
  allowBack: boolean;
  notifyLlm: boolean;
  notifyClient: boolean;
}

export interface Flow {
  vfdl: 1;
  id: string;
  title: string;
  description?: string;
  version?: string;
  /** the language of this flow's texts (the visit's: see loadFlow's inLanguage) */
  language: string;
  /** the language of texts written as plain strings, and of every visit until the visitor chooses another */
  defaultLanguage: string;
  /** the languages a visitor may choose, the default among them */
  languages: readonly string[];
  mode: 'kiosk' | 'assistant';
  basePrompt: string;
  initial: string;
  variables: Readonly<Record<string, VariableDecl>>;
  tools: Readonly<Record<string, ToolDef>>;
  states: Readonly<Record<string, StateDef>>;
  /** listening settings for every state */
  turnTaking: TurnTakingDef;
  /** state ids in the order they were written */
  stateOrder: readonly string[];
  settings: FlowSettings;
  global?: GlobalDef;
}

export const CONFIRM_ACTION = 'confirm_action';
/** The generated tool that changes the visit's language, in every state of a flow of several. */
export const SET_LANGUAGE = 'set_language';
export const REJECT_ACTION = 'reject_action';
/** The generated tool by which words go back as the step's Back or change button would (touch.ts, backButtons). */
export const GO_BACK = 'go_back';

/**
 * The definition of a tool as seen from a state: its own first, then the flow's, then (as
 * Prepatu's flows allow) the first other state that defines it; `vfdl check` warns about that.
 */
export function resolveTool(flow: Flow, state: StateDef, name: string): ToolDef | undefined {
  return own(state.tools, name) ?? own(flow.tools, name) ?? toolOfAnotherState(flow, name)?.tool;
}

/** The first state, in the order written, whose own `tools` define `name`. */
export function toolOfAnotherState(flow: Flow, name: string): { state: string; tool: ToolDef } | undefined {
  for (const id of flow.stateOrder) {
    const tool = own(own(flow.states, id)?.tools, name);
    if (tool) return { state: id, tool };
  }
  return undefined;
}

/** True when a state offers an action-gated tool, so confirm_action/reject_action exist there. */
export function hasActionGate(flow: Flow, state: StateDef): boolean {
  const tools = [...state.agent.tools, ...(state.ui?.actions ?? []).flatMap((a) => (a.tool ? [a.tool] : []))];
  return tools.some((t) => resolveTool(flow, state, t)?.confirm === true);
}
