// Which outside services this kiosk's server is configured with, as the server tells the page
// (`GET /api/config`). Names only: keys and addresses stay on the server.

export interface ServiceConfig {
  /**
   * the chat model behind /api/llm, or null when none is configured; `earlyStart`: with streaming
   * recognition, ask it for the reply at a pause that may end the turn (LLM_EARLY_START)
   */
  llm: { model: string; earlyStart?: boolean } | null;
  /**
   * the transcription model behind /api/stt, and how to use it: `upload` (a WAV per turn to
   * `${stt}/audio/transcriptions`) or `realtime` (the turn's audio streamed to `sttRealtime`, with
   * the upload as the fallback)
   */
  stt: { model: string; mode: 'upload' | 'realtime' } | null;
  /**
   * the speech model, voice and audio format behind /api/tts (format absent: `auto`), and the
   * voice for visits in a language (`byLanguage`, by lower-case tag or primary subtag)
   */
  tts: { model: string; voice: string; format?: SpeechFormat; byLanguage?: Record<string, string> } | null;
}

/**
 * How the kiosk's voice is fetched (TTS_FORMAT): `pcm` streams raw 24 kHz audio and plays it as
 * it arrives; `wav` fetches each sentence whole; `auto` streams, and fetches whole for the rest
 * of the visit once the service refuses pcm.
 */
export type SpeechFormat = 'auto' | 'pcm' | 'wav';

export const NO_SERVICES: ServiceConfig = { llm: null, stt: null, tts: null };

/** Where the page reaches each service (the server's proxy adds the key). */
export const API = {
  config: '/api/config',
  /** OpenAI-compatible base URL: `${llm}/chat/completions` */
  llm: '/api/llm',
  /** `${stt}/audio/transcriptions` */
  stt: '/api/stt',
  /**
   * A WebSocket relayed to the service's Realtime transcription session (`?language=xx`
   * optional); open when `stt.mode` is `realtime`.
   */
  sttRealtime: '/api/stt/realtime',
  /** `${tts}/audio/speech` */
  tts: '/api/tts',
} as const;
