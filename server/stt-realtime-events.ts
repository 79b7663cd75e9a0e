// What crosses the streaming speech recognition relay (stt-realtime.ts), in the words of the
// OpenAI Realtime transcription protocol: the session the server configures itself, the three
// events a page may send (each rebuilt from its checked fields, never passed on as written), the
// service's events a page may see (the rest are dropped), and the errors the relay tells the
// page in the service's own shape.

import type { RawData } from 'ws';
import { parseOutsideJson, TOO_DEEP } from './json-depth.ts';
import { mapTexts, type Scrubber } from './secrets.ts';
import { scrubSecret } from './upstream-error.ts';

/** The service's events the page is given; anything else the service sends is dropped. */
export const PASSED_TO_PAGE: ReadonlySet<string> = new Set([
  'session.created',
  'session.updated',
  'transcription_session.created',
  'transcription_session.updated',
  'input_audio_buffer.committed',
  'input_audio_buffer.cleared',
  'input_audio_buffer.speech_started',
  'input_audio_buffer.speech_stopped',
  'conversation.item.input_audio_transcription.delta',
  'conversation.item.input_audio_transcription.completed',
  'conversation.item.input_audio_transcription.failed',
  'conversation.item.added',
  'conversation.item.created',
  'error',
]);

/** The longest `event_id` a page may give its events. */
const MAX_EVENT_ID = 128;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** `{STT_BASE_URL}/realtime?intent=transcription`, on ws:// or wss:// as the base URL is http or https. */
export function realtimeUrl(baseUrl: string): URL {
  const url = new URL(`${baseUrl}/realtime`);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('intent', 'transcription');
  return url;
}

/**
 * The configuration the server sends as soon as the service's socket opens: a transcription
 * session taking pcm16 at 24 kHz, the server's model, the visit's language when the page named
 * one, and no turn detection of the service's own (the kiosk's turn-taking commits each turn).
 */
export function sessionUpdate(model: string, language: string | undefined): string {
  const transcription = language === undefined ? { model } : { model, language };
  const session = { type: 'transcription', audio: { input: { format: { type: 'audio/pcm', rate: 24000 }, transcription, turn_detection: null } } };
  return JSON.stringify({ type: 'session.update', session });
}

/** A page's event, checked: the text to send the service, or why it is refused. */
export type PageEvent = { ok: true; type: string; text: string } | { ok: false; code: string; message: string; eventId: string | null };

/**
 * Checks one message from the page and rebuilds it: only `input_audio_buffer.append` (base64
 * pcm16 audio), `.commit` and `.clear`, each with an optional `event_id`; any other field is
 * left behind.
 */
export function checkPageEvent(data: RawData, isBinary: boolean, maxBytes: number): PageEvent {
  const refuse = (code: string, message: string, eventId: string | null = null): PageEvent => ({ ok: false, code, message, eventId });
  if (isBinary) return refuse('binary_not_accepted', "The kiosk's relay takes JSON events as text frames, not binary ones.");
  const bytes = toBuffer(data);
  if (bytes.length > maxBytes) return refuse('message_too_large', `An event may be at most ${Math.round(maxBytes / 1024)} KB; send the audio in smaller pieces.`);
  const parsed = parseOutsideJson(bytes.toString('utf8'));
  if (!parsed.ok) return refuse(parsed.problem === 'too_deep' ? 'too_deep' : 'invalid_json', parsed.problem === 'too_deep' ? `The event is ${TOO_DEEP}.` : 'The message is not a JSON event.');
  const event = parsed.value;
  if (event === null || typeof event !== 'object' || Array.isArray(event)) return refuse('invalid_event', 'An event is a JSON object with a type.');
  const fields = event as Record<string, unknown>;
  const eventId = fields['event_id'];
  if (eventId !== undefined && (typeof eventId !== 'string' || eventId.length > MAX_EVENT_ID)) {
    return refuse('invalid_event_id', `event_id, when given, is a text of at most ${MAX_EVENT_ID} characters.`);
  }
  const id = eventId === undefined ? {} : { event_id: eventId };
  const type = fields['type'];
  switch (type) {
    case 'input_audio_buffer.append': {
      const audio = fields['audio'];
      if (typeof audio !== 'string' || !isPcm16Base64(audio)) {
        return refuse('invalid_audio', 'audio must be 16-bit PCM at 24 kHz in base64, at least one sample.', eventId ?? null);
      }
      return { ok: true, type, text: JSON.stringify({ type, ...id, audio }) };
    }
    case 'input_audio_buffer.commit':
    case 'input_audio_buffer.clear':
      return { ok: true, type, text: JSON.stringify({ type, ...id }) };
    case 'session.update':
      return refuse('not_allowed', "The kiosk's server configures the session itself; a session.update from the page is not passed on.", eventId ?? null);
    default: {
      const shown = typeof type === 'string' ? `"${type.slice(0, 64)}"` : 'an event without a type';
      return refuse('unknown_event', `Only input_audio_buffer.append, .commit and .clear are passed on, not ${shown}.`, eventId ?? null);
    }
  }
}

/**
 * One of the service's events as the page may see it, or null when it is dropped. The key is
 * taken out of all its texts (`scrubber`: the key as written, encoded or cut short); its `error`
 * (an `error` event's, a failed transcription's) is read as the upload route reads the service's
 * error answer (`scrubSecret`: the key masked, pieces of it, any other `sk-…` key). The words a
 * visitor said are not held to that looser rule, which would take out any word sharing four
 * letters with the key.
 */
export function eventForPage(data: RawData, isBinary: boolean, scrubber: Scrubber, key: string | undefined): string | null {
  if (isBinary) return null;
  const parsed = parseOutsideJson(toBuffer(data).toString('utf8'));
  if (!parsed.ok || parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) return null;
  const type = (parsed.value as Record<string, unknown>)['type'];
  if (typeof type !== 'string' || !PASSED_TO_PAGE.has(type)) return null;
  const event = scrubber.deep(parsed.value) as Record<string, unknown>;
  if (event['error'] !== undefined) event['error'] = mapTexts(event['error'], (text) => scrubSecret(text, key));
  return JSON.stringify(event);
}

let sequence = 0;

/**
 * An `error` event from the relay itself, shaped as the service's: `type` is
 * `invalid_request_error` for the page's own mistakes, `server_error` when the service failed.
 */
export function relayError(code: string, message: string, type: 'invalid_request_error' | 'server_error', eventId: string | null = null): string {
  sequence += 1;
  return JSON.stringify({ type: 'error', event_id: `event_kiosk_${sequence}`, error: { type, code, message, param: null, event_id: eventId } });
}

/** Base64 of a whole number of 16-bit samples, at least one. */
function isPcm16Base64(text: string): boolean {
  if (text.length === 0 || text.length % 4 !== 0 || !BASE64.test(text)) return false;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return ((text.length / 4) * 3 - padding) % 2 === 0;
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
