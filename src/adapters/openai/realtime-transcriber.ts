// Streaming speech recognition over the OpenAI Realtime transcription protocol, through the kiosk
// server's relay. Each stretch of speech is sent while the visitor speaks (pcm16 at 24 kHz) and
// committed when the kiosk's turn-taking says so; its text follows within a few hundred ms. Every
// stretch keeps its audio until its text is in: when the connection fails, is refused, or the
// text is late, the kept audio goes to the upload-per-turn transcriber instead, so no words are
// lost. The next stretch tries the stream again.

import { isAbort, ServiceError } from '../../ports/service-error.ts';
import type { SegmentTranscriber, StreamingTranscriber, StreamOptions, TurnStream, TurnStreamEvents } from '../../ports/speech-to-text.ts';
import { StreamResampler, toBase64, toPcm16 } from '../../voice/pcm.ts';
import { abortError } from './failures.ts';
import { RealtimeConnection, type CommitListener, type OpenSocket } from './realtime-connection.ts';

/** The rate the Realtime protocol takes pcm16 at. */
export const REALTIME_SAMPLE_RATE = 24_000;

export interface RealtimeTranscriberOptions {
  /** the relay's address, e.g. `wss://kiosk.example/api/stt/realtime` */
  url: string;
  /** the model, for the operator's view (the server chooses it) */
  model: string;
  /** transcribes the kept audio of a stretch whose stream failed */
  fallback: SegmentTranscriber;
  /** how long a committed stretch's text may take before the kept audio goes the other way (default 8000) */
  finalTimeoutMs?: number;
  /** opens the socket (default: the browser's WebSocket) */
  openSocket?: OpenSocket;
  /** told when the stream fails and the fallback takes a stretch (for the console) */
  onFallback?: (why: string) => void;
}

export class RealtimeTranscriber implements StreamingTranscriber {
  readonly kind = 'stream';
  readonly name: string;
  private connection: RealtimeConnection | null = null;
  private language = '';

  constructor(private readonly options: RealtimeTranscriberOptions) {
    this.name = `realtime:${options.model}`;
  }

  warm(language: string): void {
    this.use(language);
  }

  begin(options: StreamOptions, events: TurnStreamEvents): TurnStream {
    return new Stretch(this.use(options.language), options, events, this.options);
  }

  close(): void {
    this.connection?.close();
    this.connection = null;
  }

  /** The open connection for `language`, or a new one (the first, after a failure, or for another language). */
  private use(language: string): RealtimeConnection {
    if (this.connection && this.connection.failure === null && this.language === language) return this.connection;
    this.connection?.close();
    this.language = language;
    const url = new URL(this.options.url);
    if (language) url.searchParams.set('language', language);
    const open = this.options.openSocket ?? ((address: string) => new WebSocket(address) as unknown as ReturnType<OpenSocket>);
    this.connection = new RealtimeConnection(open, url.href, (why) => console.warn(`kiosk: ${why}`));
    return this.connection;
  }
}

/** One stretch of speech: sent as it comes, its audio kept until its text is in. */
class Stretch implements TurnStream {
  private readonly kept: Float32Array[] = [];
  private readonly resampler: StreamResampler;
  private sent = false;
  private over = false;

  constructor(
    private readonly connection: RealtimeConnection,
    private readonly options: StreamOptions,
    private readonly events: TurnStreamEvents,
    private readonly settings: RealtimeTranscriberOptions,
  ) {
    this.resampler = new StreamResampler(options.sampleRate, REALTIME_SAMPLE_RATE);
  }

  append(samples: Float32Array): void {
    if (this.over) return;
    this.kept.push(samples);
    if (this.connection.failure !== null) return;
    const audio = this.resampler.push(samples);
    if (audio.length === 0) return;
    this.connection.append(toBase64(toPcm16(audio)));
    this.sent = true;
  }

  cancel(): void {
    if (this.over) return;
    this.over = true;
    if (this.sent) this.connection.clear();
  }

  commit(): Promise<string> {
    if (this.over) return Promise.reject(new ServiceError('stt', 'malformed', 'a stretch was committed twice'));
    this.over = true;
    const { signal } = this.options;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    if (!this.sent || this.connection.failure !== null) return this.fallBack(this.connection.failure ?? 'the stream had no audio');
    return new Promise<string>((resolve, reject) => {
      let settled = false;
      let words = '';
      const finish = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        outcome();
      };
      const listener: CommitListener = {
        delta: (text) => {
          if (settled) return;
          words += text;
          this.events.interim(words.trim());
        },
        completed: (text) => finish(() => resolve(text.trim())),
        failed: (why) => finish(() => this.fallBack(why).then(resolve, reject)),
      };
      const onAbort = () => {
        this.connection.forget(listener);
        finish(() => reject(abortError(signal)));
      };
      const ms = this.settings.finalTimeoutMs ?? 8000;
      const timer = setTimeout(() => {
        this.connection.forget(listener);
        listener.failed(`no text within ${ms} ms of the end of the turn`);
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.connection.commit(listener);
    });
  }

  /** The kept audio through the upload-per-turn transcriber. */
  private async fallBack(why: string): Promise<string> {
    this.settings.onFallback?.(why);
    const length = this.kept.reduce((n, f) => n + f.length, 0);
    const samples = new Float32Array(length);
    let at = 0;
    for (const f of this.kept) {
      samples.set(f, at);
      at += f.length;
    }
    try {
      return await this.settings.fallback.transcribe({ samples, sampleRate: this.options.sampleRate }, { language: this.options.language, ...(this.options.signal ? { signal: this.options.signal } : {}) });
    } catch (error) {
      if (isAbort(error) || error instanceof ServiceError) throw error;
      throw new ServiceError('stt', 'malformed', String(error));
    }
  }
}
