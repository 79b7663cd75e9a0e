// The fake `POST /v1/audio/transcriptions`: checks the multipart request as OpenAI would, measures
// the WAV it was sent (format, duration, where the speech is) and answers from a scripted queue,
// or with the words the audio holds of a recording it was given (heard-recording.ts).

import type { ServerResponse } from 'node:http';
import { decodeWav } from '../../src/voice/wav.ts';
import type { HeardRecording } from './heard-recording.ts';
import { LastHeard } from './sent-again.ts';
import { BadRequest, ClientWatch, CountWaiter, FailureSwitch, performOutage, sendError, sendJson, wallClock, type OutageMode, type ServiceTime } from './fake-http.ts';

/** One scripted transcript; when the segment's speech falls outside min/max, the fake says so. */
export interface SttEntry {
  text: string;
  minSpeechMs?: number;
  maxSpeechMs?: number;
}

/** A line being answered in pieces (the realtime fake's commits cut at pauses): its words, and how many were given. */
interface Piece {
  entry: SttEntry;
  words: string[];
  heardMs: number;
  given: number;
}

/** What the fake recorded of one well-formed request. */
export interface SttRequest {
  model: string;
  language: string | undefined;
  response_format: string | undefined;
  fileName: string;
  fileType: string;
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  durationMs: number;
  /** from the start of the first loud 20 ms window to the end of the last one (0: silent) */
  speechMs: number;
}

/** The longest pause between two scripted parts that audio sent again may hold as one turn. */
const PART_PAUSE_MS = 1000;

/** RMS above which a 20 ms window counts as speech. */
export const SPEECH_RMS = 0.02;
const FORMATS = new Set(['json', 'text', 'verbose_json']);

/** The fake transcription endpoint's controls and records. */
export class FakeTranscriptions {
  readonly requests: SttRequest[] = [];
  /** beside each request: when it came and when its text went back */
  readonly times: ServiceTime[] = [];
  /** how long to take over a request, by the length of its audio (a latency profile; default none) */
  delayFor: (audioMs: number) => number = () => 0;
  private queue: SttEntry[] = [];
  /** the recording the audio is cut from, when a test gives one: its words are the answers (hear) */
  private recording: HeardRecording | null = null;
  /** a line the realtime fake is answering in pieces: its words, the speech heard of it, the words given */
  private piece: Piece | null = null;
  /** the last audio with speech answered, and the script as it was before it: audio sent again replaces its answer */
  private readonly lastHeard = new LastHeard();
  private beforeLast: { queue: SttEntry[]; piece: Piece | null } | null = null;
  private readonly failures = new FailureSwitch<OutageMode>();
  private readonly requestWaiter = new CountWaiter(() => this.requests.length);

  /**
   * Answers every request from now on with the words of `recording` that its audio holds,
   * wherever the kiosk cut its turns (the scripted queue is not used); null goes back to the queue.
   */
  hear(recording: HeardRecording | null): void {
    this.recording = recording;
  }

  /** Replaces the queue of answers: one entry per (non-silent) request, in order. */
  script(entries: SttEntry[]): void {
    this.queue = [...entries];
  }

  /** Resolves once `n` well-formed requests have arrived. */
  whenRequested(n = 1): Promise<void> {
    return this.requestWaiter.until(n);
  }

  /** The next `count` requests fail in `mode`; `fail('ok')` ends a staged failure. */
  fail(mode: OutageMode | 'ok', count = Infinity): void {
    this.failures.set(mode, count);
  }

  /** entries not yet used */
  get pending(): readonly SttEntry[] {
    return this.queue;
  }

  reset(): void {
    this.queue = [];
    this.piece = null;
    this.beforeLast = null;
    this.lastHeard.forget();
    this.recording = null;
    this.requests.length = 0;
    this.times.length = 0;
    this.delayFor = () => 0;
    this.failures.set('ok');
  }

