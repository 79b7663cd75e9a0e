// What the fake chat endpoint accepts: a Chat Completions body checked the way OpenAI checks it
// (models, roles, tool calls answered in order, tools, stop), so a wrong request fails loudly.

import { BadRequest } from './fake-http.ts';

/** One message of a request, as parsed from its JSON. */
export interface WireMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  name?: string;
}

/** A checked request body (other fields pass through as they came). */
export interface ChatRequestBody {
  model: string;
  messages: WireMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean } | null;
  tools?: { type: 'function'; function: { name: string; description?: string; parameters?: Record<string, unknown> } }[];
  max_tokens?: number;
  temperature?: number;
  stop?: string | string[];
  [key: string]: unknown;
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Checks a parsed body; throws BadRequest with OpenAI's kind of message when it is wrong. */
export function checkChatRequest(body: unknown): ChatRequestBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadRequest('The request body must be a JSON object.');
  const b = body as Record<string, unknown>;
  if (typeof b.model !== 'string' || b.model === '') throw new BadRequest('you must provide a model parameter', 'model');
  if (!Array.isArray(b.messages) || b.messages.length === 0) throw new BadRequest("[] is too short - 'messages'", 'messages');
  b.messages.forEach(checkMessage);
  checkToolAnswers(b.messages as WireMessage[]);
  if (b.tools !== undefined) checkTools(b.tools);
  if (b.stop !== undefined && b.stop !== null) {
    const stop = Array.isArray(b.stop) ? b.stop : [b.stop];
    if (stop.length > 4) throw new BadRequest(`${JSON.stringify(b.stop)} is too long - 'stop'`, 'stop');
    if (!stop.every((s) => typeof s === 'string')) throw new BadRequest("stop sequences must be strings - 'stop'", 'stop');
  }
  if (b.max_tokens !== undefined && (!Number.isInteger(b.max_tokens) || (b.max_tokens as number) < 1)) {
    throw new BadRequest(`Invalid 'max_tokens': integer below minimum value.`, 'max_tokens', 'integer_below_min_value');
  }
  if (b.temperature !== undefined && (typeof b.temperature !== 'number' || b.temperature < 0 || b.temperature > 2)) {
    throw new BadRequest(`Invalid 'temperature': must be a number between 0 and 2.`, 'temperature');
  }
  if (b.n !== undefined && b.n !== 1) throw new BadRequest('The fake answers only n = 1.', 'n');
  return b as ChatRequestBody;
}

function checkMessage(message: unknown, i: number): void {
  const where = `messages[${i}]`;
  if (typeof message !== 'object' || message === null) throw new BadRequest(`Invalid type for '${where}': expected an object.`, where);
  const m = message as WireMessage;
  if (!ROLES.has(m.role)) throw new BadRequest(`Invalid value: '${String(m.role)}'. Supported values are: ${[...ROLES].join(', ')}.`, `${where}.role`);
  const content = m.content;
  const textual = typeof content === 'string' || Array.isArray(content);
  if (m.role === 'assistant') {
    if (!(textual || content === null || content === undefined)) throw new BadRequest(`Invalid type for '${where}.content'.`, `${where}.content`);
    if (!textual && !m.tool_calls?.length) throw new BadRequest(`Invalid value for '${where}.content': expected a string, got null.`, `${where}.content`);
    m.tool_calls?.forEach((call, k) => {
      const at = `${where}.tool_calls[${k}]`;
      if (typeof call?.id !== 'string' || call.id === '') throw new BadRequest(`Missing required parameter: '${at}.id'.`, `${at}.id`);
      if (call.type !== 'function') throw new BadRequest(`Invalid value for '${at}.type': expected 'function'.`, `${at}.type`);
      if (typeof call.function?.name !== 'string') throw new BadRequest(`Missing required parameter: '${at}.function.name'.`, `${at}.function.name`);
      if (typeof call.function.arguments !== 'string') throw new BadRequest(`Invalid type for '${at}.function.arguments': expected a string.`, `${at}.function.arguments`);
    });
  } else if (!textual) {
    throw new BadRequest(`Invalid type for '${where}.content': expected one of a string or array of objects.`, `${where}.content`);
  }
  if (m.role === 'tool' && (typeof m.tool_call_id !== 'string' || m.tool_call_id === '')) {
    throw new BadRequest(`Missing required parameter: '${where}.tool_call_id'.`, `${where}.tool_call_id`);
  }
}

/** Every assistant tool call is answered by the tool messages right after it, and only those. */
function checkToolAnswers(messages: WireMessage[]): void {
  let open: Set<string> | null = null;
  messages.forEach((m, i) => {
    if (m.role === 'tool') {
      if (!open || !open.delete(m.tool_call_id!)) {
        throw new BadRequest(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${i}].role`,
        );
      }
      return;
    }
    if (open && open.size > 0) throw missingAnswers(open);
    open = m.role === 'assistant' && m.tool_calls?.length ? new Set(m.tool_calls.map((c) => c.id)) : null;
  });
  if (open && (open as Set<string>).size > 0) throw missingAnswers(open);
}

function missingAnswers(ids: Set<string>): BadRequest {
  return new BadRequest(
    `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...ids].join(', ')}`,
    'messages',
  );
}

function checkTools(tools: unknown): void {
  if (!Array.isArray(tools)) throw new BadRequest("Invalid type for 'tools': expected an array.", 'tools');
  if (tools.length === 0) throw new BadRequest("[] is too short - 'tools'", 'tools');
  tools.forEach((tool: { type?: unknown; function?: { name?: unknown; parameters?: unknown } }, i) => {
    if (tool?.type !== 'function') throw new BadRequest(`Invalid value for 'tools[${i}].type'.`, `tools[${i}].type`);
    const name = tool.function?.name;
    if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
      throw new BadRequest(`Invalid 'tools[${i}].function.name': string does not match pattern.`, `tools[${i}].function.name`);
    }
    const parameters = tool.function?.parameters;
    if (parameters !== undefined && (typeof parameters !== 'object' || parameters === null)) {
      throw new BadRequest(`Invalid type for 'tools[${i}].function.parameters'.`, `tools[${i}].function.parameters`);
    }
  });
}

/** A message's text: the string itself, or its text parts joined. */
export function messageText(message: WireMessage | undefined): string {
  if (!message) return '';
  if (typeof message.content === 'string') return message.content;
  if (Array.isArray(message.content)) {
    return message.content.map((part: { type?: string; text?: string }) => (part?.type === 'text' ? (part.text ?? '') : '')).join('');
  }
  return '';
}
