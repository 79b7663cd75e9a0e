// Words of what a visitor said: folded for comparing (lower case, apostrophes straightened,
// accents and Arabic vowel signs dropped), each with where it stands in the text. Shared by the
// engine's reading of yes and no (yes-no.ts) and the offline assistant.

/** A word of an utterance, folded (see foldWord), and where it stands. */
export interface Word {
  text: string;
  start: number;
  end: number;
}

/** Text with nothing beyond ASCII. */
const ASCII = /^[\x00-\x7f]*$/;

/** Arabic vowel signs, the dagger alef and the tatweel: none changes which word it is. */
const ARABIC_MARKS = /[\u064B-\u065F\u0670\u0640]/g;

/**
 * A word as words are compared: lower case, curly apostrophes straight, Latin accents dropped
 * ("Sí" and "si", "français" and "francais", "März" and "marz": a kiosk keyboard or a recogniser
 * may leave them out), ß as ss, and Arabic without its vowel signs, its hamza seats (أ إ آ → ا)
 * nor the ta marbuta and alef maqsura spellings (ة → ه, ى → ي).
 */
export function foldWord(word: string): string {
  const lower = word.toLowerCase();
  // Most words are plain ASCII once in lower case, which none of the changes below touches.
  if (ASCII.test(lower)) return lower;
  return lower
    .replace(/\u2019/g, "'")
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(ARABIC_MARKS, '')
    .replace(/ة/g, 'ه')
    .replace(/ى/g, 'ي')
    .normalize('NFC');
}

/** The words of a text ("don't" and "o'clock" are one word each; punctuation and hyphens split). */
export function wordsOf(text: string): Word[] {
  return [...text.matchAll(/[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?:['\u2019][\p{L}\p{M}\p{N}]+)*/gu)].map((m) => ({
    text: foldWord(m[0]),
    start: m.index,
    end: m.index + m[0].length,
  }));
}

/** A phrase's words, folded, joined by single spaces: how word lists are written down to compare. */
export function foldPhrase(phrase: string): string {
  return wordsOf(phrase)
    .map((w) => w.text)
    .join(' ');
}