  /** Answers one request (the server has read its body). */
  async handle(res: ServerResponse, raw: Buffer, contentType: string): Promise<void> {
    const time: ServiceTime = { receivedAt: wallClock() };
    const watch = new ClientWatch(res, () => {});
    let request: SttRequest;
    let audio: Audio;
    try {
      ({ request, audio } = await parse(raw, contentType));
    } catch (error) {
      if (error instanceof BadRequest) return sendError(res, 400, error.message, { param: error.param, code: error.code });
      throw error;
    }
    this.requests.push(request);
    this.times.push(time);
    this.requestWaiter.notify();
    const failure = this.failures.take();
    if (failure && performOutage(failure, res, watch)) return;
    if (!(await watch.pause(this.delayFor(request.durationMs)))) return;
    const again = this.recall(request.speechMs, audio);
    const text = again ? this.answerPart(request.speechMs, audio, true) : this.answerFor(request.speechMs, audio);
    const format = request.response_format ?? 'json';
    time.answeredAt = wallClock();
    if (format === 'text') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`${text}\n`);
    } else if (format === 'verbose_json') {
      sendJson(res, 200, { task: 'transcribe', language: languageName(request.language), duration: request.durationMs / 1000, text, segments: [] });
    } else {
      sendJson(res, 200, { text });
    }
  }

  /**
   * The next scripted text, for a segment holding `speechMs` of speech (as `speechSpan` measures
   * it): '' for silence (nothing is taken from the queue) or an empty queue, and a note in
   * brackets when the speech is outside the entry's bounds. The realtime fake answers each
   * commit from here too, so a test scripts once for either way of transcribing. Hearing a
   * recording, the words `audio` holds of it instead.
   */
  answerFor(speechMs: number, audio?: Audio): string {
    if (speechMs === 0) return '';
    if (this.recording && audio) return this.recording.transcribe(audio.samples, audio.sampleRate);
    if (this.piece) return this.answerPiece(speechMs);
    const entry = this.queue.shift();
    if (!entry) return '';
    const { minSpeechMs = 0, maxSpeechMs = Infinity } = entry;
    if (speechMs < minSpeechMs || speechMs > maxSpeechMs) return `[unexpected segment of ${speechMs} ms]`;
    return entry.text;
  }

  /** Answers a realtime commit: its words, and whether its audio was the last answer's sent again (and replaces it). */
  answerCommit(speechMs: number, audio: Audio): { text: string; again: boolean } {
    const again = this.recall(speechMs, audio);
    return { text: this.answerPart(speechMs, audio, again), again };
  }

  /**
   * For the realtime fake, whose commits may cut a line at its pauses (the kiosk's early start):
   * a commit with less speech than the next entry's least is a piece of that line and gets its
   * share of the words; the piece that completes the line's speech gets the rest. The pieces'
   * words joined are the line, as a real service transcribing the pieces would give. Audio sent
   * `again` holds the whole turn so far: with more speech than the next entry allows, it is the
   * next entries' parts spoken as one turn, and gets their words together.
   */
  answerPart(speechMs: number, audio?: Audio, again = false): string {
    if (speechMs === 0 || (this.recording && audio)) return this.answerFor(speechMs, audio);
    if (!this.piece) {
      if (again) this.joinParts(speechMs);
      const entry = this.queue[0];
      if (!entry || speechMs >= (entry.minSpeechMs ?? 0)) return this.answerFor(speechMs);
      this.queue.shift();
      this.piece = { entry, words: entry.text.split(/\s+/).filter(Boolean), heardMs: 0, given: 0 };
    }
    return this.answerPiece(speechMs);
  }

  /**
   * Whether the audio is the last answered audio sent again, with more: then the script goes back
   * to where it was before that answer, which this one replaces (a real service transcribes the
   * whole audio afresh).
   */
  private recall(speechMs: number, audio: Audio): boolean {
    const again = this.lastHeard.again(audio, speechMs);
    if (again && this.beforeLast) {
      this.queue = [...this.beforeLast.queue];
      this.piece = this.beforeLast.piece && { ...this.beforeLast.piece };
    } else if (speechMs > 0) this.beforeLast = { queue: [...this.queue], piece: this.piece && { ...this.piece } };
    return again;
  }

  /** Joins the next scripted parts into one entry while the speech is more than the first allows (a pause between parts: up to PART_PAUSE_MS). */
  private joinParts(speechMs: number): void {
    while (this.queue.length > 1 && speechMs > (this.queue[0]!.maxSpeechMs ?? Infinity)) {
      const [first, second] = this.queue.splice(0, 2) as [SttEntry, SttEntry];
      this.queue.unshift({
        text: `${first.text} ${second.text}`,
        minSpeechMs: (first.minSpeechMs ?? 0) + (second.minSpeechMs ?? 0),
        maxSpeechMs: (first.maxSpeechMs ?? Infinity) + (second.maxSpeechMs ?? Infinity) + PART_PAUSE_MS,
      });
    }
  }

  private answerPiece(speechMs: number): string {
    const piece = this.piece!;
    piece.heardMs += speechMs;
    const { minSpeechMs = 0, maxSpeechMs = Infinity } = piece.entry;
    if (piece.heardMs > maxSpeechMs) {
      this.piece = null;
      return `[unexpected segment of ${piece.heardMs} ms]`;
    }
    if (piece.heardMs >= minSpeechMs) {
      this.piece = null;
      return piece.words.slice(piece.given).join(' ');
    }
    const share = Math.min(piece.words.length - 1, Math.floor((piece.words.length * piece.heardMs) / Math.max(1, minSpeechMs)));
    const upto = Math.max(piece.given, share);
    const words = piece.words.slice(piece.given, upto).join(' ');
    piece.given = upto;
    return words;
  }
}

