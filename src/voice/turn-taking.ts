// Turn-taking: when has the visitor started speaking, and when have they finished? A pure
// function of the voice-activity detector's frames and their count (stream time), so it runs on
// recorded audio in Node tests. The waits depend on what is being asked: an answer people dictate
// in groups (a phone number, a date, an email) gets a longer pause before it counts as finished.

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
  pauseMs: 128,
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

export type TurnEvent =
  /**
   * a frame loud enough to be speech: maybe the visitor, maybe a noise; `preRoll` is the audio
   * kept before it and the frame itself, for a recogniser that takes the speech as it comes
   */
  | { type: 'onset'; atMs: number; preRoll: readonly Float32Array[] }
  /** silence after speech, long enough that the turn may be over (`pauseMs`), not yet its end */
  | { type: 'pause'; atMs: number; speechEndMs: number }
  /** speech again after a pause: the turn goes on */
  | { type: 'resume'; atMs: number }
  /** it went on long enough to be speech; over the kiosk's voice, this is a barge-in */
  | { type: 'speech'; atMs: number; overKiosk: boolean }
  /** it stopped too soon: a noise, dropped */
  | { type: 'noise'; atMs: number; durationMs: number }
  /** the visitor finished a turn: its audio, ready for speech recognition */
  | {
      type: 'segment';
      samples: Float32Array;
      /** stream time of the end of the last speech frame */
      speechEndMs: number;
      /** stream time at which the end was decided */
      atMs: number;
      /** duration of the speech in it, from first to last speech frame */
      speechMs: number;
    };

type Phase = 'quiet' | 'onset' | 'speaking';

/**
 * Feeds on frames of equal length; answers each with the events it causes. Stream time is the
 * number of frames seen times their length, so the same audio always gives the same events.
 */
export class TurnTaker {
  private phase: Phase = 'quiet';
  private frames = 0;
  /** recent frames while quiet (the pre-pad), then the frames of the current turn */
  private buffer: Float32Array[] = [];
  private speechFrames = 0;
  private silentFrames = 0;
  private firstSpeechMs = 0;
  private lastSpeechEndMs = 0;
  /** frames in `buffer` up to and including the last speech frame */
  private spokenLength = 0;
  private kioskSpeaking = false;
  private expectation: Expectation = 'free';
  /** a pause was reported in the current silence */
  private paused = false;
  /** frames in a row below the speech threshold (the tail of a word counts: a pause is a guess) */
  private quietFrames = 0;

  constructor(
    private settings: TurnTakingSettings,
    private readonly frameMs: number,
    private readonly detector: DetectorSettings = DEFAULT_DETECTOR,
  ) {}

  /** New waits for the state the flow is in now. */
  configure(settings: TurnTakingSettings, expectation: Expectation): void {
    this.settings = settings;
    this.expectation = expectation;
  }

  /** The kiosk started or stopped talking. While it talks, speech must be longer and louder. */
  setKioskSpeaking(speaking: boolean): void {
    this.kioskSpeaking = speaking;
  }

  /** True between an onset and the end of its turn (or its dismissal as noise). */
  get hearing(): boolean {
    return this.phase !== 'quiet';
  }

  /** Forgets any turn in progress (the microphone closed, the visit ended). */
  reset(): void {
    this.phase = 'quiet';
    this.paused = false;
    this.buffer = [];
    this.speechFrames = 0;
    this.silentFrames = 0;
  }

