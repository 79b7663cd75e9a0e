// Small text helpers shared by the offline agent's extractors: found spans, words, phrase
// normalising, masking what has already been used, and lists read out in English.

/** A value found in an utterance, with the span of the utterance it came from. */
export interface Found<T> {
  value: T;
  start: number;
  end: number;
}

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

/** "red, green, blue or yellow". */
export function orList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** "first_name" → "first name". */
export function humanize(name: string): string {
  return name.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().trim();
}
