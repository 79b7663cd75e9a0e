// Turn-taking: when has the visitor started speaking, and when have they finished? A pure
// function of the voice-activity detector's frames and their count (stream time), and of the
// words heard so far where recognition gives them while the visitor speaks, so it runs on
// recorded audio in Node tests. How long it waits is turn-settings.ts (the step's) and
// turn-words.ts (what was said): an answer people dictate in groups waits longer, and so do
// words that stop mid-thought; a plainly whole answer waits less.

import { DEFAULT_DETECTOR, type DetectorSettings, type Expectation, type Listening, type TurnTakingSettings, type WordsContext } from './turn-settings.ts';
import { turnWait } from './turn-words.ts';

export * from './turn-settings.ts';
export { turnOver, turnWait, type TurnWait } from './turn-words.ts';

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
  /** sound over the kiosk's voice long enough that it may be the visitor: hold the voice until `speech` or `noise` says */
  | { type: 'hold'; atMs: number }
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
  /** a frame below the silence threshold came since the pause was reported */
  private silentInPause = false;
  /** a hold was reported for the sound going on */
  private holding = false;
  /** frames in a row below the speech threshold (the tail of a word counts: a pause is a guess) */
  private quietFrames = 0;
  private context: WordsContext = { language: 'en', choices: [] };
  /** words come back after each pause: a streaming recogniser commits the turn so far there */
  private wordsAtPauses = false;
  /** the turn's words so far, as recognised up to a pause; null: none yet */
  private words: string | null = null;
  /** stream time of the pause the words are of (null: they came while the visitor spoke again) */
  private wordsPauseMs: number | null = null;
  /** stream time at which the current pause was reported */
  private pauseAtMs = 0;
  /** the words of the current pause are on their way */
  private awaiting = false;

  constructor(
    private settings: TurnTakingSettings,
    private readonly frameMs: number,
    private readonly detector: DetectorSettings = DEFAULT_DETECTOR,
  ) {}

  /** New waits for the state the flow is in now, and what its words are read against. */
  configure(settings: TurnTakingSettings, expectation: Expectation, context: WordsContext = this.context): void {
    this.settings = settings;
    this.expectation = expectation;
    this.context = context;
  }

  /** Whether the words of each pause come back (a streaming recogniser commits the turn so far at a pause). */
  expectWordsAtPauses(on: boolean): void {
    this.wordsAtPauses = on;
  }

  /** True when the words heard so far shape the wait in this step (`turn_taking.words`). */
  get readsWords(): boolean {
    return this.settings.words;
  }

  /**
   * The turn's words so far, recognised up to its last pause (null: recognition failed, none will
   * come). Answers with the events they cause: the end of the turn, when the words say it has come.
   */
  heard(words: string | null): TurnEvent[] {
    if (this.phase !== 'speaking') return [];
    this.awaiting = false;
    if (words !== null) {
      this.words = words;
      this.wordsPauseMs = this.paused ? this.pauseAtMs : null;
    }
    const events: TurnEvent[] = [];
    const atMs = this.frames * this.frameMs;
    if (this.isOver(this.silentFrames * this.frameMs)) events.push(this.finish(atMs));
    return events;
  }

  /** The silence that ends the turn now: from the words when they are all the visitor has said, else from the step. */
  private waitNow(): number {
    const listening: Listening = { settings: this.settings, expectation: this.expectation, ...this.context };
    return turnWait(this.wordsAreAll() ? this.words : null, listening).waitMs;
  }

  /**
   * The words are all the visitor has said: they are of the pause still going on, and nothing
   * voiced came after it (a word's fading tail of a frame or two aside).
   */
  private wordsAreAll(): boolean {
    return this.paused && this.wordsPauseMs !== null && this.lastSpeechEndMs <= this.wordsPauseMs + 2 * this.frameMs;
  }

  /**
   * The turn is over after `silenceMs`: its wait has passed, and no words that could ask for a
   * longer one are still on their way (those are waited for up to the longest wait words may ask).
   */
  private isOver(silenceMs: number): boolean {
    if (silenceMs < this.waitNow()) return false;
    const s = this.settings;
    return !this.awaiting || silenceMs >= Math.max(s.unfinishedSilenceMs, s.dictationSilenceMs, s.endSilenceMs);
  }

  /** The kiosk started or stopped talking. While it talks, speech must be longer and louder. */
  setKioskSpeaking(speaking: boolean): void {
    this.kioskSpeaking = speaking;
  }

  /** True between an onset and the end of its turn (or its dismissal as noise). */
  get hearing(): boolean {
    return this.phase !== 'quiet';
  }

  /** Silence since the visitor's last speech (stream time, ms); 0 while a sound is going on. */
  get silenceMs(): number {
    if (this.phase === 'quiet') return this.frames * this.frameMs - this.lastSpeechEndMs;
    return this.phase === 'speaking' ? this.silentFrames * this.frameMs : 0;
  }

  /** Forgets any turn in progress (the microphone closed, the visit ended). */
  reset(): void {
    this.phase = 'quiet';
    this.paused = false;
    this.silentInPause = false;
    this.holding = false;
    this.buffer = [];
    this.speechFrames = 0;
    this.silentFrames = 0;
    this.forgetWords();
  }

  private forgetWords(): void {
    this.words = null;
    this.wordsPauseMs = null;
    this.awaiting = false;
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

    if (this.isOver(silenceMs) || endMs - this.firstSpeechMs >= d.maxTurnMs) events.push(this.finish(endMs));
    else this.notePause(this.waitNow(), endMs, voiced, events);
    return events;
  }

  /**
   * A pause that may end the turn (reported once per silence), or speech that ends a pause. Unlike
   * the end of the turn, a pause counts from the last frame loud enough to be speech, not the
   * last voiced one: it is a guess that costs nothing when wrong, so it need not wait out a
   * word's fading tail. Speech again is a loud frame, or a voiced one after silence (a softer
   * word after the pause): from there a new pause needs its own quiet.
   */
  private notePause(wait: number, atMs: number, voiced: boolean, events: TurnEvent[]): void {
    const quietMs = this.quietFrames * this.frameMs;
    if (this.paused && (quietMs === 0 || (voiced && this.silentInPause))) {
      this.paused = false;
      this.silentInPause = false;
      this.quietFrames = 0;
      this.wordsPauseMs = null;
      events.push({ type: 'resume', atMs });
    } else if (this.paused && !voiced) {
      this.silentInPause = true;
    } else if (!this.paused && quietMs >= this.detector.pauseMs && this.detector.pauseMs < wait) {
      this.paused = true;
      this.pauseAtMs = atMs;
      this.awaiting = this.wordsAtPauses && this.settings.words;
      events.push({ type: 'pause', atMs, speechEndMs: this.lastSpeechEndMs });
    }
  }

  /** Onset -> speech once enough loud frames have come; a barge-in needs more while the kiosk talks. */
  private promote(atMs: number, events: TurnEvent[]): boolean {
    if (this.kioskSpeaking && !this.settings.bargeIn) return false;
    const needed = this.kioskSpeaking ? Math.max(this.settings.minSpeechMs, this.settings.bargeInMs) : this.settings.minSpeechMs;
    const heard = this.speechFrames * this.frameMs;
    // Over the kiosk, the voice is held as soon as this may be the visitor, not only once it is sure.
    if (this.kioskSpeaking && !this.holding && heard >= this.detector.holdMs && heard < needed) {
      this.holding = true;
      events.push({ type: 'hold', atMs });
    }
    if (heard < needed) return false;
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
    this.silentInPause = false;
    this.holding = false;
    this.quietFrames = 0;
    this.forgetWords();
    // The frames after the last speech frame are the next turn's pre-pad.
    this.buffer = this.buffer.slice(this.spokenLength);
    this.speechFrames = 0;
    this.silentFrames = 0;
  }
}
