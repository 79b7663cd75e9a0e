// How a person's name is written: the `name` value type stores "maria" as "Maria" and
// "van der berg" as "van der Berg", whoever captured it (a form, a tool, an utterance rule). The
// offline assistant writes the names it hears the same way.

/** Small words inside surnames, written in lower case: "van der Berg", "da Silva", "bin Laden". */
export const NAME_PARTICLES: ReadonlySet<string> = new Set('van von der den de del della di da du dos das ter ten la le bin ibn'.split(' '));

/**
 * One word of a name: "alex" → "Alex", "MCDONALD" → "McDonald", "o'neil" → "O'Neil", "VAN" →
 * "van"; mixed case ("DeShawn", "Van") is kept as written: the visitor typed it that way.
 */
export function writeNameWord(word: string): string {
  const mixed = word !== word.toLowerCase() && word !== word.toUpperCase();
  if (mixed) return word;
  const lower = word.toLowerCase();
  if (NAME_PARTICLES.has(lower)) return lower;
  return lower
    .split(/(['’-])/)
    .map((p) => (p.length > 0 ? p[0]!.toUpperCase() + p.slice(1) : p))
    .join('')
    .replace(/^Mc(\p{Ll})/u, (_, c: string) => `Mc${c.toUpperCase()}`);
}

/**
 * A whole name, word by word; a particle that starts the name stays lower case ("van der Berg").
 * Text in mixed case ("Maria de la Cruz", "DeShawn") is the visitor's own spelling and is kept.
 */
export function writeName(text: string): string {
  const clean = text.trim().replace(/\s+/g, ' ');
  if (clean !== clean.toLowerCase() && clean !== clean.toUpperCase()) return clean;
  return clean.split(' ').map(writeNameWord).join(' ');
}