  push(samples: Float32Array, probability: number): TurnEvent[] {
    const startMs = this.frames * this.frameMs;
    this.frames += 1;
    const endMs = this.frames * this.frameMs;
    const d = this.detector;
    const threshold = this.kioskSpeaking ? d.speechThresholdWhileSpeaking : d.speechThreshold;
    const loud = probability >= threshold;
    const voiced = probability >= d.silenceThreshold;
    const events: TurnEvent[] = [];

    if (this.phase === 'quiet') {
      this.buffer.push(samples);
      const keep = Math.ceil(d.prePadMs / this.frameMs) + 1;
      if (this.buffer.length > keep) this.buffer.splice(0, this.buffer.length - keep);
      if (!loud) return events;
      this.phase = 'onset';
      this.speechFrames = 1;
      this.silentFrames = 0;
      this.firstSpeechMs = startMs;
      this.lastSpeechEndMs = endMs;
      this.spokenLength = this.buffer.length;
      events.push({ type: 'onset', atMs: startMs, preRoll: [...this.buffer] });
      this.promote(endMs, events);
      return events;
    }

    this.buffer.push(samples);
    if (loud) this.speechFrames += 1;
    this.quietFrames = loud ? 0 : this.quietFrames + 1;
    if (voiced) {
      this.silentFrames = 0;
      this.lastSpeechEndMs = endMs;
      this.spokenLength = this.buffer.length;
    } else this.silentFrames += 1;
    const silenceMs = this.silentFrames * this.frameMs;

    if (this.phase === 'onset') {
      if (this.promote(endMs, events)) return events;
      // Too short to be speech once it has gone quiet for as long as a pause between words.
      if (silenceMs >= Math.min(this.settings.endSilenceMs, 200)) {
        events.push({ type: 'noise', atMs: endMs, durationMs: this.lastSpeechEndMs - this.firstSpeechMs });
        this.toQuiet();
      }
      return events;
    }

    const wait = this.expectation === 'dictation' ? this.settings.dictationSilenceMs : this.settings.endSilenceMs;
    if (silenceMs >= wait || endMs - this.firstSpeechMs >= d.maxTurnMs) events.push(this.finish(endMs));
    else this.notePause(wait, endMs, events);
    return events;
  }

  /**
   * A pause that may end the turn (reported once per silence), or speech that ends a pause. Unlike
   * the end of the turn, a pause counts from the last frame loud enough to be speech, not the
   * last voiced one: it is a guess that costs nothing when wrong, so it need not wait out a
   * word's fading tail.
   */
  private notePause(wait: number, atMs: number, events: TurnEvent[]): void {
    const quietMs = this.quietFrames * this.frameMs;
    if (quietMs === 0 && this.paused) {
      this.paused = false;
      events.push({ type: 'resume', atMs });
    } else if (!this.paused && quietMs >= this.detector.pauseMs && this.detector.pauseMs < wait) {
      this.paused = true;
      events.push({ type: 'pause', atMs, speechEndMs: this.lastSpeechEndMs });
    }
  }

  /** Onset -> speech once enough loud frames have come; a barge-in needs more while the kiosk talks. */
  private promote(atMs: number, events: TurnEvent[]): boolean {
    if (this.kioskSpeaking && !this.settings.bargeIn) return false;
    const needed = this.kioskSpeaking ? Math.max(this.settings.minSpeechMs, this.settings.bargeInMs) : this.settings.minSpeechMs;
    if (this.speechFrames * this.frameMs < needed) return false;
    this.phase = 'speaking';
    events.push({ type: 'speech', atMs, overKiosk: this.kioskSpeaking });
    return true;
  }

  private finish(atMs: number): TurnEvent {
    const pad = Math.ceil(this.detector.postPadMs / this.frameMs);
    const kept = this.buffer.slice(0, Math.min(this.buffer.length, this.spokenLength + pad));
    const length = kept.reduce((n, f) => n + f.length, 0);
    const samples = new Float32Array(length);
    let at = 0;
    for (const f of kept) {
      samples.set(f, at);
      at += f.length;
    }
    const event: TurnEvent = {
      type: 'segment',
      samples,
      speechEndMs: this.lastSpeechEndMs,
      atMs,
      speechMs: this.lastSpeechEndMs - this.firstSpeechMs,
    };
    this.toQuiet();
    return event;
  }

  private toQuiet(): void {
    this.phase = 'quiet';
    this.paused = false;
    this.quietFrames = 0;
    // The frames after the last speech frame are the next turn's pre-pad.
    this.buffer = this.buffer.slice(this.spokenLength);
    this.speechFrames = 0;
    this.silentFrames = 0;
  }
}
