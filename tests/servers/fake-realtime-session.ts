// One socket of the fake Realtime transcription service, speaking OpenAI's GA protocol: the
// session's configuration (`session.update` -> `session.updated`), the input audio buffer
// (append, commit, clear) and, for each commit, the transcription's deltas and its completed
// text. The fake never detects turns itself: a `server_vad` setting is kept and shown, not
// performed, so audio is transcribed only when the client commits it.

import type {
  ConversationItemAdded,
  ConversationItemDone,
  ConversationItemInputAudioTranscriptionCompletedEvent,
  ConversationItemInputAudioTranscriptionDeltaEvent,
  InputAudioBufferClearedEvent,
  InputAudioBufferCommittedEvent,
  RealtimeConversationItemUserMessage,
  RealtimeErrorEvent,
  RealtimeServerEvent,
  SessionCreatedEvent,
  SessionUpdatedEvent,
} from 'openai/resources/realtime/realtime';
import type { RawData, WebSocket } from 'ws';
import { speechSpan, type Audio } from './fake-transcriptions.ts';
import { wallClock, type ServiceTime } from './fake-http.ts';
import { checkSessionUpdate, realtimeId, type TranscriptionSession } from './fake-realtime-config.ts';

/** The only sample rate of `audio/pcm`. */
export const PCM_RATE = 24_000;
/** The least audio a commit takes, as OpenAI's service. */
export const MIN_COMMIT_MS = 100;

/** How fast the fake answers a commit: deltas `deltaSpacingMs` apart from the commit, the completed text at `finalAfterCommitMs` (or after the last delta). */
export interface RealtimeLatency {
  finalAfterCommitMs: number;
  deltaSpacingMs: number;
}

/** How the fake cuts a socket: without a word (the network gone), or with a close code of its own. */
export type DropHow = 'terminate' | number;

/** What the fake recorded of one socket. */
export interface RealtimeSessionRecord {
  /** the path and query the client opened */
  url: string;
  /** the Authorization header as it arrived (undefined: none) */
  authorization: string | undefined;
  /** the `session` of every `session.update`, as received, accepted or not */
  updates: unknown[];
  /** the configuration in effect, as `session.updated` last showed it */
  session: TranscriptionSession;
  /** the transcription model and language in effect */
  model: string | undefined;
  language: string | undefined;
  /** the `type` of each client event in order of arrival (`(binary)`, `(not json)` for the others) */
  received: string[];
  appends: number;
  clears: number;
  /** the `code` of each error event the fake sent */
  errors: string[];
  /** the client or the fake has closed the socket */
  closed: boolean;
  /** the close code seen (1006: no close frame) */
  closeCode?: number;
  /** where the fake cut this socket, when a drop was staged */
  dropped?: 'append' | 'commit';
}

/** One committed stretch of audio and the answer it got. */
export interface RealtimeCommit {
  /** its socket's place in `sessions` */
  session: number;
  itemId: string;
  audioMs: number;
  /** from the first loud 20 ms window to the end of the last (0: silent), as the upload fake measures */
  speechMs: number;
  /** appends in this buffer, and clears since the previous commit */
  appends: number;
  clears: number;
  /** how long before the commit the buffer's first append arrived: above 0 when audio was streamed before the turn ended */
  firstAppendBeforeCommitMs: number;
  /** what the fake answers (from the scripted queue); null when the session has no transcription model */
  transcript: string | null;
  /** its audio began with all of the last answered audio (the kiosk sent the turn again whole): its words replace that answer's */
  again: boolean;
  /** when the commit came, and when its completed text went out (wall clock) */
  time: ServiceTime;
}

/** What a socket asks of the fake that holds it. */
export interface SessionHost {
  latency(): RealtimeLatency;
  /**
   * The next scripted text for a segment with `speechMs` of speech (or the words of the recording
   * its audio holds), and whether the audio was the last answered audio sent again, with more
   * (the kiosk sends a turn again whole when the visitor goes on after a pause): its answer
   * replaces that one's.
   */
  transcribe(speechMs: number, audio: Audio): { text: string; again: boolean };
  /** a staged drop at this point, if any (and counts it) */
  takeDrop(at: 'append' | 'commit'): DropHow | null;
  committed(commit: Omit<RealtimeCommit, 'session'>, record: RealtimeSessionRecord): void;
  /** something in the records changed: wake the waiters */
  changed(): void;
}

