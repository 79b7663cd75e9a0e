// Whether the visitor says they do not mean a value, in the visit's language: "I don't like
// blue", "not red, green", "no appointment", "nicht blau", "pas le rouge", "sin cita". Read from
// the words before the value, back to the start of its clause; a correction ("blue, no, green",
// "blau, nein, grün") leaves the later value standing.

import { foldWord } from '../../engine/runtime/words.ts';
import { ENGLISH } from './languages/en.ts';
import { perLanguage, type Language } from './languages/language.ts';
import { wordsOf } from './text.ts';

interface ClauseReader {
  negators: ReadonlySet<string>;
  negatorStarts: readonly string[];
  pairs: ReadonlySet<string>;
  rightBefore: ReadonlySet<string>;
  clauseStarts: ReadonlySet<string>;
  corrections: ReadonlySet<string>;
}

const words = (list: readonly string[] = []) => new Set(list.map((w) => w.split(/\s+/).map(foldWord).join(' ')));

const reader = perLanguage((lang: Language): ClauseReader => {
  const c = lang.clauses;
  return {
    negators: words(c.negators),
    negatorStarts: (c.negatorStarts ?? []).map(foldWord),
    pairs: words(c.negatingPairs),
    rightBefore: words(c.denyRightBefore),
    clauseStarts: words(c.clauseStarts),
    corrections: words(c.corrections),
  };
});

/** The text of the clause that `start` stands in, up to `start`. */
function clauseBefore(text: string, start: number): string {
  const before = text.slice(0, start);
  const cut = Math.max(...[',', ';', ':', '.', '!', '?', '(', '"', '¿', '¡', '،', '؛', '؟'].map((p) => before.lastIndexOf(p)));
  return before.slice(cut + 1);
}

/** True when the words before `start`, in its clause, deny what stands there. "No" denies only right before it. */
export function isNegated(text: string, start: number, lang: Language = ENGLISH): boolean {
  const r = reader(lang);
  const said = wordsOf(clauseBefore(text, start)).map((w) => w.text);
  for (let i = said.length - 1; i >= 0; i--) {
    const w = said[i]!;
    if (r.negators.has(w) || r.negatorStarts.some((s) => w.startsWith(s)) || (i > 0 && r.pairs.has(`${said[i - 1]} ${w}`))) return true;
    if (r.rightBefore.has(w) && i === said.length - 1) return true;
    if (r.clauseStarts.has(w)) return false;
  }
  return false;
}

/** True when the visitor takes back, between `from` and `to`, what they said before `from`. */
export function isCorrectedBetween(text: string, from: number, to: number, lang: Language = ENGLISH): boolean {
  const r = reader(lang);
  return wordsOf(text.slice(from, to)).some((w) => r.corrections.has(w.text));
}
