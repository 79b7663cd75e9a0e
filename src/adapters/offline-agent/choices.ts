// Choices named in what the visitor said, in the visit's language: by their value or label ("walk
// in", "Dr Lindqvist" for Dr. Lindqvist, "una reunion" for Una reunión), by a word of the label that
// names one choice alone ("Tom" for Tom Becker), or by the option's description said whole ("I
// don't have an appointment"); never where the visitor says they do not want it ("I don't like
// blue", "pas le bleu").

import { foldWord } from '../../engine/runtime/words.ts';
import { ENGLISH } from './languages/en.ts';
import { perLanguage, type Language } from './languages/language.ts';
import { isCorrectedBetween, isNegated } from './negation.ts';
import { wordsOf, type Found } from './text.ts';

/** One allowed value and the words that name it. */
export interface Choice {
  value: unknown;
  /** its value and its label: the whole or a word of it that no other choice has names it */
  names: readonly string[];
  /** longer phrases (an option's description) that name it only when said whole */
  phrases?: readonly string[];
}

/** What one utterance says about the choices. */
export interface ChoiceHeard {
  /** the choice the visitor wants, if they named one */
  chosen?: Found<unknown>;
  /** choices the visitor named only to say they do not want them, where they first named them */
  declined: Found<Choice>[];
}

interface ChoiceReader {
  lang: Language;
  titleWords: ReadonlyMap<string, string>;
  smallWords: ReadonlySet<string>;
}

const reader = perLanguage((lang: Language): ChoiceReader => ({
  lang,
  titleWords: new Map(Object.entries(lang.choices.titleWords).map(([k, v]) => [foldWord(k), foldWord(v)])),
  smallWords: new Set(lang.choices.smallWords.map(foldWord)),
}));

interface Token {
  text: string;
  start: number;
  end: number;
}

/** A word in the form both sides are compared in: "don't" → do not, "doctor" → dr, "l'entrée" → l' entree. */
function canonical(word: string, r: ChoiceReader): readonly string[] {
  return (r.lang.choices.expand(word) ?? [word]).map((w) => r.titleWords.get(w) ?? w);
}

function tokens(text: string, r: ChoiceReader): Token[] {
  return wordsOf(text).flatMap((w) => canonical(w.text, r).map((t) => ({ text: t, start: w.start, end: w.end })));
}

interface Mention {
  choice: Choice;
  start: number;
  end: number;
  /** how many words it took: a longer mention at the same place wins */
  size: number;
}

/** Every place where `run` stands in `said`, word for word (or written as one word: "walkin"). */
function occurrences(said: readonly Token[], run: readonly string[], choice: Choice): Mention[] {
  const out: Mention[] = [];
  if (run.length === 0) return out;
  const joined = run.join('');
  for (let i = 0; i < said.length; i++) {
    if (run.length > 1 && said[i]!.text === joined) out.push({ choice, start: said[i]!.start, end: said[i]!.end, size: run.length });
    if (i + run.length > said.length || !run.every((w, k) => said[i + k]!.text === w)) continue;
    out.push({ choice, start: said[i]!.start, end: said[i + run.length - 1]!.end, size: run.length });
  }
  return out;
}

/** For each choice, the words of its names that no other choice has (and that are not small words). */
function keyWords(choices: readonly Choice[], r: ChoiceReader): Map<Choice, string[]> {
  const wordsOfChoice = choices.map((c) => new Set(c.names.flatMap((n) => tokens(n, r).map((t) => t.text))));
  const seen = new Map<string, number>();
  for (const set of wordsOfChoice) for (const w of set) seen.set(w, (seen.get(w) ?? 0) + 1);
  return new Map(
    choices.map((c, i) => [c, [...wordsOfChoice[i]!].filter((w) => seen.get(w) === 1 && !r.smallWords.has(w) && (w.length > 1 || /\d/.test(w)))]),
  );
}

/** Every mention of a choice in the text, whole names first. */
function mentions(text: string, choices: readonly Choice[], r: ChoiceReader): Mention[] {
  const said = tokens(text, r);
  const keys = keyWords(choices, r);
  return choices.flatMap((c) => [
    ...[...c.names, ...(c.phrases ?? [])].flatMap((n) => occurrences(said, tokens(n, r).map((t) => t.text), c)),
    ...(keys.get(c) ?? []).flatMap((w) => occurrences(said, [w], c)),
  ]);
}

/** The choice the visitor wants (first named, unless taken back), and the ones they said no to. */
export function hearChoice(text: string, choices: readonly Choice[], lang: Language = ENGLISH): ChoiceHeard {
  const all = mentions(text, choices, reader(lang)).sort((a, b) => a.start - b.start || b.size - a.size);
  const wanted = all.filter((m) => !isNegated(text, m.start, lang));
  const standing = wanted.filter((m) => !wanted.some((later) => later.start >= m.end && later.choice !== m.choice && isCorrectedBetween(text, m.end, later.start, lang)));
  const best = standing[0];
  const declined: Found<Choice>[] = [];
  for (const m of all) {
    if (wanted.some((w) => w.choice === m.choice) || declined.some((d) => d.value === m.choice)) continue;
    declined.push({ value: m.choice, start: m.start, end: m.end });
  }
  return { ...(best ? { chosen: { value: best.choice.value, start: best.start, end: best.end } } : {}), declined };
}

/** The choice named in the text, or undefined. */
export function extractChoice(text: string, choices: readonly Choice[], lang: Language = ENGLISH): Found<unknown> | undefined {
  return hearChoice(text, choices, lang).chosen;
}
