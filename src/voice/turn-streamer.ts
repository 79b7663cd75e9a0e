// A turn sent to a streaming recogniser while the visitor speaks: the audio from the onset (with
// the pre-pad kept before it), each frame as it comes, a commit when turn-taking says the turn is
// over, and a cancel when it was a noise. With the early start on, a pause that may end the turn
// commits what was said so far and offers it as the likely turn; if the visitor goes on, the rest
// is a stretch of its own and the offer is withdrawn. The texts of a turn's stretches are joined
// by the voice session, as the parts of a turn always were.

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
        if (!this.earlyStart || !this.current) return;
        this.commit();
        this.pausedAfterCommit = true;
        this.current = this.begin();
        this.offer();
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

  /** Offers the words so far once they are all in, if the pause still holds by then. */
  private offer(): void {
    const turn = this.turn;
    void Promise.all(this.stretches).then(
      (texts) => {
        if (turn !== this.turn || !this.pausedAfterCommit) return;
        const text = texts.filter(Boolean).join(' ');
        if (!text) return;
        this.offered = true;
        this.events.likelyTurn(text);
      },
      () => undefined,
    );
  }
}
