// The text-to-speech port: the kiosk's spoken replies. A reply is spoken sentence by sentence; the
// next sentence is prepared (synthesised, fetched) while the one before it plays.

export interface SpeakOptions {
  /** BCP 47, from the flow's `language` */
  language: string;
  signal?: AbortSignal;
}

/** One sentence, ready to play. */
export interface SpokenClip {
  /**
   * Plays the sentence; resolves when it has finished. Aborting `signal` silences it at once and
   * resolves. `started` is called when sound begins. Rejects with a ServiceError on failure.
   */
  play(signal: AbortSignal, started: () => void): Promise<void>;
}

export interface TextToSpeech {
  readonly name: string;
  /** Prepares one sentence. Rejects with a ServiceError when the service fails. */
  prepare(text: string, options: SpeakOptions): Promise<SpokenClip>;
}
