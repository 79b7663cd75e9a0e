// What the words heard so far say about the end of a visitor's turn, in the visit's language: an
// answer that is plainly whole ("yes", "no thanks", an option's label, a full date, an email
// address), one that stops mid-thought ("my name is", "and", "um", "the fifth of", a recogniser's
// "…"), one that ends on a number that may still be being dictated, or one that says nothing
// either way; and the silence that ends the turn after them in a step. Pure functions of the
// words, the language, the step and the silence so far; turn-taking.ts acts on them.

import { readAnswer } from '../engine/runtime/yes-no.ts';
import { foldPhrase, wordsOf } from '../engine/runtime/words.ts';
import type { Listening } from './turn-settings.ts';
import { TURN_WORDS, type TurnWordList } from './turn-word-lists.ts';

/**
 * How an answer ends: `complete`, plainly whole; `unfinished`, mid-thought; `counting`, on a
 * number (a phone number, a date, a code may go on); `plain`, nothing either way.
 */
export type TurnEnding = 'complete' | 'unfinished' | 'counting' | 'plain';

/** One language's lists, folded and ready to compare. */
interface Prepared {
  hesitations: ReadonlySet<string>;
  dangling: ReadonlySet<string>;
  /** lead-in phrases, as folded word lists */
  leadIns: readonly (readonly string[])[];
  leadInTexts: ReadonlySet<string>;
  numbers: ReadonlySet<string>;
  alsoPronouns: ReadonlySet<string>;
  /** number words and the parts that join them, longest first, for reading a compound ("vierundachtzig") */
  morphemes: readonly string[];
  polite: readonly (readonly string[])[];
  months: ReadonlySet<string>;
}

const prepared = new Map<string, Prepared>();

function primary(language: string): string {
  return language.toLowerCase().split(/[-_]/)[0] || 'en';
}

/** The month names of a language (long and short), folded, from the platform's own calendar. */
function monthNames(language: string): Set<string> {
  const names = new Set<string>();
  for (const tag of [language, 'en']) {
    for (const month of ['long', 'short'] as const) {
      let format: Intl.DateTimeFormat;
      try {
        format = new Intl.DateTimeFormat(tag, { month, timeZone: 'UTC' });
      } catch {
        continue; // a tag Intl refuses: English's names still count
      }
      for (let m = 0; m < 12; m++) for (const w of wordsOf(format.format(Date.UTC(2000, m, 15)))) names.add(w.text);
    }
  }
  return names;
}

function prepare(language: string): Prepared {
  const tag = primary(language);
  const cached = prepared.get(tag);
  if (cached) return cached;
  const list: TurnWordList = TURN_WORDS[tag] ?? TURN_WORDS['en']!;
  const fold = (words: readonly string[]) => new Set(words.map(foldPhrase));
  const phrases = (words: readonly string[]) => words.map((p) => foldPhrase(p).split(' ')).filter((p) => p[0] !== '');
  const numbers = fold(list.numbers);
  const ready: Prepared = {
    hesitations: fold(list.hesitations),
    dangling: fold(list.dangling),
    leadIns: phrases(list.leadIns),
    leadInTexts: fold(list.leadIns),
    numbers,
    alsoPronouns: fold(list.alsoPronouns ?? []),
    morphemes: [...new Set([...numbers, ...fold(list.numberParts)])].filter(Boolean).sort((a, b) => b.length - a.length),
    polite: phrases(list.polite),
    months: monthNames(tag),
  };
  prepared.set(tag, ready);
  return ready;
}

/** A word made of digits (in any script: "07700", "١٩٨٤", "5th" is not one). */
const DIGITS = /^\p{Nd}+$/u;

/** True when `word` is made wholly of number words ("neunzehnhundertvierundachtzig", "وعشرين"), one at least. */
function composedNumber(word: string, lang: Prepared): boolean {
  const reach = new Array<boolean>(word.length + 1).fill(false);
  const counted = new Array<boolean>(word.length + 1).fill(false);
  reach[0] = true;
  for (let at = 0; at < word.length; at++) {
    if (!reach[at]) continue;
    for (const m of lang.morphemes) {
      if (!word.startsWith(m, at)) continue;
      reach[at + m.length] = true;
      counted[at + m.length] ||= counted[at] || lang.numbers.has(m);
    }
  }
  return reach[word.length]! && counted[word.length]!;
}

function isNumber(word: string, lang: Prepared): boolean {
  return DIGITS.test(word) || lang.numbers.has(word) || composedNumber(word, lang);
}

/** How many words at the end of `words` make one of `phrases` (the longest), or 0. */
function endsWith(words: readonly string[], phrases: readonly (readonly string[])[]): number {
  let best = 0;
  for (const p of phrases) {
    if (p.length <= words.length && p.length > best && p.every((w, i) => words[words.length - p.length + i] === w)) best = p.length;
  }
  return best;
}

