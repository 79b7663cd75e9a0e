// A turn sent to a streaming recogniser while the visitor speaks: the audio from the onset (with
// the pre-pad kept before it), each frame as it comes, a commit when turn-taking says the turn is
// over, and a cancel when it was a noise. A pause that may end the turn commits what was said so
// far, so that its words come back while the kiosk still waits (turn-taking reads them: "my name
// is" waits longer than "yes"); with the early start on, they are also offered as the likely
// turn, and withdrawn if the visitor goes on. The rest is a stretch of its own. The texts of a
// turn's stretches are joined by the voice session, as the parts of a turn always were.

import type { StreamingTranscriber, StreamOptions, TurnStream } from '../ports/speech-to-text.ts';
import type { TurnEvent } from './turn-taking.ts';

export interface TurnStreamerEvents {
  /** a stretch of the turn was committed; its text comes with the promise */
  committed(text: Promise<string>): void;
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
  /** the texts of the stretches committed in this turn */
  private stretches: Promise<string>[] = [];
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
    if (inTurn) this.current?.append(samples);
  }

  /** What turn-taking made of the frame (after `frame`). */
  turnEvent(event: TurnEvent): void {
    switch (event.type) {
      case 'onset':
        this.turn += 1;
        this.stretches = [];
        this.pausedAfterCommit = false;
        this.current = this.begin();
        for (const f of event.preRoll) this.current.append(f);
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
    this.stretches = [];
    this.offered = false;
  }

  private begin(): TurnStream {
    return this.stt.begin(this.options(), { interim: (text) => this.events.interim(text) });
  }

  private commit(): void {
    if (!this.current) return;
    const text = this.current.commit();
    text.catch(() => undefined); // the voice session reports it
    this.stretches.push(text);
    this.events.committed(text);
  }

  /** Once the words so far are all in: tells them, and offers them (early start) if the pause still holds by then. */
  private afterPause(): void {
    const turn = this.turn;
    const count = this.stretches.length;
    // Words of an earlier pause are not all the words once a later pause has committed more.
    const latest = () => turn === this.turn && count === this.stretches.length;
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
