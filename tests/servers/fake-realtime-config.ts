// The fake Realtime transcription session's configuration: the session a socket starts with
// (OpenAI's defaults for `?intent=transcription`) and the checks of a `session.update`, which
// refuse what OpenAI refuses (another session type, unknown parameters, a bad language) and
// what the fake does not take (any audio but `audio/pcm` at 24 kHz, a session with no model).

import type { AudioTranscription, RealtimeTranscriptionSessionAudioInputTurnDetection } from 'openai/resources/realtime/realtime';

let counter = 0;
/** An id like OpenAI's (`event_`, `item_`, `sess_` and 20 letters), unique in this process. */
export function realtimeId(prefix: 'event' | 'item' | 'sess'): string {
  counter += 1;
  return `${prefix}_${counter.toString(36).padStart(6, '0')}${Math.random().toString(36).slice(2, 16).padEnd(14, 'x')}`;
}

/** A transcription session as `session.created` and `session.updated` show it. */
export interface TranscriptionSession {
  id: string;
  object: 'realtime.transcription_session';
  type: 'transcription';
  /** seconds since the epoch */
  expires_at: number;
  audio: {
    input: {
      format: { type: 'audio/pcm'; rate: 24000 };
      noise_reduction?: { type?: 'near_field' | 'far_field' };
      /** absent: nothing is transcribed */
      transcription?: AudioTranscription;
      turn_detection: RealtimeTranscriptionSessionAudioInputTurnDetection | null;
    };
  };
  include?: Array<'item.input_audio_transcription.logprobs'>;
}

/** What a `session.update` comes to: the session in effect after it, or the error OpenAI would send. */
export type CheckedUpdate = { ok: true; session: TranscriptionSession } | { ok: false; code: string; message: string; param: string };

/** A new socket's session: pcm at 24 kHz, no transcription yet, server VAD on (shown, not performed). */
export function newTranscriptionSession(): TranscriptionSession {
  return {
    id: realtimeId('sess'),
    object: 'realtime.transcription_session',
    type: 'transcription',
    expires_at: Math.floor(Date.now() / 1000) + 30 * 60,
    audio: {
      input: {
        format: { type: 'audio/pcm', rate: 24000 },
        turn_detection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 500 },
      },
    },
  };
}

const SESSION_KEYS = ['type', 'audio', 'include'];
const INPUT_KEYS = ['format', 'noise_reduction', 'transcription', 'turn_detection'];
const TRANSCRIPTION_KEYS = ['model', 'language', 'prompt', 'delay'];

class Refusal extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly param: string,
  ) {
    super(message);
  }
}

/** `update` (a `session.update`'s `session`) applied to `current`, or why it is refused (nothing changes then). */
export function checkSessionUpdate(update: unknown, current: TranscriptionSession): CheckedUpdate {
  try {
    return { ok: true, session: apply(update, current) };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return { ok: false, code: error.code, message: error.message, param: error.param };
  }
}

function apply(update: unknown, current: TranscriptionSession): TranscriptionSession {
  const session = object(update, 'session');
  if (session['type'] === undefined) throw new Refusal('missing_required_parameter', "Missing required parameter: 'session.type'.", 'session.type');
  if (session['type'] !== 'transcription') {
    throw new Refusal('invalid_value', `Invalid value: '${String(session['type'])}'. This is a transcription session: 'session.type' must be 'transcription'.`, 'session.type');
  }
  known(session, SESSION_KEYS, 'session');
  const next: TranscriptionSession = structuredClone(current);
  if (session['include'] !== undefined) next.include = include(session['include']);
  const audio = session['audio'] === undefined ? {} : object(session['audio'], 'session.audio');
  known(audio, ['input'], 'session.audio');
  const input = audio['input'] === undefined ? {} : object(audio['input'], 'session.audio.input');
  known(input, INPUT_KEYS, 'session.audio.input');
  if (input['format'] !== undefined) format(input['format']);
  if (input['noise_reduction'] !== undefined) {
    if (input['noise_reduction'] === null) delete next.audio.input.noise_reduction;
    else next.audio.input.noise_reduction = noiseReduction(input['noise_reduction']);
  }
  if (input['turn_detection'] !== undefined) next.audio.input.turn_detection = turnDetection(input['turn_detection']);
  if (input['transcription'] === null) delete next.audio.input.transcription;
  else if (input['transcription'] !== undefined) next.audio.input.transcription = { ...next.audio.input.transcription, ...transcription(input['transcription']) };
  if (!next.audio.input.transcription?.model) {
    const param = 'session.audio.input.transcription.model';
    throw new Refusal('missing_required_parameter', `Missing required parameter: '${param}'.`, param);
  }
  return next;
}