/** `words` without polite words at either end ("please", "thank you"). */
function withoutPolite(words: readonly string[], lang: Prepared): string[] {
  let out = [...words];
  for (let n = endsWith(out, lang.polite); n > 0 && out.length > 0; n = endsWith(out, lang.polite)) out = out.slice(0, -n);
  for (;;) {
    const reversed = [...out].reverse();
    const n = endsWith(reversed, lang.polite.map((p) => [...p].reverse()));
    if (n === 0) return out;
    out = out.slice(n);
  }
}

const EMAIL = /[^\s@]+@[^\s@]+\.\p{L}{2,}$/u;
const NUMERIC_DATE = /(?:\b\d{1,2}[./-]\d{1,2}[./-](?:\d{2}|\d{4})|\b\d{4}-\d{2}-\d{2})$/u;

/**
 * A date given whole: a month named and a year after it at the end (four digits, or two number
 * words or more: "nineteen eighty four"), or a date in figures.
 */
function fullDate(raw: string, words: readonly string[], lang: Prepared): boolean {
  if (NUMERIC_DATE.test(raw)) return true;
  const month = words.findLastIndex((w) => lang.months.has(w));
  if (month < 0) return false;
  const year = words.slice(month + 1).filter((w, i, all) => i === all.length - 1 || !lang.dangling.has(w)); // "de marzo de 1984"
  if (year.length === 1) return /^\p{Nd}{4}$/u.test(year[0]!);
  return year.length >= 2 && year.every((w) => isNumber(w, lang));
}

/** A whole answer: a yes or a no alone, an option's label, a full date, an email address, only thanks. */
function isWhole(raw: string, words: readonly string[], language: string, choices: readonly string[], lang: Prepared): boolean {
  const folded = words.join(' ');
  if (lang.leadInTexts.has(folded)) return false; // "it is" is a yes, and the start of "it is Maria"
  const core = withoutPolite(words, lang);
  if (core.length === 0) return true;
  const answer = readAnswer(raw, language);
  if (answer.answer !== null && withoutPolite(wordsOf(answer.rest).map((w) => w.text), lang).length === 0) return true;
  if (choices.some((c) => foldPhrase(c) === core.join(' '))) return true;
  const text = raw.replace(/[\s.!。]+$/u, '');
  return EMAIL.test(text) || fullDate(text, words, lang);
}

/** A recogniser's mark of a voice trailing off or a clause left open: "…", "...", a comma, a dash. */
const TRAILING = /(?:\.\.\.|…|[,;:–—-])\s*$/u;

/**
 * How the words heard so far end, in `language` (a BCP 47 tag; a language without lists is read
 * with English's). `choices` are the labels of what the step offers to choose: one said alone is
 * a whole answer.
 */
export function readEnding(text: string, language: string, choices: readonly string[] = []): TurnEnding {
  const raw = text.trim();
  const lang = prepare(language);
  const words = wordsOf(raw).map((w) => w.text);
  if (words.length === 0) return 'plain';
  if (TRAILING.test(raw)) return 'unfinished';
  if (isWhole(raw, words, language, choices, lang)) return 'complete';
  const last = words.at(-1)!;
  if (lang.hesitations.has(last) || lang.dangling.has(last) || endsWith(words, lang.leadIns) > 0) return 'unfinished';
  const before = words.at(-2);
  const pronoun = lang.alsoPronouns.has(last) && before !== undefined && !isNumber(before, lang);
  if (isNumber(last, lang) && !pronoun) return 'counting';
  return 'plain';
}

/** The silence that ends a turn, and what the words said (null: no words to read, or reading them is off). */
export interface TurnWait {
  waitMs: number;
  ending: TurnEnding | null;
}

/**
 * The silence that ends the turn after `words` (the visitor's words so far; null when none are
 * known). Without words, or with `words: false`, the step alone decides, as it always has: the
 * dictation wait while a number, phone, date or email is asked for, else the free one. Words that
 * stop mid-thought wait at least `unfinishedSilenceMs`; a number at the end, at least the
 * dictation wait (it may go on, whatever the step asks for); a plainly whole answer at most
 * `completeSilenceMs`, whatever the step asks for.
 */
export function turnWait(words: string | null, listening: Listening): TurnWait {
  const s = listening.settings;
  const base = listening.expectation === 'dictation' ? s.dictationSilenceMs : s.endSilenceMs;
  if (!s.words || words === null || words.trim() === '') return { waitMs: base, ending: null };
  const ending = readEnding(words, listening.language, listening.choices);
  switch (ending) {
    case 'complete':
      return { waitMs: Math.min(base, s.completeSilenceMs), ending };
    case 'unfinished':
      return { waitMs: Math.max(base, s.unfinishedSilenceMs), ending };
    case 'counting':
      return { waitMs: Math.max(base, s.dictationSilenceMs), ending };
    case 'plain':
      return { waitMs: base, ending };
  }
}

/** True when `silenceMs` of silence after `words` ends the turn (see turnWait). */
export function turnOver(words: string | null, listening: Listening, silenceMs: number): boolean {
  return silenceMs >= turnWait(words, listening).waitMs;
}
