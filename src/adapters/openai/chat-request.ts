// Our turn request in OpenAI's Chat Completions spelling: the history, the tools and the state's
// response constraint. The only place the kiosk's messages meet the vendor's shape.

import type { ChatCompletionCreateParamsStreaming, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ResponseConstraintWire, ToolSpec } from '../../engine/runtime/messages.ts';
import type { ChatMessage, TurnRequest } from '../../ports/language-model.ts';

/** OpenAI accepts at most this many stop sequences. */
export const MAX_STOP_PHRASES = 4;

/** The streaming request body for one turn. */
export function toChatParams(model: string, request: TurnRequest): ChatCompletionCreateParamsStreaming {
  const params: ChatCompletionCreateParamsStreaming = {
    model,
    messages: request.messages.map(toOpenAIMessage),
    stream: true,
  };
  if (request.tools.length > 0) params.tools = request.tools.map(toOpenAITool);
  applyConstraint(params, request.responseConstraint);
  return params;
}

/** One history message in OpenAI's shape. */
export function toOpenAIMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.tool_call_id, content: message.content };
    case 'assistant': {
      const calls = message.tool_calls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        // A turn that only called tools has no words: OpenAI wants null there rather than "".
        content: message.content === '' ? null : message.content,
        tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
      };
    }
  }
}

function toOpenAITool(tool: ToolSpec): ChatCompletionTool {
  const { name, description, parameters } = tool.function;
  return { type: 'function', function: { name, description, parameters: { ...parameters } } };
}

function applyConstraint(params: ChatCompletionCreateParamsStreaming, constraint: ResponseConstraintWire | undefined): void {
  if (!constraint) return;
  if (constraint.max_tokens !== undefined) params.max_tokens = constraint.max_tokens;
  if (constraint.temperature !== undefined) params.temperature = constraint.temperature;
  const stop = (constraint.stop_phrases ?? []).filter((phrase) => phrase !== '').slice(0, MAX_STOP_PHRASES);
  if (stop.length > 0) params.stop = stop;
}