/** The events of one socket. */
export class FakeRealtimeSession {
  private buffer: Buffer[] = [];
  private bufferBytes = 0;
  private turnAppends = 0;
  private turnClears = 0;
  private firstAppendAt: number | null = null;
  private lastItemId: string | null = null;
  private answering: Promise<void> = Promise.resolve();

  constructor(
    private readonly socket: WebSocket,
    readonly record: RealtimeSessionRecord,
    private readonly host: SessionHost,
  ) {
    socket.on('message', (data, isBinary) => this.receive(data, isBinary));
    socket.on('close', (code) => {
      record.closed = true;
      record.closeCode = code;
      host.changed();
    });
    const created: SessionCreatedEvent = { type: 'session.created', event_id: realtimeId('event'), session: record.session };
    this.send(created);
  }

  private receive(data: RawData, isBinary: boolean): void {
    if (isBinary) {
      this.record.received.push('(binary)');
      return this.error('invalid_json', 'Binary frames are not supported; send JSON events as text.');
    }
    let event: Record<string, unknown>;
    try {
      event = JSON.parse(String(data)) as Record<string, unknown>;
      if (event === null || typeof event !== 'object' || Array.isArray(event)) throw new Error('not an object');
    } catch {
      this.record.received.push('(not json)');
      return this.error('invalid_json', "We could not parse the JSON body of your request. (HINT: send a JSON object with a 'type'.)");
    }
    const type = typeof event['type'] === 'string' ? event['type'] : '';
    const eventId = typeof event['event_id'] === 'string' ? event['event_id'] : null;
    this.record.received.push(type);
    this.host.changed();
    if (type === 'session.update') return this.update(event['session'], eventId);
    if (type === 'input_audio_buffer.append') return this.append(event['audio'], eventId);
    if (type === 'input_audio_buffer.commit') return this.commit(eventId);
    if (type === 'input_audio_buffer.clear') return this.clear();
    const supported = "'session.update', 'input_audio_buffer.append', 'input_audio_buffer.commit', 'input_audio_buffer.clear'";
    this.error('invalid_value', `Invalid value: '${type}'. This transcription session supports ${supported}.`, 'type', eventId);
  }

  private update(session: unknown, eventId: string | null): void {
    this.record.updates.push(session);
    const checked = checkSessionUpdate(session, this.record.session);
    if (!checked.ok) return this.error(checked.code, checked.message, checked.param, eventId);
    this.record.session = checked.session;
    this.record.model = checked.session.audio.input.transcription?.model;
    this.record.language = checked.session.audio.input.transcription?.language ?? undefined;
    const updated: SessionUpdatedEvent = { type: 'session.updated', event_id: realtimeId('event'), session: checked.session };
    this.send(updated);
    this.host.changed();
  }

  private append(audio: unknown, eventId: string | null): void {
    if (typeof audio !== 'string' || audio.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(audio)) {
      return this.error('invalid_value', "Invalid 'audio'. Expected base64-encoded audio bytes.", 'audio', eventId);
    }
    const bytes = Buffer.from(audio, 'base64');
    if (bytes.length % 2 !== 0) return this.error('invalid_value', "Invalid 'audio': audio/pcm takes whole 16-bit samples.", 'audio', eventId);
    this.buffer.push(bytes);
    this.bufferBytes += bytes.length;
    this.record.appends += 1;
    this.turnAppends += 1;
    this.firstAppendAt ??= performance.now();
    this.host.changed();
    const drop = this.host.takeDrop('append');
    if (drop !== null) this.cut('append', drop);
  }

