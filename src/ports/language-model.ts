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
  | { type: 'form_value'; field: string; value: string }
  /**
   * A button of the screen the visitor asked for by its words ("go back", "change my details"):
   * the runtime taps it as the visitor could, once the reply is over, and notes it in the history
   * (`tappedNote`). Only a tap that goes back to a step of this visit is made: `back` where the
   * step has Back, or a button of the step's own that no tool stands for; one that would move
   * the visit on is refused. The offline agent's; a network model sends none.
   */
  | { type: 'ui_event'; event: string };

/** How the history notes a tap the model asked for, after the model's reply: the screen's button by its event. */
export function tappedNote(event: string): string {
  return `${TAPPED_NOTE}${event}`;
}

/** The start of every `tappedNote`. */
export const TAPPED_NOTE = '[kiosk] At the visitor\'s words, the kiosk tapped the button for them: ';

export interface LanguageModel {
  readonly name: string;
  /** Streams one assistant turn. Throws (or rejects) on a failure the caller should handle. */
  generate(request: TurnRequest): AsyncIterable<TurnChunk>;
}
