// OpenAIChatModel against the fake chat endpoint: streaming, tool calls, the history and
// constraint on the wire, abort, the one retry, and every failure as a ServiceError('llm').

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Timers } from '../../src/ports/timers.ts';
import { OpenAIChatModel, type OpenAIChatModelOptions } from '../../src/adapters/openai/chat-model.ts';
import type { ToolSpec } from '../../src/engine/runtime/messages.ts';
import type { ChatMessage, TurnChunk, TurnRequest } from '../../src/ports/language-model.ts';
import { ServiceError } from '../../src/ports/service-error.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../servers/openai-fakes.ts';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const model = (options: Partial<OpenAIChatModelOptions> = {}) => new OpenAIChatModel({ baseURL: fake.baseURL, model: 'gpt-test', ...options });

/** Timers the test runs out by hand: a wait ends when the test says, however busy the machine. */
class HandTimers implements Timers {
  private pending: { delayMs: number; fn: () => void }[] = [];
  schedule(delayMs: number, fn: () => void): () => void {
    const entry = { delayMs, fn };
    this.pending.push(entry);
    return () => (this.pending = this.pending.filter((e) => e !== entry));
  }
  /** Runs out every wait set for `delayMs`. */
  runOut(delayMs: number): void {
    const due = this.pending.filter((e) => e.delayMs === delayMs);
    this.pending = this.pending.filter((e) => e.delayMs !== delayMs);
    for (const e of due) e.fn();
  }
}

const saveName: ToolSpec = {
  type: 'function',
  function: {
    name: 'save_first_name',
    description: "Saves the visitor's first name",
    parameters: { type: 'object', properties: { first_name: { type: 'string' } }, required: ['first_name'], additionalProperties: false },
  },
};
const history: ChatMessage[] = [
  { role: 'system', content: 'Ask for the first name.' },
  { role: 'user', content: "I'm Ada" },
];
const turn = (extra: Partial<TurnRequest> = {}): TurnRequest => ({ messages: history, tools: [saveName], ...extra });