function format(value: unknown): void {
  const given = object(value, 'session.audio.input.format');
  known(given, ['type', 'rate'], 'session.audio.input.format');
  if (given['type'] !== 'audio/pcm' || (given['rate'] !== undefined && given['rate'] !== 24000)) {
    const shown = JSON.stringify(given);
    throw new Refusal('invalid_value', `Invalid value: ${shown}. The fake takes audio/pcm at 24000 Hz only.`, 'session.audio.input.format');
  }
}

function transcription(value: unknown): AudioTranscription {
  const param = 'session.audio.input.transcription';
  const given = object(value, param);
  known(given, TRANSCRIPTION_KEYS, param);
  const out: AudioTranscription = {};
  if (given['model'] !== undefined) {
    if (typeof given['model'] !== 'string' || given['model'] === '') throw new Refusal('invalid_type', `Invalid type for '${param}.model': expected a model name.`, `${param}.model`);
    out.model = given['model'];
  }
  if (given['language'] !== undefined && given['language'] !== null) {
    if (typeof given['language'] !== 'string' || !/^[a-z]{2,3}$/.test(given['language'])) {
      throw new Refusal('invalid_value', `Invalid language '${String(given['language'])}'. Language parameter must be specified in ISO-639-1 format.`, `${param}.language`);
    }
    out.language = given['language'];
  }
  if (typeof given['prompt'] === 'string') out.prompt = given['prompt'];
  return out;
}

function turnDetection(value: unknown): RealtimeTranscriptionSessionAudioInputTurnDetection | null {
  if (value === null) return null;
  const given = object(value, 'session.audio.input.turn_detection');
  if (given['type'] === 'server_vad' || given['type'] === 'semantic_vad') return given as unknown as RealtimeTranscriptionSessionAudioInputTurnDetection;
  throw new Refusal('invalid_value', `Invalid value: '${String(given['type'])}'. Supported values are: 'server_vad' and 'semantic_vad'.`, 'session.audio.input.turn_detection.type');
}

function noiseReduction(value: unknown): { type?: 'near_field' | 'far_field' } {
  const given = object(value, 'session.audio.input.noise_reduction');
  if (given['type'] === 'near_field' || given['type'] === 'far_field') return { type: given['type'] };
  throw new Refusal('invalid_value', `Invalid value: '${String(given['type'])}'. Supported values are: 'near_field' and 'far_field'.`, 'session.audio.input.noise_reduction.type');
}

function include(value: unknown): Array<'item.input_audio_transcription.logprobs'> {
  if (Array.isArray(value) && value.every((item) => item === 'item.input_audio_transcription.logprobs')) return value as Array<'item.input_audio_transcription.logprobs'>;
  throw new Refusal('invalid_value', "Invalid value for 'session.include'. Supported values are: 'item.input_audio_transcription.logprobs'.", 'session.include');
}

function object(value: unknown, param: string): Record<string, unknown> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new Refusal('invalid_type', `Invalid type for '${param}': expected an object, but got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`} instead.`, param);
}

function known(value: Record<string, unknown>, keys: readonly string[], param: string): void {
  const unknown = Object.keys(value).find((key) => !keys.includes(key));
  if (unknown !== undefined) throw new Refusal('unknown_parameter', `Unknown parameter: '${param}.${unknown}'.`, `${param}.${unknown}`);
}
