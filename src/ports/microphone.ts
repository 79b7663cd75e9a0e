// The microphone port: audio from the visitor, already cut into the voice-activity detector's
// frames and scored by it. The turn-taking logic (voice/turn-taking.ts) reads these frames.

import type { ServiceError } from './service-error.ts';

export interface VoiceFrame {
  /** mono samples at `sampleRate`, in [-1, 1] */
  samples: Float32Array;
  /** the detector's probability that the frame holds speech, 0..1 */
  probability: number;
}

export interface MicrophoneEvents {
  frame(frame: VoiceFrame): void;
  /** the browser gave the microphone; frames follow once the detector has loaded (it may still be loading) */
  granted?(): void;
  /**
   * the microphone stopped giving sound while open (its frames stopped coming: the audio was
   * suspended, the device went away) and has been closed; `error` is a ServiceError (`timeout`)
   */
  lost?(error: ServiceError): void;
}

export interface Microphone {
  /** samples per second of the frames (16000) */
  readonly sampleRate: number;
  /** duration of one frame in milliseconds */
  readonly frameMs: number;
  /**
   * Asks for the microphone and starts sending frames; resolves once the first frame has come.
   * Rejects with a ServiceError (service `microphone`, failure `denied` or `missing`,
   * `malformed` when the detector cannot load, or `timeout` when the open microphone gives no
   * sound). A refused or missing microphone rejects as soon as the browser says so, without
   * waiting for the detector.
   */
  open(events: MicrophoneEvents): Promise<void>;
  /** Stops the microphone (the browser's recording indicator goes off). Safe to call twice. */
  close(): Promise<void>;
}
