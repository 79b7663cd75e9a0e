// The OpenAI-compatible adapters as one module, so the page loads them (and the openai client)
// only when its server has one of these services configured.

export { OpenAIChatModel } from './chat-model.ts';
export { OpenAISpeech } from './speech.ts';
export { OpenAITranscriber } from './transcriber.ts';
export { RealtimeTranscriber } from './realtime-transcriber.ts';
export { checkChat, checkSpeech, checkTranscription, type CheckResult } from './service-checks.ts';
