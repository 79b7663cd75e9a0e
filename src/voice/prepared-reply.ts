// A reply asked of the model before the visitor's turn is known to be over (the early start):
// the request is made at a pause, its answer is held, and it is given only to the one request
// that turns out to be the same (the same words, the same step, the same history). Held means
// held: nothing of it is shown, spoken or sent to the engine until then; a reply no one takes is
// aborted. The request is compared whole, so an utterance that moved the flow, filled a value or
// came out in other words gets a fresh request instead.

import type { LanguageModel, TurnChunk, TurnRequest } from '../ports/language-model.ts';

/** What makes two requests the same: everything the model is sent, but the abort signal. */
export function requestKey(request: TurnRequest): string {
  const { signal: _signal, ...rest } = request;
  return JSON.stringify(rest);
}

export class PreparedReply {
  readonly key: string;
  private readonly controller = new AbortController();
  private readonly chunks: TurnChunk[] = [];
  private finished = false;
  private failure: { error: unknown } | null = null;
  private wake: () => void = () => undefined;
  private taken = false;

  constructor(model: LanguageModel, request: Omit<TurnRequest, 'signal'>) {
    this.key = requestKey(request);
    void this.collect(model.generate({ ...request, signal: this.controller.signal }));
  }

  /** Stops the request; nobody will take the reply. */
  drop(): void {
    this.controller.abort();
  }

  /**
   * The held reply and what follows of it, for the request that matched. Aborting `signal`
   * aborts the model's request. Taken once.
   */
  async *take(signal?: AbortSignal): AsyncGenerator<TurnChunk> {
    if (this.taken) throw new Error('a prepared reply is taken once');
    this.taken = true;
    const onAbort = () => this.controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for (let at = 0; ; ) {
        while (at < this.chunks.length) yield this.chunks[at++]!;
        if (this.failure) throw this.failure.error;
        if (this.finished) return;
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private async collect(stream: AsyncIterable<TurnChunk>): Promise<void> {
    try {
      for await (const chunk of stream) {
        this.chunks.push(chunk);
        this.wake();
      }
      this.finished = true;
    } catch (error) {
      this.failure = { error };
    }
    this.wake();
  }
}
