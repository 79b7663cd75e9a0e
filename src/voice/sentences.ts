// Cuts the model's streamed reply into sentences, so that speech can start with the first one
// while the rest is still being written. Abbreviations ("Dr. Okafor", "e.g.") and numbers
// ("10.30", "3.5") do not end a sentence; a very long clause is cut at a comma.

const ABBREVIATIONS = new Set(['dr', 'mr', 'mrs', 'ms', 'mx', 'prof', 'st', 'sr', 'jr', 'no', 'vs', 'etc', 'e.g', 'i.e', 'a.m', 'p.m', 'approx', 'dept', 'tel']);

/** Beyond this many characters without an end of sentence, a comma or semicolon ends the piece. */
const LONG_PIECE = 160;

/** Where the first sentence of `text` ends (the index after its punctuation), or -1. */
function sentenceEnd(text: string): number {
  const re = /[.!?…]+["')\]]*(?=\s)|\n+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const end = m.index + m[0].length;
    if (m[0].startsWith('.') && m[0].length === 1) {
      const word = /([\p{L}.]+)$/u.exec(text.slice(0, m.index))?.[1]?.toLowerCase() ?? '';
      if (ABBREVIATIONS.has(word) || /^\p{L}$/u.test(word)) continue; // "Dr." or an initial "J."
    }
    if (text.slice(0, end).trim()) return end;
  }
  if (text.length > LONG_PIECE) {
    const comma = Math.max(text.lastIndexOf(', ', LONG_PIECE), text.lastIndexOf('; ', LONG_PIECE));
    if (comma > 20) return comma + 1;
  }
  return -1;
}

/** Follows one reply as it grows and hands out each sentence once. */
export class SentenceSplitter {
  private taken = 0;

  /**
   * The reply so far (the whole text, not a delta): the sentences completed since the last call.
   * Leading white space is ignored, so the streamed text and the final, trimmed one agree.
   */
  push(reply: string): string[] {
    const text = reply.trimStart();
    const out: string[] = [];
    for (;;) {
      const rest = text.slice(this.taken);
      // A sentence is only complete once something follows its full stop.
      const end = sentenceEnd(rest);
      if (end < 0) return out;
      const sentence = rest.slice(0, end).trim();
      this.taken += end;
      if (sentence) out.push(sentence);
    }
  }

  /** The final reply: whatever is left after the sentences already handed out. */
  finish(reply: string): string[] {
    const out = this.push(reply);
    const text = reply.trimStart();
    const rest = text.slice(this.taken).trim();
    this.taken = text.length;
    if (rest) out.push(rest);
    return out;
  }
}

/**
 * A synthetic voice's usual pace at its normal speed, in characters a second (about 150 words a
 * minute), a little slow on purpose: an estimate of what was heard that errs early repeats a few
 * words instead of skipping some.
 */
const CHARS_PER_SECOND = 12;

/**
 * What is left to say of `sentence` when the voice saying it broke off after `heardSeconds`: from
 * the start of the clause in which it stopped (clauses end at a comma, semicolon, colon or dash),
 * found by a voice's usual pace, so the visitor hears the clause they lost whole; all of it when it
 * stopped in the first clause; nothing when, by that pace, it had been said to the end.
 */
export function restOfSentence(sentence: string, heardSeconds: number): string {
  const reached = heardSeconds * CHARS_PER_SECOND;
  if (reached >= sentence.length) return '';
  let start = 0;
  for (const m of sentence.matchAll(/[,;:\u2013\u2014]\s+/g)) {
    const next = m.index + m[0].length;
    if (next > reached) break;
    start = next;
  }
  return sentence.slice(start).trim();
}