async function collect(chunks: AsyncIterable<TurnChunk>): Promise<TurnChunk[]> {
  const out: TurnChunk[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

async function failure(chunks: AsyncIterable<TurnChunk>): Promise<{ error: ServiceError; before: TurnChunk[] }> {
  const before: TurnChunk[] = [];
  try {
    for await (const chunk of chunks) before.push(chunk);
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return { error: error as ServiceError, before };
  }
  throw new Error(`no failure; got ${JSON.stringify(before)}`);
}

const texts = (chunks: TurnChunk[]) => chunks.flatMap((c) => (c.type === 'text' ? [c.delta] : []));
const calls = (chunks: TurnChunk[]) => chunks.flatMap((c) => (c.type === 'tool_call' ? [c.call] : []));

describe('OpenAIChatModel', () => {
  it('is named after its model', () => {
    expect(model().name).toBe('openai:gpt-test');
  });

  it('yields text deltas in order, while the stream is still running', async () => {
    const text = 'Welcome to the clinic. What is your first name?';
    fake.llm.script([{ reply: { text } }]);
    fake.llm.chunkDelayMs = 15;
    const deltas: string[] = [];
    let completedAtFirst = -1;
    for await (const chunk of model().generate(turn())) {
      if (chunk.type !== 'text') continue;
      if (deltas.length === 0) completedAtFirst = fake.llm.completed;
      deltas.push(chunk.delta);
    }
    expect(completedAtFirst).toBe(0);
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join('')).toBe(text);
    expect(fake.llm.completed).toBe(1);
  });

  it('assembles tool calls from their fragments and yields them after the text', async () => {
    fake.llm.script([
      {
        when: { user: /Ada/ },
        reply: {
          text: 'Thanks, Ada.',
          tool_calls: [
            { name: 'save_first_name', arguments: { first_name: 'Ada' } },
            { name: 'save_first_name', arguments: { first_name: 'Ada Augusta, Countess of Lovelace' } },
          ],
        },
      },
    ]);
    const chunks = await collect(model().generate(turn()));
    expect(texts(chunks).join('')).toBe('Thanks, Ada.');
    expect(chunks.findIndex((c) => c.type === 'tool_call')).toBe(texts(chunks).length);
    const got = calls(chunks);
    expect(got.map((c) => [c.name, c.arguments])).toEqual([
      ['save_first_name', '{"first_name":"Ada"}'],
      ['save_first_name', '{"first_name":"Ada Augusta, Countess of Lovelace"}'],
    ]);
    expect(got[0]!.id).toMatch(/^call_/);
    expect(got[0]!.id).not.toBe(got[1]!.id);
  });

  it('passes malformed tool-call arguments through as text', async () => {
    fake.llm.script([{ reply: { tool_calls: [{ name: 'save_first_name', arguments: '{"first_name": "Ada"' }] } }]);
    const chunks = await collect(model().generate(turn()));
    expect(chunks).toEqual([{ type: 'tool_call', call: { id: expect.stringMatching(/^call_/), name: 'save_first_name', arguments: '{"first_name": "Ada"' } }]);
  });

  it('sends the history in OpenAI shape: tool calls, then their results', async () => {
    fake.llm.script([{ when: { last: 'tool' }, reply: { text: 'Saved.' } }]);
    const messages: ChatMessage[] = [
      ...history,
      { role: 'assistant', content: '', tool_calls: [{ id: 'call_a', name: 'save_first_name', arguments: '{"first_name":"Ada"}' }] },
      { role: 'tool', tool_call_id: 'call_a', content: '{"ok":true}' },
      { role: 'system', content: 'The name is saved.' },
      { role: 'assistant', content: 'Is that right?' },
    ];
    const rest: ChatMessage[] = [
      { role: 'user', content: 'yes' },
      { role: 'assistant', content: 'Good.', tool_calls: [{ id: 'call_b', name: 'save_first_name', arguments: '{}' }] },
      { role: 'tool', tool_call_id: 'call_b', content: '{"ok":false}' },
    ];
    const chunks = await collect(model().generate(turn({ messages: [...messages, ...rest] })));
    expect(texts(chunks).join('')).toBe('Saved.');
    const sent = fake.llm.requests[0]!;
    expect(sent).toMatchObject({ model: 'gpt-test', stream: true, tools: [saveName] });
    expect(sent.messages).toEqual([
      { role: 'system', content: 'Ask for the first name.' },
      { role: 'user', content: "I'm Ada" },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'save_first_name', arguments: '{"first_name":"Ada"}' } }] },
      { role: 'tool', tool_call_id: 'call_a', content: '{"ok":true}' },
      { role: 'system', content: 'The name is saved.' },
      { role: 'assistant', content: 'Is that right?' },
      { role: 'user', content: 'yes' },
      { role: 'assistant', content: 'Good.', tool_calls: [{ id: 'call_b', type: 'function', function: { name: 'save_first_name', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_b', content: '{"ok":false}' },
    ]);
  });

  it('sends the response constraint (four stop phrases at most) and leaves out empty tools', async () => {
    const responseConstraint = { max_tokens: 60, temperature: 0.2, stop_phrases: ['Goodbye', 'Bye', 'See you', 'Farewell', 'Ciao'] };
    await collect(model().generate(turn({ tools: [], responseConstraint })));
    const sent = fake.llm.requests[0]!;
    expect(sent).toMatchObject({ max_tokens: 60, temperature: 0.2, stop: ['Goodbye', 'Bye', 'See you', 'Farewell'] });
    expect('tools' in sent).toBe(false);
    await collect(model().generate(turn()));
    expect(fake.llm.requests[1]).not.toHaveProperty('stop');
    expect(fake.llm.requests[1]).not.toHaveProperty('max_tokens');
  });

  it('ends quietly when aborted mid-stream, and the fake sees the client leave', async () => {
    fake.llm.script([{ reply: { text: 'This is a long answer that the visitor interrupts before it is over.' } }]);
    fake.llm.chunkDelayMs = 20;
    const controller = new AbortController();
    const got: TurnChunk[] = [];
    for await (const chunk of model().generate(turn({ signal: controller.signal }))) {
      got.push(chunk);
      controller.abort();
    }
    expect(got).toHaveLength(1);
    await fake.llm.whenAborted(1);
    expect(fake.llm.completed).toBe(0);
    expect(fake.llm.requests).toHaveLength(1);
  });

  it('ends quietly when aborted before the first chunk, without a retry', async () => {
    fake.llm.fail('hang');
    const controller = new AbortController();
    const done = collect(model().generate(turn({ signal: controller.signal })));
    await fake.llm.whenRequested(1);
    controller.abort();
    expect(await done).toEqual([]);
    await fake.llm.whenAborted(1);
    expect(fake.llm.requests).toHaveLength(1);
  });

  it.each([
    ['http_500', 'http', 500],
    ['http_429', 'http', 429],
    ['refuse', 'network', undefined],
    ['malformed', 'malformed', undefined],
  ] as const)('retries %s once, then throws ServiceError(llm, %s)', async (mode, kind, status) => {
    fake.llm.fail(mode);
    const { error, before } = await failure(model().generate(turn()));
    expect(error).toMatchObject({ service: 'llm', failure: kind, status });
    expect(before).toEqual([]);
    expect(fake.llm.requests).toHaveLength(2);
  });

  it('times out when no first chunk comes, retries once, and abandons both requests', async () => {
    fake.llm.fail('hang');
    const timers = new HandTimers();
    const failed = failure(model({ firstChunkTimeoutMs: 80, timers }).generate(turn()));
    await fake.llm.whenRequested(1);
    timers.runOut(80);
    await fake.llm.whenRequested(2);
    timers.runOut(80);
    const { error } = await failed;
    expect(error).toMatchObject({ service: 'llm', failure: 'timeout' });
    expect(error.detail).toMatch(/first chunk/);
    await fake.llm.whenAborted(2);
    expect(fake.llm.requests).toHaveLength(2);
  });

  it('times out when the next chunk is too slow', async () => {
    // A next chunk 3 s away: the request is abandoned long before, whatever the machine is doing.
    fake.llm.chunkDelayMs = 3000;
    const { error } = await failure(model({ idleTimeoutMs: 60 }).generate(turn()));
    expect(error).toMatchObject({ service: 'llm', failure: 'timeout' });
    expect(error.detail).toMatch(/next chunk/);
    await fake.llm.whenAborted(2);
  });

  it('retries a stream cut before any text, then throws malformed', async () => {
    fake.llm.script([{ reply: { tool_calls: [{ name: 'save_first_name', arguments: { first_name: 'Ada' } }] } }]);
    fake.llm.fail('cut');
    const { error, before } = await failure(model().generate(turn()));
    expect(error).toMatchObject({ service: 'llm', failure: 'malformed' });
    expect(error.detail).toMatch(/finish_reason/);
    expect(before).toEqual([]);
    expect(fake.llm.requests).toHaveLength(2);
  });

  it('does not retry once text was yielded: a cut stream throws at once', async () => {
    fake.llm.script([{ reply: { text: 'Hello there, Ada.' } }]);
    fake.llm.fail('cut');
    const { error, before } = await failure(model().generate(turn()));
    expect(error).toMatchObject({ service: 'llm', failure: 'malformed' });
    expect(before).toEqual([{ type: 'text', delta: 'Hell' }]);
    expect(fake.llm.requests).toHaveLength(1);
  });

  it.each(['http_500', 'refuse', 'malformed', 'hang'] as const)('succeeds on the retry when %s happens once', async (mode) => {
    fake.llm.script([{ reply: { text: 'Hello again.' } }]);
    fake.llm.fail(mode, 1);
    const timers = new HandTimers();
    const collected = collect(model({ firstChunkTimeoutMs: 80, timers }).generate(turn()));
    // The first request hangs: its wait for a first chunk runs out; the retry's never does.
    if (mode === 'hang') {
      await fake.llm.whenRequested(1);
      timers.runOut(80);
    }
    const chunks = await collected;
    expect(texts(chunks).join('')).toBe('Hello again.');
    expect(fake.llm.requests).toHaveLength(2);
  });

  it('reports a refused request body as http 400', async () => {
    const unanswered: ChatMessage[] = [...history, { role: 'assistant', content: '', tool_calls: [{ id: 'call_x', name: 'save_first_name', arguments: '{}' }] }];
    const { error } = await failure(model().generate(turn({ messages: unanswered })));
    expect(error).toMatchObject({ service: 'llm', failure: 'http', status: 400 });
    expect(error.detail).toMatch(/call_x/);
  });
});
