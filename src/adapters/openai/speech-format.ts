// Whether a speech service takes `response_format: 'pcm'`. OpenAI and most compatible servers
// stream it; some know only mp3 or wav and refuse it with a 400 about the format, and some
// answer with something else (their default encoding, an error page). Either way the kiosk
// falls back to whole WAV clips, which every one of them speaks.

/** Statuses with which a service refuses a request it cannot take as asked. */
const REFUSAL_STATUSES = new Set([400, 415, 422]);

/** An error answer that says the service does not take pcm (OpenAI's 400, FastAPI's 422). */
export function refusesPcm(status: number | undefined, message: string): boolean {
  return status !== undefined && REFUSAL_STATUSES.has(status) && /response_format|format|pcm/i.test(message);
}

/** Content types raw pcm is sent with; none at all counts too. */
const PCM_TYPES = new Set(['audio/pcm', 'audio/l16', 'audio/raw', 'audio/x-raw', 'application/octet-stream']);

/** Whether a successful answer with this content type can hold raw pcm (not JSON, HTML, mp3, wav …). */
export function carriesPcm(contentType: string | null): boolean {
  if (contentType === null) return true;
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return type === '' || PCM_TYPES.has(type);
}

/** A service's refusal of pcm: the sentence is asked for again as WAV. */
export class PcmRefused extends Error {
  constructor(detail: string) {
    super(`the speech service does not stream pcm: ${detail}`);
    this.name = 'PcmRefused';
  }
}
