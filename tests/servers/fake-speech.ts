// The fake `POST /v1/audio/speech`: a quiet tone as long as the text would take to say, as raw
// 24 kHz mono 16-bit PCM or as a WAV, streamed in chunks with a latency profile (a delay before
// the first chunk, then the rest at a set pace against real time), with staged failures, a
// service that knows no pcm, and a record of when each chunk went out.

import type { ServerResponse } from 'node:http';
import { toPcm16 } from '../../src/voice/pcm.ts';
import { encodeWav } from '../../src/voice/wav.ts';
import { BadRequest, ClientWatch, CountWaiter, FailureSwitch, performOutage, sendError, wallClock, type OutageMode } from './fake-http.ts';

/** What the fake recorded of one well-formed request. */
export interface TtsRequest {
  model: string;
  voice: string;
  input: string;
  response_format: string;
}

/** How one answer's audio went out (wall-clock times, wallClock(), so a page's marks can be set against them). */
export interface TtsDelivery {
  input: string;
  /** when the request came */
  receivedAt: number;
  format: 'pcm' | 'wav';
  /** the audio's length in ms, and how many chunks it is sent in */
  audioMs: number;
  chunks: number;
  /** chunks written so far */
  sent: number;
  firstChunkAt?: number;
  lastChunkAt?: number;
  /** the client went away before the last chunk */
  gone: boolean;
}

/** OpenAI's speech output rate for wav and pcm. */
export const SPEECH_SAMPLE_RATE = 24_000;
const MIN_MS = 300;

/** The fake speech endpoint's controls and records. */
export class FakeSpeech {
  /** every well-formed request, in order (those refused for their format too) */
  readonly requests: TtsRequest[] = [];
  /** every answer that sent audio, in order */
  readonly deliveries: TtsDelivery[] = [];
  /** answers whose client went away before the last chunk */
  aborted = 0;
  /** audio length per character of input (at least 300 ms in all) */
  msPerChar = 40;
  /** when it returns a number, that is the clip's length in ms instead */
  durationFor: (text: string) => number | undefined = () => undefined;
  /** wait this long before answering (before the headers) */
  delayMs = 0;
  /** after the headers, wait this long before the first chunk of audio */
  firstChunkMs = 0;
  /** how much audio each chunk holds */
  chunkMs = 100;
  /**
   * the pace of the chunks after the first, against the audio's own length: 1 sends them as fast
   * as they play, 0.5 twice as fast; 0 (the default) sends them all at once
   */
  realTimeFactor = 0;
  /** after this many chunks the answer stops sending and stays open (null: to the end) */
  holdAfterChunks: number | null = null;
  /** a service that knows only mp3 and wav: a request for pcm gets OpenAI's 400 about response_format */
  refusePcm = false;
  private readonly failures = new FailureSwitch<OutageMode>();
  private readonly requestWaiter = new CountWaiter(() => this.requests.length);
  private readonly abortWaiter = new CountWaiter(() => this.aborted);
  /** bumped by reset, so answers still running from before it do not count after it */
  private generation = 0;

  /** Resolves once `n` well-formed requests have arrived. */
  whenRequested(n = 1): Promise<void> {
    return this.requestWaiter.until(n);
  }

  /** Resolves once `n` answers have been abandoned by their clients before their last chunk. */
  whenAborted(n = 1): Promise<void> {
    return this.abortWaiter.until(n);
  }

  /** The next `count` requests fail in `mode`; `fail('ok')` ends a staged failure. */
  fail(mode: OutageMode | 'ok', count = Infinity): void {
    this.failures.set(mode, count);
  }

  /** The length in ms of the clip the fake makes for `text`. */
  clipMs(text: string): number {
    return this.durationFor(text) ?? Math.max(MIN_MS, this.msPerChar * text.length);
  }

  reset(): void {
    this.requests.length = 0;
    this.deliveries.length = 0;
    this.aborted = 0;
    this.msPerChar = 40;
    this.durationFor = () => undefined;
    this.delayMs = 0;
    this.firstChunkMs = 0;
    this.chunkMs = 100;
    this.realTimeFactor = 0;
    this.holdAfterChunks = null;
    this.refusePcm = false;
    this.failures.set('ok');
    this.generation++;
  }

