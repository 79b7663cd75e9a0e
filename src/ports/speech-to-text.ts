// The speech-to-text ports. Three kinds of recogniser exist: one that is handed a finished segment
// of speech (an OpenAI-compatible transcription service), one that is handed the speech while it
// is spoken and answers soon after the kiosk says the turn is over (a streaming service, the
// OpenAI Realtime transcription protocol), and one that listens by itself and finds the ends of
// turns on its own (the browser's Web Speech API). Adapters implement them.

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

/** What a turn's stream tells while the visitor speaks. */
export interface TurnStreamEvents {
  /** the words of the audio committed so far and not yet final; shown greyed */
  interim(text: string): void;
}

/**
 * One stretch of the visitor's speech, sent as it is spoken. The kiosk's turn-taking decides where
 * it ends: `commit` (the words are wanted) or `cancel` (a noise). The stream keeps its audio until
 * its text has arrived, so a dropped connection loses no words: the adapter transcribes the kept
 * audio another way.
 */
export interface TurnStream {
  /** more of the turn's audio, in order, at the `sampleRate` given to `begin` */
  append(samples: Float32Array): void;
  /** the stretch is over: resolves with its text (trimmed, maybe empty); rejects with a ServiceError or an AbortError */
  commit(): Promise<string>;
  /** the stretch was noise: nothing of it is transcribed */
  cancel(): void;
}

export interface StreamOptions extends TranscribeOptions {
  /** samples per second of the audio appended */
  sampleRate: number;
}

/** A recogniser that takes speech while it is spoken (a streaming service). */
export interface StreamingTranscriber {
  readonly kind: 'stream';
  readonly name: string;
  /** Starts a stretch of speech. Never throws: a failure shows in `commit`. */
  begin(options: StreamOptions, events: TurnStreamEvents): TurnStream;
  /** Gets ready for the visit's first turn (opens its connection); optional, and never throws. */
  warm?(language: string): void;
  /** Lets go of the connection (the visit is over). */
  close(): void;
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

export type SpeechToText = SegmentTranscriber | StreamingTranscriber | LiveRecognizer;
