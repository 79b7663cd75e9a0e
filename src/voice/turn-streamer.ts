// A turn sent to a streaming recogniser while the visitor speaks: the audio from the onset (with
// the pre-pad kept before it), each frame as it comes, a commit when turn-taking says the turn is
// over, and a cancel when it was a noise. A pause that may end the turn commits what was said so
// far, so that its words come back while the kiosk still waits (turn-taking reads them: "my name
// is" waits longer than "yes"); with the early start on, they are also offered as the likely
// turn, and withdrawn if the visitor goes on. A pause is only a look at the turn so far: when the
// visitor goes on, the stream starts again with the whole turn's audio, so the turn's words come
// from one recording, never from pieces cut at a pause that may fall inside a word (a stop
// consonant is silent for 50 to 100 ms), and the look's words are replaced. Past `WHOLE_TURN_MS`
// of audio a turn goes on in stretches instead, whose texts the voice session joins.

import type { StreamingTranscriber, StreamOptions, TurnStream } from '../ports/speech-to-text.ts';
import type { TurnEvent } from './turn-taking.ts';

/** The longest turn sent again whole when the visitor goes on after a pause. */
export const WHOLE_TURN_MS = 20_000;

export interface TurnStreamerEvents {
  /**
   * A stretch of the turn was committed; its text comes with the promise. It holds the audio of
   * the stretches in `replaces` as well (the visitor went on after them): their texts are not the
   * turn's.
   */
  committed(text: Promise<string>, replaces: readonly Promise<string>[]): void;
  /** words of the stretch being recognised, not final */
  interim(text: string): void;
  /** the turn may be over and these are its words (a pause, early start on) */
  likelyTurn(text: string): void;
  /** the visitor went on after the likely turn was offered */
  wentOn(): void;
  /** the turn's words so far, all its stretches recognised, after a pause committed them; null when recognition failed */
  words(text: string | null): void;
}

export class TurnStreamer {
  /** the stretch being sent, null when quiet */
  private current: TurnStream | null = null;
  /** the texts of the stretches committed in this turn, in order: together they are its words */
  private stretches: Promise<string>[] = [];
  /** stretches the one being sent holds again: its text replaces theirs */
  private replacing: Promise<string>[] = [];
  /** the turn's audio from the onset (the pre-pad first), while it is short enough to send again */
  private audio: Float32Array[] = [];
  /** the samples the turn has had; past `audioLimit` (WHOLE_TURN_MS at the turn's rate) it goes on in stretches */
  private audioSamples = 0;
  private audioLimit = 0;
  /** the turn's commits, to know the words of the latest pause */
  private commits = 0;
  /** a pause committed the turn so far, and nothing was said since */
  private pausedAfterCommit = false;
  private offered = false;
  private turn = 0;

  constructor(
    private readonly stt: StreamingTranscriber,
    private readonly options: () => StreamOptions,
    private readonly earlyStart: boolean,
    private readonly events: TurnStreamerEvents,
    /** a pause commits the turn so far even without the early start: its words are read for the turn's end */
    private readonly wordsAtPauses: () => boolean = () => false,
  ) {}

  /** One frame of audio; `inTurn` when turn-taking was already hearing before it. */
  frame(samples: Float32Array, inTurn: boolean): void {
    if (!inTurn || !this.current) return;
    this.current.append(samples);
    this.keep(samples);
  }

  /** What turn-taking made of the frame (after `frame`). */
  turnEvent(event: TurnEvent): void {
    switch (event.type) {
      case 'onset':
        this.turn += 1;
        this.forgetTurn();
        this.pausedAfterCommit = false;
        this.current = this.begin();
        this.audioLimit = (WHOLE_TURN_MS / 1000) * this.options().sampleRate;
        for (const f of event.preRoll) {
          this.current.append(f);
          this.keep(f);
        }
        return;
      case 'noise':
        this.current?.cancel();
        this.current = null;
        return;
      case 'pause':
        if (!this.current || !(this.earlyStart || this.wordsAtPauses())) return;
        this.commit();
        this.pausedAfterCommit = true;
        this.current = this.begin();
        this.afterPause();
        return;
      case 'resume':
        if (this.pausedAfterCommit) this.again();
        this.pausedAfterCommit = false;
        if (this.offered) {
          this.offered = false;
          this.events.wentOn();
        }
        return;
      case 'segment':
        // After a pause that committed everything, what follows is silence: nothing to transcribe.
        if (this.pausedAfterCommit) this.current?.cancel();
        else this.commit();
        this.current = null;
        // The turn is over: words still on their way are the turn's, no longer a likely turn.
        this.pausedAfterCommit = false;
        this.offered = false;
        return;
      case 'speech':
        return;
    }
  }

  /** Drops the turn in progress (the microphone closed, the visit ended). */
  stop(): void {
    this.current?.cancel();
    this.current = null;
    this.forgetTurn();
    this.offered = false;
  }

  /** Forgets the turn's stretches and audio. */
  private forgetTurn(): void {
    this.stretches = [];
    this.replacing = [];
    this.audio = [];
    this.audioSamples = 0;
  }

  private begin(): TurnStream {
    return this.stt.begin(this.options(), { interim: (text) => this.events.interim(text) });
  }

  private commit(): void {
    if (!this.current) return;
    const text = this.current.commit();
    text.catch(() => undefined); // the voice session reports it
    this.commits += 1;
    this.stretches.push(text);
    this.events.committed(text, this.replacing);
    this.replacing = [];
  }

  /** Keeps a frame of the turn, until the turn is too long to send again. */
  private keep(samples: Float32Array): void {
    if (this.audioSamples > this.audioLimit) return;
    this.audio.push(samples);
    this.audioSamples += samples.length;
    if (this.audioSamples > this.audioLimit) this.audio = [];
  }

  /**
   * The visitor went on after a pause's commit: the stream starts again with the whole turn, whose
   * text will replace the stretches so far. A turn too long to keep goes on in stretches.
   */
  private again(): void {
    if (this.audio.length === 0 || !this.current) return;
    this.current.cancel();
    this.current = this.begin();
    for (const f of this.audio) this.current.append(f);
    this.replacing = this.stretches;
    this.stretches = [];
  }

  /** Once the words so far are all in: tells them, and offers them (early start) if the pause still holds by then. */
  private afterPause(): void {
    const turn = this.turn;
    const commits = this.commits;
    // Words of an earlier pause are not all the words once a later pause has committed more.
    const latest = () => turn === this.turn && commits === this.commits;
    void Promise.all(this.stretches).then(
      (texts) => {
        if (!latest()) return;
        const text = texts.filter(Boolean).join(' ');
        this.events.words(text);
        if (!this.earlyStart || !this.pausedAfterCommit || !text) return;
        this.offered = true;
        this.events.likelyTurn(text);
      },
      () => {
        if (latest()) this.events.words(null);
      },
    );
  }
}
