// Whether the visitor says they do not mean a value: "I don't like blue", "not red, green",
// "no appointment", "green rather than red". Read from the words before the value, back to the
// start of its clause; a correction ("blue, no, green") leaves the later value standing.

import { wordsOf } from './text.ts';

/** Words that deny what follows them in the same clause. */
const NEGATORS = new Set([
  'not', 'never', "don't", 'dont', "doesn't", "didn't", "isn't", "aren't", "wasn't", "weren't", "won't",
  "can't", 'cannot', 'without', 'nor', 'neither', 'except', 'hate', 'dislike',
]);

/** Two-word phrases that deny what follows them. */
const NEGATING_PAIRS = new Set(['rather than', 'instead of', 'other than']);

/** Words that start a new clause: what came before them does not reach past them. */
const CLAUSE_STARTS = new Set(['but', 'so', 'actually', 'maybe', 'perhaps', 'instead', 'wait', 'sorry', 'then', 'mean']);

/** Words that take back what was said just before them ("blue, no, green"). */
const CORRECTIONS = new Set(['no', 'actually', 'sorry', 'wait', 'mean', 'rather', 'instead']);

/** The text of the clause that `start` stands in, up to `start`. */
function clauseBefore(text: string, start: number): string {
  const before = text.slice(0, start);
  const cut = Math.max(...[',', ';', ':', '.', '!', '?', '(', '"'].map((p) => before.lastIndexOf(p)));
  return before.slice(cut + 1);
}

/** True when the words before `start`, in its clause, deny what stands there. "No" denies only right before it. */
export function isNegated(text: string, start: number): boolean {
  const words = wordsOf(clauseBefore(text, start)).map((w) => w.text);
  for (let i = words.length - 1; i >= 0; i--) {
    const w = words[i]!;
    if (NEGATORS.has(w) || (i > 0 && NEGATING_PAIRS.has(`${words[i - 1]} ${w}`))) return true;
    if (w === 'no' && i === words.length - 1) return true;
    if (CLAUSE_STARTS.has(w)) return false;
  }
  return false;
}

/** True when the visitor takes back, between `from` and `to`, what they said before `from`. */
export function isCorrectedBetween(text: string, from: number, to: number): boolean {
  return wordsOf(text.slice(from, to)).some((w) => CORRECTIONS.has(w.text));
}
