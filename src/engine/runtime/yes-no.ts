// Is this answer a yes or a no? Read from how it starts ("yes, that's right", "no, it's Alice"),
// after fillers such as "um" or "oh". One rule for the engine (a plain refusal blocks the model's
// confirm_*, "no means no") and the offline assistant (adapters/offline-agent/yes-no.ts).

import { wordsOf } from './words.ts';

export type YesNo = 'yes' | 'no';

/** The words of one language for answers, as written below. */
interface AnswerList {
  yes: readonly string[];
  no: readonly string[];
  /** phrases that start like a no (or a yes) but answer neither: "no problem", "not bad" */
  neither: readonly string[];
  /** yes words that also start a statement ("it is Alice"): a yes after a no only on their own */
  weakYes: ReadonlySet<string>;
  fillers: ReadonlySet<string>;
}

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
    const words = phrase.split(' ');
    const list = index.get(words[0]!) ?? [];
    list.push(words);
    index.set(words[0]!, list);
  }
  return index;
}

function prepared(list: AnswerList): AnswerWords {
  return { ...list, yes: indexed(list.yes), no: indexed(list.no), neither: indexed(list.neither) };
}

const ENGLISH_LIST: AnswerList = {
  yes: [
    'yes', 'yeah', 'yep', 'yup', 'ya', 'yea', 'aye', 'uh huh', 'mhm', 'sure', 'ok', 'okay', 'alright', 'all right',
    'right', "that's right", 'that is right', "that's it", 'correct', "that's correct", 'that is correct',
    'exactly', 'absolutely', 'definitely', 'of course', 'indeed', 'affirmative', 'perfect', 'great',
    'sounds good', 'looks good', 'go ahead', 'go for it', 'do it', 'please do', 'confirm', 'confirmed',
    'i confirm', 'it is', 'it does', 'spot on', 'you got it', 'true', "it's right", 'it is right', "it's correct",
    'it is correct', "that's fine", 'fine',
  ],
  no: [
    'no', 'nope', 'nah', 'not quite', 'not really', 'not exactly', 'not right', 'not correct', 'wrong',
    "that's wrong", 'that is wrong', "that's not right", 'that is not right', "that's not it", "that's incorrect",
    'incorrect', 'negative', "don't", 'do not', 'cancel', 'stop', "it isn't", "it's not", 'it is not',
    'false', 'never mind', 'nevermind', 'no way', 'not my', "that's not my", 'that is not my', "that isn't my",
    "it's not my", "that's the wrong", 'wrong one',
  ],
  neither: [
    'no problem', 'no worries', 'no doubt', 'no question', 'no kidding', 'not a problem', 'not bad', "don't worry",
    "it's not a problem", "that's not a problem", 'nothing wrong',
  ],
  weakYes: new Set(['it is', 'it does', 'right', 'true', 'fine']),
  fillers: new Set(['um', 'umm', 'uh', 'uhh', 'er', 'erm', 'hmm', 'oh', 'well', 'so', 'ah']),
};

/** Plain answers in a few more languages: enough to hear a refusal, not to hold a conversation. */
const OTHER_LISTS: Readonly<Record<string, AnswerList>> = {
  de: {
    yes: ['ja', 'genau', 'richtig', 'stimmt', 'das stimmt', 'korrekt', 'jawohl', 'ok', 'okay', 'passt'],
    no: ['nein', 'nee', 'nö', 'falsch', 'das ist falsch', 'stimmt nicht', 'das stimmt nicht', 'nicht richtig', 'das ist nicht richtig'],
    neither: ['kein problem'],
    weakYes: new Set(['richtig']),
    fillers: new Set(['äh', 'ähm', 'hm', 'also', 'oh', 'na']),
  },
  fr: {
    yes: ['oui', "c'est ça", "c'est exact", 'exact', 'exactement', "d'accord", 'ok', 'voilà', 'tout à fait', 'correct'],
    no: ['non', "c'est faux", 'faux', "ce n'est pas ça", "c'est pas ça", 'pas du tout', 'incorrect', "ce n'est pas correct"],
    neither: ['pas de problème', 'pas de souci', 'pas mal'],
    weakYes: new Set(),
    fillers: new Set(['euh', 'ben', 'bon', 'ah', 'oh']),
  },
  es: {
    yes: ['sí', 'claro', 'correcto', 'exacto', 'vale', 'de acuerdo', 'eso es', 'así es'],
    no: ['no', 'incorrecto', 'está mal', 'eso está mal', 'no es correcto', 'no es así'],
    neither: ['no hay problema', 'no pasa nada', 'no te preocupes', 'no se preocupe'],
    weakYes: new Set(),
    fillers: new Set(['eh', 'este', 'pues', 'bueno', 'ah', 'oh']),
  },
};

const ENGLISH = prepared(ENGLISH_LIST);
const OTHER: ReadonlyMap<string, AnswerWords> = new Map(Object.entries(OTHER_LISTS).map(([tag, list]) => [tag, prepared(list)]));

/** The answer words for a flow's `language` ("en-US", "de"), or null where the engine has none. */
function answerWords(language: string): AnswerWords | null {
  const primary = language.toLowerCase().split(/[-_]/)[0] ?? '';
  if (primary === 'en' || primary === '') return ENGLISH;
  return OTHER.get(primary) ?? null;
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
    rest: text.slice(end).replace(/^[\s,.;:!?-]+/, ''),
    said: words.slice(0, length).join(' '),
  };
}

/** Reads a yes or a no at the start of an English text (after fillers), and what follows it. */
export function readAnswer(text: string): Answer {
  const { answer, rest } = read(text, ENGLISH);
  return { answer, rest };
}

/** 'yes', 'no', or null when the answer is neither (or both at the same length). */
export function classifyYesNo(text: string): YesNo | null {
  return readAnswer(text).answer;
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
