// The browser's own recogniser decides where a turn ends by itself; its final words are handed
// on at once, unless they stop mid-thought or on a number ("my number is five five five"): those
// are held until the visitor has been quiet for as long as such words ask, and a final that
// follows joins them.

import type { Listening } from './turn-settings.ts';
import { turnWait } from './turn-words.ts';

/** Where the visitor is, as turn-taking hears it: speaking again, or quiet for so long (ms). */
export interface Quiet {
  hearing: boolean;
  silenceMs: number;
}

export class HeldWords {
  private text: string | null = null;

  constructor(private readonly release: (text: string) => void) {}

  /** A final of the browser's: joined to what is held, and handed on unless it must wait. */
  add(text: string, listening: Listening, quiet: Quiet): void {
    this.text = this.text === null ? text : `${this.text} ${text}`;
    this.check(listening, quiet);
  }

  /** Hands on what is held once the visitor has been quiet for as long as its words ask (call on each frame). */
  check(listening: Listening, quiet: Quiet): void {
    const text = this.text;
    if (text === null) return;
    const { ending, waitMs } = turnWait(text, listening);
    if ((ending === 'unfinished' || ending === 'counting') && (quiet.hearing || quiet.silenceMs < waitMs)) return;
    this.text = null;
    this.release(text);
  }

  /** Drops what is held (the microphone closed, the visit ended). */
  clear(): void {
    this.text = null;
  }
}
