// Is this answer a yes or a no? Read from how it starts ("yes, that's right", "no, it's Alice",
// "nein, Maria", "non, c'est Marie"), after fillers such as "um" or "äh", in the visit's language
// (the words: answer-words.ts). One rule for the engine (a plain refusal blocks the model's
// confirm_*, "no means no") and the offline assistant (adapters/offline-agent/yes-no.ts).

import { ANSWER_WORDS, type AnswerList } from './answer-words.ts';
import { foldPhrase, wordsOf } from './words.ts';

export type YesNo = 'yes' | 'no';

/** Phrases split into words and filed by their first word, so a reading looks only at those that can match. */
type PhraseIndex = ReadonlyMap<string, readonly (readonly string[])[]>;

/** The words of one language for answers, ready to read with. */
interface AnswerWords {
  yes: PhraseIndex;
  no: PhraseIndex;
  neither: PhraseIndex;
  weakYes: ReadonlySet<string>;
  fillers: ReadonlySet<string>;
}

function indexed(phrases: readonly string[]): PhraseIndex {
  const index = new Map<string, string[][]>();
  for (const phrase of phrases) {
    const words = foldPhrase(phrase).split(' ');
    const list = index.get(words[0]!) ?? [];
    list.push(words);
    index.set(words[0]!, list);
  }
  return index;
}

function prepared(list: AnswerList): AnswerWords {
  return {
    yes: indexed(list.yes),
    no: indexed(list.no),
    neither: indexed(list.neither),
    weakYes: new Set(list.weakYes.map(foldPhrase)),
    fillers: new Set(list.fillers.map(foldPhrase)),
  };
}

const PREPARED: ReadonlyMap<string, AnswerWords> = new Map(Object.entries(ANSWER_WORDS).map(([tag, list]) => [tag, prepared(list)]));

/** The primary subtag of a language tag, lower case: "de" for "de-DE"; "" for "". */
function primaryOf(language: string): string {
  return language.toLowerCase().split(/[-_]/)[0] ?? '';
}

/** The answer words for a language ("en-US", "de"), or null where the engine has none. */
function answerWords(language: string): AnswerWords | null {
  const primary = primaryOf(language);
  return PREPARED.get(primary === '' ? 'en' : primary) ?? null;
}

/** How many words of the longest phrase that `words` starts with, or 0. */
function longest(words: readonly string[], phrases: PhraseIndex): number {
  let best = 0;
  for (const p of phrases.get(words[0] ?? '') ?? []) {
    if (p.length > best && p.length <= words.length && p.every((w, i) => words[i] === w)) best = p.length;
  }
  return best;
}

/** An answer read from how it starts: yes, no or neither, and what the visitor said after it. */
export interface Answer {
  answer: YesNo | null;
  /** the text after the yes or no ("it's Alice" in "No, it's Alice"); all of it when neither */
  rest: string;
}

/** An answer, with the words that gave it ("it is" in "it is Alice"). */
interface Reading extends Answer {
  said: string;
}

function read(text: string, lang: AnswerWords): Reading {
  const all = wordsOf(text);
  let first = 0;
  while (all.length - first > 1 && lang.fillers.has(all[first]!.text)) first++;
  const words = all.slice(first).map((w) => w.text);
  const yes = longest(words, lang.yes);
  const no = longest(words, lang.no);
  if (yes === no || longest(words, lang.neither) >= Math.max(yes, no)) return { answer: null, rest: text, said: '' };
  const length = Math.max(yes, no);
  const end = all[first + length - 1]!.end;
  return {
    answer: yes > no ? 'yes' : 'no',
    rest: text.slice(end).replace(/^[\s,.;:!?¿¡،؛؟-]+/u, ''),
    said: words.slice(0, length).join(' '),
  };
}

const NEITHER: Reading = { answer: null, rest: '', said: '' };

/**
 * Reads a yes or a no at the start of a text (after fillers) in the visit's language (English
 * when none is given), and what follows it. In a language without answer words, neither.
 */
export function readAnswer(text: string, language = 'en'): Answer {
  const lang = answerWords(language);
  const { answer, rest } = lang ? read(text, lang) : { ...NEITHER, rest: text };
  return { answer, rest };
}

/** 'yes', 'no', or null when the answer is neither (or both at the same length). */
export function classifyYesNo(text: string, language = 'en'): YesNo | null {
  return readAnswer(text, language).answer;
}

/**
 * True when the turn is plainly a refusal in the flow's language: it starts with a no ("no",
 * "nope", "that's wrong", "not my name"), and nothing after it turns into a yes ("no, no, that's
 * right"). "No problem", "Nolan" and "not sure" are not refusals; in a language the engine has no
 * words for, nothing is.
 */
export function isRefusal(text: string, language: string): boolean {
  const lang = answerWords(language);
  if (!lang) return false;
  let answer = read(text, lang);
  if (answer.answer !== 'no') return false;
  // "no, no", "nope, wrong": read on while it stays a no; a yes after it takes the no back
  // ("no, yes it is"), unless it starts a correction ("no, it is Alice").
  for (let i = 0; i < 5 && answer.rest !== ''; i++) {
    const next = read(answer.rest, lang);
    if (next.answer === 'yes') return lang.weakYes.has(next.said) && next.rest !== '';
    if (next.answer !== 'no') break;
    answer = next;
  }
  return true;
}
