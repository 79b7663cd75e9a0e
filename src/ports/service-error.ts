// What a failing outside service (speech recognition, the language model, speech synthesis, the
// microphone) reports. Adapters turn every failure into one of these, so the voice loop can
// decide what to do (retry, fall back, tell the visitor) without knowing the vendor. `detail` is
// for the operator's log; it may hold a service's own words and is never shown to a visitor.

export type ServiceName = 'stt' | 'llm' | 'tts' | 'microphone';

export type ServiceFailure =
  /** the request could not be made or the connection broke */
  | 'network'
  /** the service answered with an HTTP error status */
  | 'http'
  /** no answer (or no next chunk of a stream) in time */
  | 'timeout'
  /** an answer that does not follow the protocol */
  | 'malformed'
  /** the visitor or the browser refused (microphone permission) */
  | 'denied'
  /** the device or feature is not there (no microphone, no Web Speech) */
  | 'missing';

export class ServiceError extends Error {
  constructor(
    readonly service: ServiceName,
    readonly failure: ServiceFailure,
    readonly detail: string,
    readonly status?: number,
  ) {
    super(`${service} ${failure}${status !== undefined ? ` ${status}` : ''}: ${detail}`);
    this.name = 'ServiceError';
  }
}

/** True for an AbortError (the caller cancelled), which is never a service failure. */
export function isAbort(error: unknown): boolean {
  return (error instanceof Error || (typeof DOMException !== 'undefined' && error instanceof DOMException)) && (error as Error).name === 'AbortError';
}
