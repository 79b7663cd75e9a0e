// The fake `POST /v1/chat/completions`: scripted replies streamed exactly as OpenAI streams them
// (SSE chunks, tool-call fragments, finish_reason, [DONE]), plain answers for `stream: false`,
// and staged failures. Requests and client aborts are counted for the tests.

import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { checkChatRequest, messageText, type ChatRequestBody } from './fake-chat-request.ts';
import { BadRequest, ClientWatch, CountWaiter, FailureSwitch, performOutage, sendError, sendJson, wallClock, type OutageMode } from './fake-http.ts';

/** How the fake chat can fail: the common outages, a data line that is not JSON, a stream cut short. */
export type ChatFailure = OutageMode | 'malformed' | 'cut';

/** One scripted answer; the first rule whose `when` matches a request answers it. */
export interface ChatRule {
  when?: {
    /** tested on the latest user message */
    user?: RegExp;
    /** tested on the first message, when it is a system message */
    system?: RegExp;
    /** the role of the last message */
    last?: 'user' | 'tool' | 'system';
  };
  reply: { text?: string; tool_calls?: { name: string; arguments: Record<string, unknown> | string }[] };
  /** answer one request only, then drop out of the script */
  once?: boolean;
  /** wait this long before answering */
  delayMs?: number;
}

interface Answer {
  text: string;
  calls: { id: string; name: string; arguments: string }[];
}

const TEXT_PIECE = 4;

/** The pause between the chunks of a held stream (shorter than the kiosk's 15 s wait for a next chunk). */
const HELD_CHUNK_MS = 5_000;

/** When a chat request came, and when each piece of its answer's text went out (wall clock). */
export interface ChatTime {
  receivedAt: number;
  text: { at: number; soFar: string }[];
}

/** The fake chat endpoint's controls and records. */
export class FakeChat {
  /** pause between stream chunks */
  chunkDelayMs = 5;
  /**
   * After this many chunks a stream slows to a chunk every few seconds (within a client's idle
   * wait): a reply still being written, however long the test takes to speak over it (null: at
   * `chunkDelayMs` to the end)
   */
  holdAfterChunks: number | null = null;
  /** every well-formed request body, in order (failed ones too) */
  readonly requests: ChatRequestBody[] = [];
  /** beside each request: when it came, and when each piece of the answer's text went out with the text so far */
  readonly times: ChatTime[] = [];
  /** requests whose client went away before the answer was complete */
  aborted = 0;
  /** answers delivered in full */
  completed = 0;
  private rules: ChatRule[] = [];
  /** bumped by reset, so answers still running from before it do not count after it */
  private generation = 0;
  private readonly failures = new FailureSwitch<ChatFailure>();
  private readonly abortWaiter = new CountWaiter(() => this.aborted);
  private readonly requestWaiter = new CountWaiter(() => this.requests.length);

  /** Replaces the script. */
  script(rules: ChatRule[]): void {
    this.rules = [...rules];
  }

  /** The next `count` requests fail in `mode`; `fail('ok')` ends a staged failure. */
  fail(mode: ChatFailure | 'ok', count = Infinity): void {
    this.failures.set(mode, count);
  }

  /** Resolves once `n` requests have been abandoned by their clients. */
  whenAborted(n = 1): Promise<void> {
    return this.abortWaiter.until(n);
  }

  /** Resolves once `n` well-formed requests have arrived. */
  whenRequested(n = 1): Promise<void> {
    return this.requestWaiter.until(n);
  }

  /** Back to a blank fake: no script, no failures, nothing recorded, default timing. */
  reset(): void {
    this.rules = [];
    this.failures.set('ok');
    this.requests.length = 0;
    this.times.length = 0;
    this.aborted = 0;
    this.completed = 0;
    this.chunkDelayMs = 5;
    this.holdAfterChunks = null;
    this.generation++;
  }

  /** Answers one request (the server has read its body). */
  async handle(res: ServerResponse, raw: Buffer): Promise<void> {
    const receivedAt = wallClock();
    const generation = this.generation;
    const current = () => generation === this.generation;
    const watch = new ClientWatch(res, () => {
      if (!current()) return;
      this.aborted++;
      this.abortWaiter.notify();
    });
    let body: ChatRequestBody;
    try {
      body = checkChatRequest(JSON.parse(raw.toString('utf8')));
    } catch (error) {
      if (error instanceof BadRequest) return sendError(res, 400, error.message, { param: error.param, code: error.code });
      return sendError(res, 400, 'We could not parse the JSON body of your request. The OpenAI API expects a JSON payload.');
    }
    this.requests.push(body);
    const time: ChatTime = { receivedAt, text: [] };
    this.times.push(time);
    this.requestWaiter.notify();
    const failure = this.failures.take();
    if (failure && performOutage(failure, res, watch)) return;
    const { answer, delayMs } = this.choose(body, failure === null);
    if (failure) return this.misbehave(failure, res, body, answer);
    if (!(await watch.pause(delayMs))) return;
    if (body.stream) await this.stream(res, watch, body, answer, time);
    else sendJson(res, 200, completion(body, answer));
    if (res.writableEnded && current()) this.completed++;
  }

