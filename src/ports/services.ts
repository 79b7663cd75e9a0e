// Which outside services this kiosk's server is configured with, as the server tells the page
// (`GET /api/config`). Names only: keys and addresses stay on the server.

export interface ServiceConfig {
  /** the chat model behind /api/llm, or null when none is configured */
  llm: { model: string } | null;
  /** the transcription model behind /api/stt */
  stt: { model: string } | null;
  /** the speech model, voice and audio format behind /api/tts (format absent: `auto`) */
  tts: { model: string; voice: string; format?: SpeechFormat } | null;
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
  /** `${tts}/audio/speech` */
  tts: '/api/tts',
} as const;