  private commit(eventId: string | null): void {
    const drop = this.host.takeDrop('commit');
    if (drop !== null) return this.cut('commit', drop);
    const audioMs = (this.bufferBytes / 2 / PCM_RATE) * 1000;
    if (audioMs < MIN_COMMIT_MS) {
      const message = `Error committing input audio buffer: buffer too small. Expected at least ${MIN_COMMIT_MS}ms of audio, but buffer only has ${audioMs.toFixed(2)}ms of audio.`;
      return this.error('input_audio_buffer_commit_empty', message, null, eventId);
    }
    const samples = toFloat(Buffer.concat(this.buffer));
    const speechMs = speechSpan(samples, PCM_RATE);
    const answer = this.record.model === undefined ? null : this.host.transcribe(speechMs, { samples, sampleRate: PCM_RATE });
    const itemId = realtimeId('item');
    const previous = this.lastItemId;
    const commit = {
      time: { receivedAt: wallClock() } as ServiceTime,
      itemId,
      audioMs: Math.round(audioMs),
      speechMs,
      appends: this.turnAppends,
      clears: this.turnClears,
      firstAppendBeforeCommitMs: Math.round(performance.now() - (this.firstAppendAt ?? performance.now())),
      transcript: answer?.text ?? null,
      again: answer?.again ?? false,
    };
    this.lastItemId = itemId;
    this.emptyBuffer();
    this.turnClears = 0;
    const committed: InputAudioBufferCommittedEvent = { type: 'input_audio_buffer.committed', event_id: realtimeId('event'), item_id: itemId, previous_item_id: previous };
    this.send(committed);
    const added: ConversationItemAdded = { type: 'conversation.item.added', event_id: realtimeId('event'), item: userItem(itemId, null), previous_item_id: previous };
    this.send(added);
    this.host.committed(commit, this.record);
    const transcript = commit.transcript;
    if (transcript !== null) this.answering = this.answering.then(() => this.answer(itemId, previous, transcript, audioMs, commit.time));
  }

  /** The deltas (a word each), then the completed text and the item done, paced by the latency profile. */
  private async answer(itemId: string, previous: string | null, transcript: string, audioMs: number, time: ServiceTime): Promise<void> {
    const { finalAfterCommitMs, deltaSpacingMs } = this.host.latency();
    const started = performance.now();
    const words = transcript.match(/\s*\S+/g) ?? [];
    for (const [i, word] of words.entries()) {
      await sleepUntil(started + i * deltaSpacingMs);
      const delta: ConversationItemInputAudioTranscriptionDeltaEvent = {
        type: 'conversation.item.input_audio_transcription.delta',
        event_id: realtimeId('event'),
        item_id: itemId,
        content_index: 0,
        delta: word,
      };
      this.send(delta);
    }
    await sleepUntil(started + finalAfterCommitMs);
    const completed: ConversationItemInputAudioTranscriptionCompletedEvent = {
      type: 'conversation.item.input_audio_transcription.completed',
      event_id: realtimeId('event'),
      item_id: itemId,
      content_index: 0,
      transcript,
      usage: { type: 'duration', seconds: Math.round(audioMs) / 1000 },
    };
    this.send(completed);
    time.answeredAt = wallClock();
    const done: ConversationItemDone = { type: 'conversation.item.done', event_id: realtimeId('event'), item: userItem(itemId, transcript), previous_item_id: previous };
    this.send(done);
  }

  private clear(): void {
    this.emptyBuffer();
    this.record.clears += 1;
    this.turnClears += 1;
    const cleared: InputAudioBufferClearedEvent = { type: 'input_audio_buffer.cleared', event_id: realtimeId('event') };
    this.send(cleared);
    this.host.changed();
  }

  private emptyBuffer(): void {
    this.buffer = [];
    this.bufferBytes = 0;
    this.turnAppends = 0;
    this.firstAppendAt = null;
  }

  private cut(at: 'append' | 'commit', how: DropHow): void {
    this.record.dropped = at;
    if (how === 'terminate') this.socket.terminate();
    else this.socket.close(how, 'the fake dropped this session');
    this.host.changed();
  }

  private error(code: string, message: string, param: string | null = null, eventId: string | null = null): void {
    this.record.errors.push(code);
    const event: RealtimeErrorEvent = { type: 'error', event_id: realtimeId('event'), error: { type: 'invalid_request_error', code, message, param, event_id: eventId } };
    this.send(event);
    this.host.changed();
  }

  private send(event: RealtimeServerEvent): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(event));
  }
}

/** The user message a committed buffer becomes; its transcript is null until it is known. */
function userItem(id: string, transcript: string | null): RealtimeConversationItemUserMessage {
  // OpenAI writes `"transcript": null` until it is known; the SDK's types spell that as no field.
  return { id, object: 'realtime.item', type: 'message', role: 'user', status: 'completed', content: [{ type: 'input_audio', ...(transcript === null ? {} : { transcript }) }] };
}

/** Little-endian 16-bit samples as floats from -1 to 1. */
function toFloat(bytes: Buffer): Float32Array {
  const out = new Float32Array(bytes.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readInt16LE(i * 2) / 32768;
  return out;
}

function sleepUntil(at: number): Promise<void> {
  const ms = at - performance.now();
  return ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
}
