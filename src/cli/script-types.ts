// The shape of a conversation test script (docs/vfdl.md, "Conversation tests") once read: its
// steps, expectations and canned answers, each with the line it was written on, and the context the readers report problems through.

import type { Document } from 'yaml';
import type { DiagnosticCode } from '../engine/language/diagnostics.ts';
import type { EngineMessageType } from '../engine/runtime/messages.ts';
import type { Pattern } from './expect-pattern.ts';

export type EpochRef = 'current' | 'previous' | number;

export type Step =
  | { kind: 'user'; text: string; line: number }
  | { kind: 'tool'; name: string; args: unknown; epoch: EpochRef; callId?: string; line: number }
  | { kind: 'ui'; event: string; values?: Record<string, unknown>; variable?: string; variables?: string[]; value?: unknown; selectedId?: string; line: number }
  | { kind: 'wait'; seconds: number; line: number }
  | { kind: 'language'; language: string; line: number }
  /** the answer held for the tool's oldest request that waits is given now */
  | { kind: 'release'; tool: string; line: number; col: number }
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
  /** the end screen's list of what the visitor gave (label and value as the visitor reads them): exactly these lines, in order */
  given?: Pattern[];
}

/**
 * What a tool's HTTP effect gets in a test instead of a real call: a status and JSON, or no answer
 * in time; with `hold`, it is held until a `release` step gives it (an action in flight meanwhile).
 */
export type CannedAnswer = ({ status: number; body?: unknown } | { timeout: true }) & { line: number; hold?: true };

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
  /** the day the test runs on (YYYY-MM-DD): the virtual clock starts at noon that day */
  today?: string;
  /** tool -> the answers its requests get, one each, in order */
  answers: Record<string, CannedAnswer[]>;
  /** where each tool of `answers` is written, for naming an unknown one */
  answerRefs: FlowRef[];
  /** where each `release` step names its tool, for naming one with no answer held */
  releaseRefs: FlowRef[];
  steps: Step[];
}

/** What the readers of a script share: its YAML document, where to report a problem, and a node's place. */
export interface ReadContext {
  doc: Document;
  problem: (node: unknown, message: string, code?: DiagnosticCode) => void;
  at: (node: unknown) => { line: number; col: number };
}
