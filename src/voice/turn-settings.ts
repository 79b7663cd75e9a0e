// How the kiosk listens in a step, as settings: the flow's waits (`turn_taking` over the
// defaults), the detector's thresholds (the operator's microphone sensitivity), the kind of answer
// awaited, and what the words of an answer are read against. Plain data; turn-taking.ts and
// turn-words.ts act on it.

import { TURN_TAKING_DEFAULTS } from '../engine/language/flow.ts';

/** How long to wait, how much sound counts as speech, and whether the visitor may interrupt. */
export interface TurnTakingSettings {
  /** silence that ends a free answer (a name, yes or no, a choice) */
  endSilenceMs: number;
  /** silence that ends a dictated answer (number, phone, date, email) */
  dictationSilenceMs: number;
  /** sound shorter than this is noise (a cough, a click, a door), not speech */
  minSpeechMs: number;
  /** the visitor may talk over the kiosk to interrupt it */
  bargeIn: boolean;
  /** speech needed over the kiosk's own voice before it stops for the visitor */
  bargeInMs: number;
  /** the words heard so far shape the wait (where recognition gives them while the visitor speaks) */
  words: boolean;
  /** silence that ends an answer whose words stop mid-thought ("my name is", "and", "um") */
  unfinishedSilenceMs: number;
  /** silence that ends an answer whose words are plainly whole ("yes", an option, a full date) */
  completeSilenceMs: number;
}

export const DEFAULT_TURN_TAKING: Readonly<TurnTakingSettings> = TURN_TAKING_DEFAULTS;

/** The detector's thresholds and the audio kept around a segment. Not flow settings. */
export interface DetectorSettings {
  /** a frame at or above this probability is speech */
  speechThreshold: number;
  /** while the kiosk speaks, a frame must reach this to count (its own voice may leak in) */
  speechThresholdWhileSpeaking: number;
  /** a frame below this is silence; between the two thresholds, speech goes on */
  silenceThreshold: number;
  /** audio kept before the first speech frame, so the first syllable is not clipped */
  prePadMs: number;
  /** silence kept after the last speech frame */
  postPadMs: number;
  /** a turn this long is handed over even without a pause (someone talking on and on) */
  maxTurnMs: number;
  /**
   * speech over the kiosk's voice after which it is held (silent at once), before the barge-in
   * check says whether it was speech (the kiosk stops) or a noise (it is heard again)
   */
  holdMs: number;
  /**
   * silence after speech that may be the end of the turn: the kiosk may start on its reply here,
   * dropping it if the visitor goes on (only acted on when it is shorter than the turn's wait)
   */
  pauseMs: number;
}

export const DEFAULT_DETECTOR: Readonly<DetectorSettings> = {
  speechThreshold: 0.5,
  speechThresholdWhileSpeaking: 0.6,
  silenceThreshold: 0.35,
  prePadMs: 300,
  postPadMs: 100,
  maxTurnMs: 30_000,
  holdMs: 64,
  pauseMs: 32,
};

/** How readily the microphone takes sound for speech: the operator's setting for a quiet or a loud room. */
export type MicSensitivity = 'low' | 'normal' | 'high';

/**
 * The detector's thresholds for a sensitivity: `low` wants a clearer voice (a noisy hall, a
 * kiosk by a door), `high` takes a softer one (a quiet room, a visitor who speaks low).
 */
export function detectorFor(sensitivity: MicSensitivity): DetectorSettings {
  switch (sensitivity) {
    case 'low':
      return { ...DEFAULT_DETECTOR, speechThreshold: 0.7, speechThresholdWhileSpeaking: 0.8, silenceThreshold: 0.5 };
    case 'high':
      return { ...DEFAULT_DETECTOR, speechThreshold: 0.35, speechThresholdWhileSpeaking: 0.5, silenceThreshold: 0.25 };
    case 'normal':
      return DEFAULT_DETECTOR;
  }
}

/** What kind of answer the kiosk is waiting for. */
export type Expectation = 'free' | 'dictation';

/** What the words of an answer are read against: the visit's language, and what the step offers to choose. */
export interface WordsContext {
  /** BCP 47 tag of the visit's language */
  language: string;
  /** the labels of the step's options: one said alone is a whole answer */
  choices: readonly string[];
}

/** How the kiosk listens in a step: the flow's settings, the answer awaited, and what its words are read against. */
export interface Listening extends WordsContext {
  settings: TurnTakingSettings;
  expectation: Expectation;
}

