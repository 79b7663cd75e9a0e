// The language-model port: one streamed turn of a chat with tools, in the OpenAI message shape.
// Adapters (OpenAI-compatible HTTP, the offline agent, test fakes) implement it.

import type { FlowStateMessage, ResponseConstraintWire, ToolSpec } from '../engine/runtime/messages.ts';

export interface ToolCallRequest {
  id: string;
  name: string;
  /** JSON text, exactly as the model produced it (it may be malformed) */
  arguments: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; tool_calls?: ToolCallRequest[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/**
 * What the kiosk knows about the current screen. Network models ignore it; the offline agent
 * reads the fields, gate and values from it instead of understanding the prompt.
 */
export interface SceneHint {
  state: FlowStateMessage;
  values: Readonly<Record<string, unknown>>;
  /** gated variables captured but not yet confirmed */
  pending: readonly string[];
  /** the summary of an action waiting for the visitor's yes, if any */
  pendingAction?: string;
  /** the tools whose action is running for this step (sent, its answer not yet in) */
  running?: readonly string[];
  /** index in `messages` of the first message of the current step (after its state entry) */
  stepStart?: number;
}

export interface TurnRequest {
  messages: readonly ChatMessage[];
  tools: readonly ToolSpec[];
  responseConstraint?: ResponseConstraintWire;
  scene?: SceneHint;
  signal?: AbortSignal;
}

export type TurnChunk =
  | { type: 'text'; delta: string }
  | { type: 'tool_call'; call: ToolCallRequest }
  /**
   * A value the visitor gave for a field of the form on screen that no tool can take yet (the
   * offline agent's: "May 20" before the time and service that its tool also needs). The runtime
   * puts it in the field as if the visitor had typed it there; never into a gated field.
   */
  | { type: 'form_value'; field: string; value: string };

export interface LanguageModel {
  readonly name: string;
  /** Streams one assistant turn. Throws (or rejects) on a failure the caller should handle. */
  generate(request: TurnRequest): AsyncIterable<TurnChunk>;
}
