// What the proxy sends upstream in place of the page's request: the server's own model on every
// route, a capped chat (one choice, a bounded number of tokens), a voice from the operator's list,
// and a transcription form rebuilt from the fields OpenAI's endpoint knows. The page can spend
// the operator's keys only as the kiosk itself would.

import type { ChatService, SpeechService, UpstreamService } from './config.ts';
import { DEFAULT_LLM_MAX_TOKENS } from './config.ts';
import { parseOutsideJson, TOO_DEEP } from './json-depth.ts';

/** The body and content type to send upstream, or what is wrong with the page's request (a 400). */
export type Prepared = { ok: true; body: Buffer; contentType: string } | { ok: false; message: string };

/** The fields of a transcription request taken from the page (`model` is the server's own). */
export const TRANSCRIPTION_FIELDS = ['file', 'language', 'prompt', 'response_format', 'temperature', 'timestamp_granularities[]'] as const;

/** The fields that may come more than once (`[]` arrays in OpenAI's form encoding). */
const REPEATABLE = new Set<string>(['timestamp_granularities[]']);

/** The chat request with the server's model, `n` at 1 and its token limit at most the cap (set to the cap when absent). */
export function prepareChat(body: Buffer, service: ChatService): Prepared {
  const request = jsonObject(body, 'chat');
  if (typeof request === 'string') return { ok: false, message: request };
  request['model'] = service.model;
  if (request['n'] !== undefined) request['n'] = 1;
  // A paid tier above the account's own is the operator's choice, never the page's.
  delete request['service_tier'];
  const cap = service.maxTokens ?? DEFAULT_LLM_MAX_TOKENS;
  for (const field of ['max_tokens', 'max_completion_tokens']) if (request[field] === null) delete request[field];
  const limits = ['max_tokens', 'max_completion_tokens'].filter((field) => request[field] !== undefined);
  for (const field of limits) {
    const asked = request[field];
    if (typeof asked !== 'number' || !Number.isInteger(asked) || asked < 1) return { ok: false, message: `${field} must be a whole number above 0.` };
    request[field] = Math.min(asked, cap);
  }
  // Every current OpenAI chat model takes max_completion_tokens (the reasoning ones refuse
  // max_tokens); servers that do not know it ignore it.
  if (limits.length === 0) request['max_completion_tokens'] = cap;
  return json(request);
}

/**
 * The speech request with the server's model, a voice from the operator's list (TTS_VOICE when
 * none is named), and an audio format the kiosk plays: pcm or wav, or the one TTS_FORMAT forces
 * (pcm, or the forced one, when none is named).
 */
export function prepareSpeech(body: Buffer, service: SpeechService): Prepared {
  const request = jsonObject(body, 'speech');
  if (typeof request === 'string') return { ok: false, message: request };
  request['model'] = service.model;
  const formats = service.format ? [service.format] : ['pcm', 'wav'];
  const format = request['response_format'];
  if (format === undefined || format === null) {
    request['response_format'] = formats[0];
  } else if (typeof format !== 'string' || !formats.includes(format)) {
    const named = typeof format === 'string' ? `"${format.slice(0, 20)}"` : 'that';
    const forced = service.format ? ' (TTS_FORMAT)' : '';
    return { ok: false, message: `The response_format ${named} is not offered on this kiosk; it speaks ${formats.join(' or ')}${forced}.` };
  }
  const voices = service.voices ?? [service.voice];
  const voice = request['voice'];
  if (voice === undefined || voice === null || voice === '') {
    request['voice'] = service.voice;
  } else if (typeof voice !== 'string' || !voices.includes(voice)) {
    const named = typeof voice === 'string' ? `The voice "${voice.slice(0, 40)}"` : 'That voice';
    return { ok: false, message: `${named} is not offered on this kiosk; it speaks with ${voices.join(', ')} (TTS_VOICES).` };
  }
  return json(request);
}

/**
 * The transcription form rebuilt: the page's audio file and the fields OpenAI's endpoint knows,
 * with the server's model. Anything else in the form is refused, not passed on.
 */
export async function prepareTranscription(body: Buffer, contentType: string, service: UpstreamService): Promise<Prepared> {
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
  } catch {
    return { ok: false, message: 'The transcription request is not a well-formed multipart form.' };
  }
  const names = [...new Set([...form.keys()])];
  const unknown = names.filter((name) => name !== 'model' && !(TRANSCRIPTION_FIELDS as readonly string[]).includes(name));
  if (unknown.length) {
    return { ok: false, message: `Unknown field${unknown.length > 1 ? 's' : ''} in the transcription form: ${unknown.slice(0, 5).map((n) => n.slice(0, 40)).join(', ')} (it takes ${TRANSCRIPTION_FIELDS.join(', ')}).` };
  }
  const file = form.getAll('file');
  if (file.length !== 1 || typeof file[0] === 'string') return { ok: false, message: 'The transcription form needs exactly one audio file, as the field "file".' };
  const out = new FormData();
  out.append('file', file[0]!);
  out.append('model', service.model);
  for (const name of TRANSCRIPTION_FIELDS) {
    if (name === 'file') continue;
    const values = form.getAll(name);
    if (values.length > 1 && !REPEATABLE.has(name)) return { ok: false, message: `The field "${name}" is given more than once.` };
    for (const value of values) {
      if (typeof value !== 'string') return { ok: false, message: `The field "${name}" must be text, not a file.` };
      out.append(name, value);
    }
  }
  const encoded = new Request('http://transcription.invalid/', { method: 'POST', body: out });
  return { ok: true, body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type') ?? '' };
}

/** The page's JSON object, or a sentence saying why it is refused. */
function jsonObject(body: Buffer, what: string): Record<string, unknown> | string {
  const parsed = parseOutsideJson(body.toString('utf8'));
  if (!parsed.ok) return parsed.problem === 'too_deep' ? `The ${what} request is JSON ${TOO_DEEP}.` : `The ${what} request is not valid JSON.`;
  const value = parsed.value;
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : `The ${what} request must be a JSON object.`;
}

function json(request: Record<string, unknown>): Prepared {
  return { ok: true, body: Buffer.from(JSON.stringify(request)), contentType: 'application/json' };
}
