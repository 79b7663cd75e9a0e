// The text-to-speech port: the kiosk's spoken replies. A reply is spoken sentence by sentence; the
// next sentence is prepared (synthesised, fetched) while the one before it plays.

import { ServiceError } from './service-error.ts';

export interface SpeakOptions {
  /** BCP 47, from the flow's `language` */
  language: string;
  signal?: AbortSignal;
}

/** One sentence, ready to play (its first sound at hand; the rest may still be arriving). */
export interface SpokenClip {
  /**
   * Plays the sentence; resolves when it has finished. Aborting `signal` silences it at once and
   * resolves. `started` is called when sound begins. Rejects with a ServiceError on failure (for
   * a sentence that breaks off while it plays: once what had arrived has been heard, with a
   * BrokenOff saying how much that was).
   *
   * `scheduled`, when the voice can queue sound ahead, is called once all of the sentence is
   * queued: a clip of the same voice played from then on starts exactly where this one ends.
   */
  play(signal: AbortSignal, started: () => void, scheduled?: () => void): Promise<void>;
}

/**
 * A sentence that broke off while it played (its stream failed or stalled after some of it had
 * sounded): the service's failure, and how much of the sentence had been heard, so that the voice
 * taking over goes on from about there instead of saying it all again.
 */
export class BrokenOff extends ServiceError {
  constructor(
    failure: ServiceError,
    readonly heardSeconds: number,
  ) {
    super(failure.service, failure.failure, `${failure.detail} (after ${heardSeconds.toFixed(1)} s of the sentence had been heard)`, failure.status);
    this.name = 'BrokenOff';
  }
}

export interface TextToSpeech {
  readonly name: string;
  /**
   * Prepares one sentence: resolves as soon as it can start sounding (a streaming voice: when
   * its first audio has arrived). Rejects with a ServiceError when the service fails.
   */
  prepare(text: string, options: SpeakOptions): Promise<SpokenClip>;
  /**
   * How loud this voice speaks from now on, as a gain from 0 (silent) to 1 (as loud as it comes);
   * a voice that can also change what it is saying already does. Left out by a voice that cannot.
   */
  setVolume?(gain: number): void;
  /**
   * Holds this voice's sound at once, what is playing now included (someone may be speaking over
   * it), or lets it be heard again (it was a noise). Left out by a voice that cannot.
   */
  hold?(held: boolean): void;
}
