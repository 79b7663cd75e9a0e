// Regular expressions made from a language's word lists, and the text they run on: folded in
// place (lower case, accents dropped, curly apostrophes straight, one character for one), so a
// match's indices are the original's and "Je m’appelle Hélène" is read like "je m'appelle helene"
// while the name is taken from the original.

const folded = new Map<string, string>();

/** One character as words are compared (when that stays one character), else itself. */
function foldChar(c: string): string {
  let f = folded.get(c);
  if (f === undefined) {
    const lower = c.toLowerCase();
    const bare = (lower.length === 1 ? lower : c).normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    f = c === '\u2019' ? "'" : bare.length === 1 ? bare : lower.length === 1 ? lower : c;
    folded.set(c, f);
  }
  return f;
}

/** The text folded character by character: the same length, the same places. */
export function foldInPlace(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += foldChar(text[i]!);
  return out;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A phrase as a regular expression source over folded text: spaces as any run of spaces. */
export function phraseSource(phrase: string): string {
  return escape(foldInPlace(phrase.trim())).replace(/\s+/g, '\\s+');
}

/** Any of the phrases, longest first, as a whole word or words (a group that captures nothing). */
export function anyOf(phrases: readonly string[]): string {
  const sorted = [...new Set(phrases.map(phraseSource))].sort((a, b) => b.length - a.length);
  return `(?<![\\p{L}\\p{N}'])(?:${sorted.join('|')})(?![\\p{L}\\p{N}])`;
}
