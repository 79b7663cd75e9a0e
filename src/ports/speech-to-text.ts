// The speech-to-text ports. Two kinds of recogniser exist: one that is handed a finished segment
// of speech (an OpenAI-compatible transcription service), and one that listens by itself and
// finds the ends of turns on its own (the browser's Web Speech API). Adapters implement them.

import type { ServiceError } from './service-error.ts';

/** A segment of the visitor's speech: mono samples in [-1, 1]. */
export interface SpeechSegment {
  samples: Float32Array;
  /** samples per second (16000 from the VAD) */
  sampleRate: number;
}

export interface TranscribeOptions {
  /** ISO 639-1 code, e.g. "en" */
  language: string;
  signal?: AbortSignal;
}

/** A recogniser that transcribes one finished segment. Throws a ServiceError when it fails. */
export interface SegmentTranscriber {
  readonly kind: 'segment';
  readonly name: string;
  transcribe(segment: SpeechSegment, options: TranscribeOptions): Promise<string>;
}

export interface LiveRecognitionEvents {
  /** words heard so far in the current turn; not final, shown greyed */
  interim(text: string): void;
  /** the final text of one turn */
  final(text: string): void;
  /** the recogniser stopped working; it does not restart by itself */
  failed(error: ServiceError): void;
}

/** A recogniser that listens to the microphone itself (Web Speech). */
export interface LiveRecognizer {
  readonly kind: 'live';
  readonly name: string;
  /** true when recognition runs on the device (no audio leaves it) */
  readonly onDevice: boolean;
  /** Starts listening in `language` (BCP 47); restarts itself between turns until stopped. */
  start(language: string, events: LiveRecognitionEvents): void;
  stop(): void;
}

export type SpeechToText = SegmentTranscriber | LiveRecognizer;