/** The audio of a request or a commit, for a double that hears a recording. */
export interface Audio {
  samples: Float32Array;
  sampleRate: number;
}

async function parse(raw: Buffer, contentType: string): Promise<{ request: SttRequest; audio: Audio }> {
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw new BadRequest('Invalid Content-Type header; expected multipart/form-data with a boundary.', null);
  }
  let form: FormData;
  try {
    form = await new Request('http://fake.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body: raw }).formData();
  } catch {
    throw new BadRequest('Could not parse multipart form.', null);
  }
  const file = form.get('file');
  if (!(file instanceof File)) throw new BadRequest("Missing required parameter: 'file'.", 'file');
  const model = form.get('model');
  if (typeof model !== 'string' || model === '') throw new BadRequest('you must provide a model parameter', 'model');
  const language = optionalField(form, 'language');
  if (language !== undefined && !/^[a-z]{2}$/.test(language)) {
    throw new BadRequest(`Invalid language '${language}'. Language parameter must be specified in ISO-639-1 format.`, 'language');
  }
  const format = optionalField(form, 'response_format');
  if (format !== undefined && !FORMATS.has(format)) {
    throw new BadRequest(`The fake answers response_format ${[...FORMATS].join(', ')}, not '${format}'.`, 'response_format');
  }
  let wav: ReturnType<typeof decodeWav>;
  try {
    wav = decodeWav(new Uint8Array(await file.arrayBuffer()));
  } catch (error) {
    throw new BadRequest(`Invalid file format (${(error as Error).message}). Supported formats: ['wav']`, 'file', 'invalid_value');
  }
  if (wav.samples.length === 0) throw new BadRequest('Audio file is too short. Minimum audio length is 0.1 seconds.', 'file', 'audio_too_short');
  const request = {
    model,
    language,
    response_format: format,
    fileName: file.name,
    fileType: file.type,
    sampleRate: wav.sampleRate,
    channels: wav.channels,
    bitsPerSample: wav.bitsPerSample,
    durationMs: Math.round((wav.samples.length / wav.sampleRate) * 1000),
    speechMs: speechSpan(wav.samples, wav.sampleRate),
  };
  return { request, audio: { samples: wav.samples, sampleRate: wav.sampleRate } };
}

function optionalField(form: FormData, name: string): string | undefined {
  const value = form.get(name);
  if (value === null) return undefined;
  if (typeof value !== 'string') throw new BadRequest(`Invalid type for '${name}': expected a string.`, name);
  return value;
}

/** Milliseconds from the first to the end of the last 20 ms window louder than SPEECH_RMS. */
export function speechSpan(samples: Float32Array, sampleRate: number): number {
  const window = Math.max(1, Math.round(sampleRate * 0.02));
  let first = -1;
  let last = -1;
  for (let w = 0; w * window < samples.length; w++) {
    const end = Math.min(samples.length, (w + 1) * window);
    let sum = 0;
    for (let i = w * window; i < end; i++) sum += samples[i]! * samples[i]!;
    if (Math.sqrt(sum / (end - w * window)) > SPEECH_RMS) {
      if (first < 0) first = w;
      last = w;
    }
  }
  if (first < 0) return 0;
  const endSample = Math.min(samples.length, (last + 1) * window);
  return Math.round(((endSample - first * window) / sampleRate) * 1000);
}

function languageName(code: string | undefined): string {
  const names: Record<string, string> = { en: 'english', de: 'german', fr: 'french', es: 'spanish', it: 'italian', nl: 'dutch', pt: 'portuguese' };
  return code ? (names[code] ?? code) : 'english';
}
