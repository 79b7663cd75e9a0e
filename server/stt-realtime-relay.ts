// One page's socket on /api/stt/realtime and the service's socket behind it. The service's
// socket is opened at once, with the key; the page's events that come before it is open wait
// in a bounded queue, and follow the server's own session.update in order. Whatever happens to
// the service (a refusal, no answer, a dropped connection) the page gets one error event in
// plain words and its socket is closed; whatever the page does, the service's socket does not
// outlive it. One log line per socket, with counts only: never the audio, the words or the key.

import { WebSocket, type RawData } from 'ws';
import type { SttService } from './config.ts';
import { describeFailure } from './route-guard.ts';
import { Scrubber } from './secrets.ts';
import { checkPageEvent, eventForPage, realtimeUrl, relayError, sessionUpdate } from './stt-realtime-events.ts';

/** Close codes the page's socket ends with (RFC 6455 and the IANA registry). */
export const CLOSE = { normal: 1000, goingAway: 1001, policy: 1008, tooBig: 1009, serverError: 1011, tryAgainLater: 1013 } as const;

/** Limits and times of one relayed socket. */
export interface RelayLimits {
  openTimeoutMs: number;
  idleMs: number;
  maxMessageBytes: number;
  maxQueuedBytes: number;
  /** what may wait to be written to the page (ws's bufferedAmount) before the page is taken for one that does not read */
  maxPageQueueBytes: number;
  maxRefusals: number;
}

/** How long a closed page has to answer the close before its connection is cut. */
export const CLOSE_GRACE_MS = 5000;

export interface RelaySetup {
  service: SttService;
  /** the visit's language (ISO 639-1), when the page named one */
  language: string | undefined;
  limits: RelayLimits;
  log: (line: string) => void;
  /** the relay has ended (both sockets closed or closing) */
  ended: () => void;
}

/** How the service's opening failed, in the page's words, and the close code that says it. */
interface Failure {
  code: string;
  message: string;
  close: number;
}

/** Relays one page socket; ends itself, and can be ended by the server (`end`). */
export class RealtimeRelay {
  private readonly upstream: WebSocket;
  private readonly scrubber: Scrubber;
  private readonly started = Date.now();
  private queue: string[] = [];
  private queuedBytes = 0;
  private open = false;
  private finished = false;
  private idleTimer: NodeJS.Timeout | undefined;
  private openTimer: NodeJS.Timeout | undefined;
  private readonly counts = { fromPage: 0, refused: 0, toPage: 0, dropped: 0 };

  constructor(
    private readonly page: WebSocket,
    private readonly setup: RelaySetup,
  ) {
    const { service, limits } = setup;
    this.scrubber = new Scrubber(service.apiKey ? { STT_API_KEY: service.apiKey } : {});
    this.upstream = new WebSocket(realtimeUrl(service.baseUrl), {
      headers: service.apiKey ? { authorization: `Bearer ${service.apiKey}` } : {},
      maxPayload: 1024 * 1024,
      followRedirects: false,
    });
    this.listenToUpstream();
    page.on('message', (data, isBinary) => this.guard(() => this.fromPage(data, isBinary)));
    page.on('error', (error) => this.guard(() => this.pageFailed(error)));
    page.on('close', (code) => this.guard(() => this.finish(`closed by the page (${code})`)));
    this.openTimer = setTimeout(() => this.guard(() => this.fail({ code: 'stt_timeout', message: `The speech-to-text service did not open a session within ${seconds(limits.openTimeoutMs)}.`, close: CLOSE.serverError })), limits.openTimeoutMs);
    this.touch();
  }

  /** Ends the relay from outside (the server is stopping). */
  end(code: number = CLOSE.goingAway, why = "the kiosk's server is stopping"): void {
    this.finish(why, code, why);
  }

  private listenToUpstream(): void {
    const up = this.upstream;
    up.on('open', () => this.guard(() => this.upstreamOpened()));
    up.on('message', (data, isBinary) => this.guard(() => this.fromUpstream(data, isBinary)));
    up.on('unexpected-response', (_req, res) => this.guard(() => {
      const status = res.statusCode ?? 0;
      res.resume();
      this.fail(refusal(status));
    }));
    up.on('error', (error) => this.guard(() => {
      if (this.open) return; // the close that follows says it
      const code = (error as NodeJS.ErrnoException).code;
      const shown = typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? ` (${code})` : '';
      this.fail({ code: 'stt_unreachable', message: `The speech-to-text service could not be reached${shown}.`, close: CLOSE.serverError });
    }));
    up.on('close', (code) => this.guard(() => {
      const busy = code === CLOSE.tryAgainLater;
      this.fail({ code: busy ? 'stt_busy' : 'stt_closed', message: `The speech-to-text service closed the session (${code}).`, close: busy ? CLOSE.tryAgainLater : CLOSE.serverError });
    }));
  }

  private upstreamOpened(): void {
    if (this.finished) return;
    clearTimeout(this.openTimer);
    this.open = true;
    this.upstream.send(sessionUpdate(this.setup.service.model, this.setup.language));
    for (const text of this.queue) this.upstream.send(text);
    this.queue = [];
    this.queuedBytes = 0;
    this.touch();
  }

