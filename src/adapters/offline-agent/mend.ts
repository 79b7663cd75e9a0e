// What the visitor typed, mended before the assistant reads it: a name spelled out letter by
// letter ("G-A-R-C-I-A", "spelled g a r c i a") written as the word it spells, a hint on how it
// is written ("with one r", "mit zwei t") dropped, and two neighbouring letters typed the wrong
// way round in a word the assistant listens for put right ("nmae" is name, "mrach" March, "yse"
// yes). A word it does not listen for, a name above all, is never changed.

import { ANSWER_WORDS } from '../../engine/runtime/answer-words.ts';
import { foldWord } from '../../engine/runtime/words.ts';
import { perLanguage, type Language } from './languages/language.ts';
import { anyOf, foldInPlace } from './languages/patterns.ts';

/** Each way of swapping two neighbouring letters of the words listened for, with the word it was. */
const slips = perLanguage((lang: Language): ReadonlyMap<string, string> => {
  const answers = ANSWER_WORDS[lang.code];
  const single = (phrases: readonly string[]) => phrases.filter((p) => !/\s/.test(p.trim())).map(foldWord);
  // Yes and no are short: three letters are enough for them; other words need four.
  const short = new Set(single([...(answers?.yes ?? []), ...(answers?.no ?? [])]).filter((w) => w.length >= 3));
  const long = [...lang.names.leads.flatMap((p) => p.split(/\s+/)), ...single(lang.talk.thanks), ...single(lang.talk.greetings), ...lang.dates.months.flat()]
    .map(foldWord)
    .filter((w) => w.length >= 4 && /^\p{L}+$/u.test(w));
  const known = new Set([...short, ...long]);
  // A slip that is itself a word the assistant knows ("there" for "three", "hmm" for "mhm") is that word.
  const words = new Set(
    [
      ...Object.keys(lang.numbers.cardinals),
      ...lang.names.notNames,
      ...lang.choices.smallWords,
      ...lang.bare.fillers,
      ...(answers?.fillers ?? []),
      ...lang.statements,
      ...lang.change,
      ...lang.talk.between,
    ].flatMap((p) => p.split(/\s+/)).map(foldWord),
  );
  const out = new Map<string, string>();
  for (const word of known) {
    for (let i = 0; i + 1 < word.length; i++) {
      if (word[i] === word[i + 1]) continue;
      const slip = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
      if (!known.has(slip) && !words.has(slip)) out.set(slip, word);
    }
  }
  return out;
});

/** A run of three or more single letters joined by hyphens or dots ("G-A-R-C-I-A"), or by spaces. */
const SPELLED_RUN = /(?<![\p{L}\p{N}])\p{L}(?:(?:\s*[-.]\s*|\s+)\p{L}(?![\p{L}\p{N}])){2,}\.?/gu;

const spellingWords = perLanguage((lang: Language) => ({
  hint: new RegExp(`[\\s,]*${lang.talk.spelling}(?![\\p{L}])`, 'giu'),
  spelled: lang.talk.spelled.length > 0 ? new RegExp(`${anyOf(lang.talk.spelled)}[\\s:,]*(?=\\p{L}(?:\\s*[-.]\\s*|\\s+)\\p{L})`, 'giu') : undefined,
}));

/** Letters spelled out as the word they make: "G-A-R-C-I-A" → "Garcia". Runs of spaced letters need a hyphen or dot, or four letters. */
function joinSpelled(text: string): string {
  return text.replace(SPELLED_RUN, (run) => {
    const letters = run.match(/\p{L}/gu) ?? [];
    if (!/[-.]/.test(run) && letters.length < 4) return run;
    const word = letters.join('').toLowerCase();
    return word[0]!.toUpperCase() + word.slice(1);
  });
}

/** Replaces words by what `fix` gives for their folded form, keeping everything else as typed. */
function replaceWords(text: string, fix: (folded: string) => string | undefined): string {
  return text.replace(/\p{L}[\p{L}\p{M}]*/gu, (w) => fix(foldWord(w)) ?? w);
}

/** The text without what `pattern` matches in its folded form (the folded text keeps every character's place). */
function cut(text: string, pattern: RegExp | undefined): string {
  if (!pattern) return text;
  let out = '';
  let at = 0;
  for (const m of foldInPlace(text).matchAll(pattern)) {
    out += text.slice(at, m.index);
    at = m.index + m[0].length;
  }
  return out + text.slice(at);
}

/** The text as the assistant reads it: spelled-out names joined, spelling hints dropped, swapped letters put right. */
export function mend(text: string, lang: Language): string {
  const words = spellingWords(lang);
  const t = cut(joinSpelled(cut(text, words.spelled)), words.hint);
  const slip = slips(lang);
  return replaceWords(t, (w) => slip.get(w));
}
