// The language model behind an OpenAI-compatible Chat Completions endpoint: one streamed turn per
// request, text as it arrives, tool calls once the stream has ended, one retry, ServiceErrors.

import type OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { LanguageModel, ToolCallRequest, TurnChunk, TurnRequest } from '../../ports/language-model.ts';
import { ServiceError } from '../../ports/service-error.ts';
import type { Timers } from '../../ports/timers.ts';
import { toChatParams } from './chat-request.ts';
import { createOpenAIClient } from './client.ts';
import { RequestWatch, toServiceError } from './failures.ts';

export interface OpenAIChatModelOptions {
  /** the API's base URL, e.g. `${origin}/api/llm` (requests go to `${baseURL}/chat/completions`) */
  baseURL: string | URL;
  model: string;
  /** how long to wait for the first chunk of the stream (default 15000) */
  firstChunkTimeoutMs?: number;
  /** how long to wait for each next chunk (default 15000) */
  idleTimeoutMs?: number;
  /** the clock of those waits (the browser's timers; tests drive their own) */
  timers?: Timers;
}

/** A LanguageModel over OpenAI's streamed chat completions with tools. */
export class OpenAIChatModel implements LanguageModel {
  readonly name: string;
  private readonly client: OpenAI;
  private readonly firstChunkTimeoutMs: number;
  private readonly idleTimeoutMs: number;

  constructor(private readonly options: OpenAIChatModelOptions) {
    this.name = `openai:${options.model}`;
    this.client = createOpenAIClient(options.baseURL);
    this.firstChunkTimeoutMs = options.firstChunkTimeoutMs ?? 15_000;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 15_000;
  }

  /**
   * Streams one turn. A failure before anything was yielded is tried once more; after that (or
   * after text has been yielded) it throws a ServiceError. An aborted turn just ends.
   */
  async *generate(request: TurnRequest): AsyncGenerator<TurnChunk> {
    for (let attempt = 1; ; attempt++) {
      let yielded = false;
      try {
        for await (const chunk of this.stream(request)) {
          yielded = true;
          yield chunk;
        }
        return;
      } catch (error) {
        if (request.signal?.aborted) return;
        if (yielded || attempt >= 2) throw toServiceError('llm', error);
      }
    }
  }

  /** One attempt: one HTTP request and its stream. */
  private async *stream(request: TurnRequest): AsyncGenerator<TurnChunk> {
    const watch = new RequestWatch(request.signal, this.options.timers);
    const calls = new ToolCallAssembly();
    let chunks = 0;
    let finished = false;
    try {
      watch.arm(this.firstChunkTimeoutMs);
      const stream = await this.client.chat.completions.create(toChatParams(this.options.model, request), { signal: watch.signal });
      for await (const chunk of stream) {
        chunks++;
        watch.arm(this.idleTimeoutMs);
        const choice = firstChoice(chunk);
        if (!choice) continue; // a usage-only chunk
        const delta = choice.delta ?? {};
        if (typeof delta.content === 'string' && delta.content !== '') yield { type: 'text', delta: delta.content };
        delta.tool_calls?.forEach((piece, position) => calls.add(piece, position));
        if (choice.finish_reason) finished = true;
      }
    } catch (error) {
      if (watch.timedOut) throw this.timeout(chunks);
      if (watch.cancelled) return;
      throw error;
    } finally {
      watch.dispose();
    }
    // The client ends a stream quietly when its request is aborted, so look again.
    if (watch.timedOut) throw this.timeout(chunks);
    if (watch.cancelled) return;
    if (!finished) throw new ServiceError('llm', 'malformed', 'the stream ended without a finish_reason');
    for (const call of calls.complete()) yield { type: 'tool_call', call };
  }

  private timeout(chunks: number): ServiceError {
    return chunks === 0
      ? new ServiceError('llm', 'timeout', `no first chunk within ${this.firstChunkTimeoutMs} ms`)
      : new ServiceError('llm', 'timeout', `no next chunk within ${this.idleTimeoutMs} ms (after ${chunks})`);
  }
}

function firstChoice(chunk: ChatCompletionChunk): ChatCompletionChunk.Choice | undefined {
  if (typeof chunk !== 'object' || chunk === null || !Array.isArray(chunk.choices)) {
    throw new ServiceError('llm', 'malformed', `a chunk without choices: ${JSON.stringify(chunk).slice(0, 200)}`);
  }
  return chunk.choices[0];
}

/** Tool calls put together from their fragments, by `index`. */
class ToolCallAssembly {
  private readonly byIndex = new Map<number, { id: string; name: string; arguments: string }>();

  add(piece: ChatCompletionChunk.Choice.Delta.ToolCall, position: number): void {
    // A few servers leave `index` out when they send each call whole.
    const index = typeof piece.index === 'number' ? piece.index : position;
    let call = this.byIndex.get(index);
    if (!call) {
      call = { id: '', name: '', arguments: '' };
      this.byIndex.set(index, call);
    }
    if (piece.id && !call.id) call.id = piece.id;
    if (piece.function?.name && !call.name) call.name = piece.function.name;
    if (typeof piece.function?.arguments === 'string') call.arguments += piece.function.arguments;
  }

  /** The calls in index order; arguments stay raw text, however malformed. */
  complete(): ToolCallRequest[] {
    return [...this.byIndex.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => {
        if (!call.name) throw new ServiceError('llm', 'malformed', `tool call ${index} has no function name`);
        return { id: call.id || `call_${index}_${Date.now().toString(36)}`, name: call.name, arguments: call.arguments };
      });
  }
}