  /** Answers one request (the server has read its body). */
  async handle(res: ServerResponse, raw: Buffer): Promise<void> {
    const receivedAt = wallClock();
    const generation = this.generation;
    let delivery: TtsDelivery | undefined;
    const watch = new ClientWatch(res, () => {
      if (generation !== this.generation || !delivery || delivery.sent === delivery.chunks) return;
      delivery.gone = true;
      this.aborted++;
      this.abortWaiter.notify();
    });
    let request: TtsRequest;
    try {
      request = parse(raw);
    } catch (error) {
      const bad = error instanceof BadRequest ? error : new BadRequest('We could not parse the JSON body of your request.');
      return sendError(res, 400, bad.message, { param: bad.param, code: bad.code });
    }
    this.requests.push(request);
    this.requestWaiter.notify();
    if (this.refusePcm && request.response_format === 'pcm') {
      const message = "Invalid value: 'pcm'. Supported values are: 'mp3' and 'wav'.";
      return sendError(res, 400, message, { param: 'response_format', code: 'invalid_value' });
    }
    const failure = this.failures.take();
    if (failure && performOutage(failure, res, watch)) return;
    if (!(await watch.pause(this.delayMs))) return;
    const format = request.response_format === 'wav' ? 'wav' : 'pcm';
    const audioMs = this.clipMs(request.input);
    const samples = tone(audioMs);
    const bytes = format === 'wav' ? Buffer.from(encodeWav(samples, SPEECH_SAMPLE_RATE)) : Buffer.from(toPcm16(samples));
    const chunkBytes = Math.max(2, Math.round((this.chunkMs / 1000) * SPEECH_SAMPLE_RATE) * 2);
    // A WAV's header goes with its first chunk of samples.
    const header = format === 'wav' ? bytes.length - samples.length * 2 : 0;
    const pieces: Buffer[] = [];
    for (let at = 0; at < bytes.length; ) {
      const end = Math.min(bytes.length, at + chunkBytes + (at === 0 ? header : 0));
      pieces.push(bytes.subarray(at, end));
      at = end;
    }
    delivery = { input: request.input, receivedAt, format, audioMs, chunks: pieces.length, sent: 0, gone: false };
    this.deliveries.push(delivery);
    res.writeHead(200, { 'content-type': format === 'wav' ? 'audio/wav' : 'audio/pcm', 'transfer-encoding': 'chunked' });
    res.flushHeaders();
    await this.send(res, watch, delivery, pieces);
  }

  /** Writes the chunks at the profile's pace; the answer ends after the last (unless held). */
  private async send(res: ServerResponse, watch: ClientWatch, delivery: TtsDelivery, pieces: Buffer[]): Promise<void> {
    const gapMs = this.chunkMs * this.realTimeFactor;
    const hold = this.holdAfterChunks;
    for (const [i, piece] of pieces.entries()) {
      if (!(await watch.pause(i === 0 ? this.firstChunkMs : gapMs))) return;
      // Held: the answer stays open, sending nothing, until the client goes away.
      if (hold !== null && i >= hold) return;
      res.write(piece);
      delivery.sent++;
      const now = wallClock();
      delivery.firstChunkAt ??= now;
      if (i === pieces.length - 1) delivery.lastChunkAt = now;
    }
    res.end();
  }
}

function parse(raw: Buffer): TtsRequest {
  const body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
  if (typeof body !== 'object' || body === null) throw new BadRequest('The request body must be a JSON object.');
  const { model, input } = body;
  const voice = typeof body.voice === 'object' && body.voice !== null ? (body.voice as { id?: unknown }).id : body.voice;
  if (typeof model !== 'string' || model === '') throw new BadRequest('you must provide a model parameter', 'model');
  if (typeof voice !== 'string' || voice === '') throw new BadRequest("Missing required parameter: 'voice'.", 'voice');
  if (typeof input !== 'string' || input === '') throw new BadRequest("Missing required parameter: 'input'.", 'input');
  if (input.length > 4096) throw new BadRequest("Invalid 'input': string too long. Expected a string with maximum length 4096.", 'input', 'string_above_max_length');
  const format = body.response_format ?? 'mp3';
  if (format !== 'wav' && format !== 'pcm') {
    throw new BadRequest(`The fake speaks only wav and pcm, not '${String(format)}' (OpenAI's default is mp3).`, 'response_format');
  }
  return { model, voice, input, response_format: format };
}

/** A quiet 220 Hz tone of `ms`, with short fades so it does not click. */
function tone(ms: number): Float32Array {
  const n = Math.round((ms / 1000) * SPEECH_SAMPLE_RATE);
  const fade = Math.min(n / 2, SPEECH_SAMPLE_RATE * 0.01);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const edge = Math.min(1, i / fade, (n - 1 - i) / fade);
    out[i] = 0.1 * edge * Math.sin((2 * Math.PI * 220 * i) / SPEECH_SAMPLE_RATE);
  }
  return out;
}

