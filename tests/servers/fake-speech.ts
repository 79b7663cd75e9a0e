// The fake `POST /v1/audio/speech`: a quiet tone as long as the text would take to say, as a
// 24 kHz mono 16-bit WAV (or raw PCM), with a settable delay and staged failures.

import type { ServerResponse } from 'node:http';
import { encodeWav } from '../../src/voice/wav.ts';
import { BadRequest, ClientWatch, CountWaiter, FailureSwitch, performOutage, sendError, type OutageMode } from './fake-http.ts';

/** What the fake recorded of one well-formed request. */
export interface TtsRequest {
  model: string;
  voice: string;
  input: string;
  response_format: string;
}

/** OpenAI's speech output rate for wav and pcm. */
export const SPEECH_SAMPLE_RATE = 24_000;
const MIN_MS = 300;

/** The fake speech endpoint's controls and records. */
export class FakeSpeech {
  readonly requests: TtsRequest[] = [];
  /** audio length per character of input (at least 300 ms in all) */
  msPerChar = 40;
  /** when it returns a number, that is the clip's length in ms instead */
  durationFor: (text: string) => number | undefined = () => undefined;
  /** wait this long before answering */
  delayMs = 0;
  private readonly failures = new FailureSwitch<OutageMode>();
  private readonly requestWaiter = new CountWaiter(() => this.requests.length);

  /** Resolves once `n` well-formed requests have arrived. */
  whenRequested(n = 1): Promise<void> {
    return this.requestWaiter.until(n);
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
    this.msPerChar = 40;
    this.durationFor = () => undefined;
    this.delayMs = 0;
    this.failures.set('ok');
  }

  /** Answers one request (the server has read its body). */
  async handle(res: ServerResponse, raw: Buffer): Promise<void> {
    const watch = new ClientWatch(res, () => {});
    let request: TtsRequest;
    try {
      request = parse(raw);
    } catch (error) {
      const bad = error instanceof BadRequest ? error : new BadRequest('We could not parse the JSON body of your request.');
      return sendError(res, 400, bad.message, { param: bad.param, code: bad.code });
    }
    this.requests.push(request);
    this.requestWaiter.notify();
    const failure = this.failures.take();
    if (failure && performOutage(failure, res, watch)) return;
    if (!(await watch.pause(this.delayMs))) return;
    const samples = tone(this.clipMs(request.input));
    const bytes = request.response_format === 'wav' ? Buffer.from(encodeWav(samples, SPEECH_SAMPLE_RATE)) : pcm16(samples);
    res.writeHead(200, { 'content-type': request.response_format === 'wav' ? 'audio/wav' : 'audio/pcm', 'content-length': bytes.byteLength });
    res.end(bytes);
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

/** Raw little-endian 16-bit samples, as OpenAI's `pcm` format. */
function pcm16(samples: Float32Array): Buffer {
  const out = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]!));
    out.writeInt16LE(Math.round(s < 0 ? s * 0x8000 : s * 0x7fff), i * 2);
  }
  return out;
}
