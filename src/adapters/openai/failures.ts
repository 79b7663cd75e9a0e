// How the OpenAI adapters give up: every error from the client (or the wire) becomes a
// ServiceError, and one watch per request joins the caller's abort with a no-progress timer.

import { APIConnectionError, APIConnectionTimeoutError, APIError, OpenAIError } from 'openai';
import { ServiceError, type ServiceName } from '../../ports/service-error.ts';
import { browserTimers, type Timers } from '../../ports/timers.ts';

/** The ServiceError for anything a request to an OpenAI-compatible service threw. */
export function toServiceError(service: ServiceName, error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof APIConnectionTimeoutError) return new ServiceError(service, 'timeout', detail);
  if (error instanceof APIConnectionError) return new ServiceError(service, 'network', causeOf(error) ?? detail);
  if (error instanceof APIError) {
    // No status: the service put an `error` event into a stream that had begun with 200.
    return error.status === undefined
      ? new ServiceError(service, 'http', `error in the stream: ${detail}`)
      : new ServiceError(service, 'http', detail, error.status);
  }
  // A data line that is not JSON, or the client refusing what it was given.
  if (error instanceof SyntaxError || error instanceof OpenAIError) return new ServiceError(service, 'malformed', detail);
  // fetch's own failures (`fetch failed`, `terminated` when the connection drops mid-body).
  return new ServiceError(service, 'network', detail);
}

function causeOf(error: Error): string | undefined {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message} (${cause.message})` : undefined;
}

/** The error an aborted call rejects with: the signal's own reason when it is an AbortError. */
export function abortError(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new DOMException('The operation was aborted.', 'AbortError');
}

/**
 * One request's way out: `signal` aborts when the caller aborts or when the timer set by `arm`
 * runs out (then `timedOut` is true). `dispose` when the request is over.
 */
export class RequestWatch {
  private readonly controller = new AbortController();
  private cancelTimer: () => void = () => undefined;
  private readonly onOuterAbort = () => this.controller.abort(this.outer?.reason);
  /** true once the timer ran out */
  timedOut = false;

  constructor(
    private readonly outer?: AbortSignal,
    private readonly timers: Timers = browserTimers,
  ) {
    if (outer?.aborted) this.controller.abort(outer.reason);
    else outer?.addEventListener('abort', this.onOuterAbort, { once: true });
  }

  /** aborts on the caller's abort or on a timeout */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** true when the caller aborted (not the timer) */
  get cancelled(): boolean {
    return this.outer?.aborted === true && !this.timedOut;
  }

  /** (Re)starts the timer: abort unless `arm` or `dispose` is called again within `ms`. */
  arm(ms: number): void {
    this.cancelTimer();
    this.cancelTimer = this.timers.schedule(ms, () => {
      if (this.controller.signal.aborted) return;
      this.timedOut = true;
      this.controller.abort();
    });
  }

  dispose(): void {
    this.cancelTimer();
    this.outer?.removeEventListener('abort', this.onOuterAbort);
  }
}