  private fromPage(data: RawData, isBinary: boolean): void {
    if (this.finished) return;
    this.touch();
    this.counts.fromPage += 1;
    const event = checkPageEvent(data, isBinary, this.setup.limits.maxMessageBytes);
    if (!event.ok) {
      this.counts.refused += 1;
      this.toPage(relayError(event.code, event.message, 'invalid_request_error', event.eventId));
      if (this.counts.refused >= this.setup.limits.maxRefusals) this.finish('too many refused events', CLOSE.policy, 'too many refused events');
      return;
    }
    if (this.open) {
      if (this.upstream.bufferedAmount > this.setup.limits.maxQueuedBytes) {
        return this.fail({ code: 'stt_busy', message: 'The speech-to-text service is not taking the audio as fast as it comes.', close: CLOSE.tryAgainLater });
      }
      return this.upstream.send(event.text);
    }
    this.queuedBytes += event.text.length;
    if (this.queuedBytes > this.setup.limits.maxQueuedBytes) {
      const message = `More audio came before the speech-to-text service was open than the kiosk holds (${Math.round(this.setup.limits.maxQueuedBytes / (1024 * 1024))} MB).`;
      this.toPage(relayError('queue_full', message, 'invalid_request_error'));
      return this.finish('queue full before the service opened', CLOSE.tooBig, 'queue full');
    }
    this.queue.push(event.text);
  }

  private fromUpstream(data: RawData, isBinary: boolean): void {
    if (this.finished) return;
    this.touch();
    const text = eventForPage(data, isBinary, this.scrubber, this.setup.service.apiKey);
    if (text === null) this.counts.dropped += 1;
    else this.toPage(text);
  }

  /** ws refused a frame of the page's (1009 for one over its limit, 1002 for a broken one) and is closing the socket. */
  private pageFailed(error: Error): void {
    const code = (error as NodeJS.ErrnoException).code;
    this.finish(`the page's socket failed${typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? ` (${code})` : ''}`);
  }

  /** The service failed: one error event to the page, then both sockets closed. */
  private fail(failure: Failure): void {
    if (this.finished) return;
    this.toPage(relayError(failure.code, failure.message, 'server_error'));
    // The log line reads "… 101 40ms the speech-to-text service refused the key (401); …".
    this.finish(failure.message.charAt(0).toLowerCase() + failure.message.slice(1).replace(/\.$/, ''), failure.close, failure.code);
  }

  /**
   * Sends `text` to the page, unless more than the page's queue already waits for it there: a
   * page that does not read its socket holds no more of the server than that (both sockets close,
   * the page's with 1008).
   */
  private toPage(text: string): void {
    if (this.page.readyState !== WebSocket.OPEN) return;
    const waiting = this.page.bufferedAmount;
    if (waiting > this.setup.limits.maxPageQueueBytes) {
      this.counts.dropped += 1;
      return this.finish(`the page is not reading its socket (${Math.round(waiting / 1024)} KB waiting for it)`, CLOSE.policy, 'not reading');
    }
    this.counts.toPage += 1;
    this.page.send(text);
  }

  /** Nothing either way for `idleMs`: both sockets are closed. */
  private touch(): void {
    clearTimeout(this.idleTimer);
    if (this.finished) return;
    this.idleTimer = setTimeout(() => this.guard(() => this.finish(`idle for ${seconds(this.setup.limits.idleMs)}`, CLOSE.normal, 'idle')), this.setup.limits.idleMs);
  }

  /** Closes both sockets (the page's with `code`), once, and logs the socket's line. */
  private finish(outcome: string, code: number = CLOSE.normal, reason = ''): void {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.idleTimer);
    clearTimeout(this.openTimer);
    this.queue = [];
    if (this.upstream.readyState === WebSocket.OPEN) this.upstream.close(CLOSE.normal);
    else if (this.upstream.readyState === WebSocket.CONNECTING) this.upstream.terminate();
    if (this.page.readyState === WebSocket.OPEN) {
      this.page.close(code, reason.slice(0, 120));
      // A page that does not answer the close (one that does not read) is cut off, its queue let go.
      const page = this.page;
      setTimeout(() => page.readyState !== WebSocket.CLOSED && page.terminate(), CLOSE_GRACE_MS).unref();
    }
    const { fromPage, refused, toPage, dropped } = this.counts;
    this.setup.log(`[api] WS /api/stt/realtime 101 ${Date.now() - this.started}ms ${outcome}; ${fromPage} events from the page (${refused} refused), ${toPage} to it (${dropped} of the service's dropped)`);
    this.setup.ended();
  }

  /** Runs one handler; a throw ends this socket pair (1011) with a log line, never the server. */
  private guard(handle: () => void): void {
    try {
      handle();
    } catch (error) {
      this.setup.log(`[api] WS /api/stt/realtime failed: ${describeFailure(error)}`);
      try {
        this.finish('failed in the relay', CLOSE.serverError, "the kiosk's server failed on this socket");
      } catch {
        this.page.terminate();
        this.upstream.terminate();
      }
    }
  }
}

/** The service's refusal of the opening, by HTTP status. */
function refusal(status: number): Failure {
  const busy = status === 429 || status === 503;
  const words: Record<number, string> = {
    401: 'refused the key',
    403: 'refused this kiosk',
    404: 'has no realtime transcription at STT_BASE_URL',
    429: 'is over its rate limit',
    503: 'is unavailable for now',
  };
  return {
    code: busy ? 'stt_busy' : 'stt_refused',
    message: `The speech-to-text service ${words[status] ?? 'refused the session'} (${status}).`,
    close: busy ? CLOSE.tryAgainLater : CLOSE.serverError,
  };
}

function seconds(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
