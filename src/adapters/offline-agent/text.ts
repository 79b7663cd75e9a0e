// Small text helpers shared by the offline agent's extractors: found spans, words (the engine's
// own reading, engine/runtime/words.ts), phrase normalising, masking what has already been used,
// and variable names as words.

export { wordsOf, type Word } from '../../engine/runtime/words.ts';

/** A value found in an utterance, with the span of the utterance it came from. */
export interface Found<T> {
  value: T;
  start: number;
  end: number;
}

/** Lowercase words only: punctuation dropped, curly apostrophes straightened, spaces collapsed. */
export function normalizePhrase(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[^\p{L}\p{N}\s']/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The text with the given span blanked out (same length, so other spans keep their offsets). */
export function mask(text: string, span: { start: number; end: number }): string {
  return text.slice(0, span.start) + ' '.repeat(span.end - span.start) + text.slice(span.end);
}

/** "first_name" → "first name". */
export function humanize(name: string): string {
  return name.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().trim();
}
