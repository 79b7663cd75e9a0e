// Words of what a visitor said: lowercased, apostrophes straightened, each with where it stands.
// Shared by the engine's reading of yes and no (yes-no.ts) and the offline assistant.

/** A word of an utterance, lowercased with apostrophes straightened, and where it stands. */
export interface Word {
  text: string;
  start: number;
  end: number;
}

/** The words of a text ("don't" and "o'clock" are one word each; punctuation and hyphens split). */
export function wordsOf(text: string): Word[] {
  return [...text.matchAll(/[\p{L}\p{N}]+(?:['\u2019][\p{L}\p{N}]+)*/gu)].map((m) => ({
    text: m[0].toLowerCase().replace(/\u2019/g, "'"),
    start: m.index,
    end: m.index + m[0].length,
  }));
}