  private choose(body: ChatRequestBody, consume: boolean): { answer: Answer; delayMs: number } {
    const messages = body.messages;
    const lastUser = [...messages].reverse().find((m) => m.role === 'user');
    const first = messages[0];
    const lastRole = messages[messages.length - 1]?.role;
    const test = (re: RegExp | undefined, text: string | null) => {
      if (!re) return true;
      re.lastIndex = 0;
      return text !== null && re.test(text);
    };
    const index = this.rules.findIndex(({ when = {} }) =>
      test(when.user, lastUser ? messageText(lastUser) : null) &&
      test(when.system, first?.role === 'system' ? messageText(first) : null) &&
      (when.last === undefined || when.last === lastRole),
    );
    const rule = this.rules[index];
    if (!rule) return { answer: { text: lastRole === 'tool' ? '' : 'Okay.', calls: [] }, delayMs: 0 };
    if (consume && rule.once) this.rules.splice(index, 1);
    const calls = (rule.reply.tool_calls ?? []).map((call) => ({
      id: `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
    }));
    return { answer: { text: rule.reply.text ?? '', calls }, delayMs: rule.delayMs ?? 0 };
  }

  private async stream(res: ServerResponse, watch: ClientWatch, body: ChatRequestBody, answer: Answer, time: ChatTime): Promise<void> {
    const chunk = chunkMaker(body);
    const events: object[] = [chunk({ role: 'assistant', content: '', refusal: null })];
    for (const piece of split(answer.text, Math.ceil(answer.text.length / TEXT_PIECE))) events.push(chunk({ content: piece }));
    answer.calls.forEach((call, index) => {
      events.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
      const pieces = split(call.arguments, Math.max(3, Math.ceil(call.arguments.length / 8)));
      for (const piece of pieces) events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    });
    events.push(chunk({}, answer.calls.length > 0 ? 'tool_calls' : 'stop'));
    if (body.stream_options?.include_usage) events.push({ ...chunk({}), choices: [], usage: usage(body, answer) });
    openStream(res);
    for (const [i, event] of events.entries()) {
      const held = this.holdAfterChunks !== null && i >= this.holdAfterChunks;
      if (i > 0 && !(await watch.pause(held ? HELD_CHUNK_MS : this.chunkDelayMs))) return;
      res.write(`data: ${JSON.stringify(event)}\n\n`);
      const piece = (event as { choices?: { delta?: { content?: string } }[] }).choices?.[0]?.delta?.content;
      if (piece) time.text.push({ at: wallClock(), soFar: (time.text.at(-1)?.soFar ?? '') + piece });
    }
    res.end('data: [DONE]\n\n');
  }

  /** `malformed`: a data line that is not JSON; `cut`: the stream ends after one text chunk. */
  private misbehave(failure: ChatFailure, res: ServerResponse, body: ChatRequestBody, answer: Answer): void {
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(completion(body, answer)).slice(0, 40));
      return;
    }
    const chunk = chunkMaker(body);
    openStream(res);
    res.write(`data: ${JSON.stringify(chunk({ role: 'assistant', content: '', refusal: null }))}\n\n`);
    if (failure === 'malformed') {
      res.end('data: {"id": "chatcmpl-broken", "choices": [ this is not JSON\n\n');
    } else {
      const first = answer.text.slice(0, TEXT_PIECE);
      res.end(first ? `data: ${JSON.stringify(chunk({ content: first }))}\n\n` : '');
    }
  }
}

function openStream(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
}

/** Builds the stream's chunks, all with one id and creation time, like OpenAI's. */
function chunkMaker(body: ChatRequestBody) {
  const id = `chatcmpl-${randomUUID().replace(/-/g, '').slice(0, 29)}`;
  const created = Math.floor(Date.now() / 1000);
  const withUsage = body.stream_options?.include_usage === true;
  return (delta: object, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: body.model,
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(withUsage ? { usage: null } : {}),
  });
}

/** A non-streamed `chat.completion`. */
function completion(body: ChatRequestBody, answer: Answer): object {
  const calls = answer.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  return {
    id: `chatcmpl-${randomUUID().replace(/-/g, '').slice(0, 29)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    system_fingerprint: null,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: answer.text === '' && calls.length > 0 ? null : answer.text,
          refusal: null,
          annotations: [],
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
        },
        logprobs: null,
        finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
      },
    ],
    usage: usage(body, answer),
  };
}

/** Token counts, roughly: four characters a token. */
function usage(body: ChatRequestBody, answer: Answer): object {
  const prompt = Math.ceil(JSON.stringify(body.messages).length / 4);
  const completionTokens = Math.ceil((answer.text.length + answer.calls.reduce((n, c) => n + c.arguments.length, 0)) / 4);
  return { prompt_tokens: prompt, completion_tokens: completionTokens, total_tokens: prompt + completionTokens };
}

/** `text` cut into `n` consecutive pieces (some empty when the text is shorter than `n`). */
function split(text: string, n: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < n; i++) pieces.push(text.slice(Math.floor((i * text.length) / n), Math.floor(((i + 1) * text.length) / n)));
  return pieces;
}
