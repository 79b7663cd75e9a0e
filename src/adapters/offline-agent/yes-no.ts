// Is this answer a yes or a no? Read from how the answer starts ("yes, that's right", "no, it's
// Alice"), after fillers such as "um" or "oh"; and does the visitor ask to change something?

import { wordsOf } from './text.ts';

export type YesNo = 'yes' | 'no';

const YES: readonly string[] = [
  'yes', 'yeah', 'yep', 'yup', 'ya', 'yea', 'aye', 'uh huh', 'mhm', 'sure', 'ok', 'okay', 'alright', 'all right',
  'right', "that's right", 'that is right', "that's it", 'correct', "that's correct", 'that is correct',
  'exactly', 'absolutely', 'definitely', 'of course', 'indeed', 'affirmative', 'perfect', 'great',
  'sounds good', 'looks good', 'go ahead', 'go for it', 'do it', 'please do', 'confirm', 'confirmed',
  'i confirm', 'it is', 'it does', 'spot on', 'you got it', 'true',
];

const NO: readonly string[] = [
  'no', 'nope', 'nah', 'not quite', 'not really', 'not exactly', 'not right', 'not correct', 'wrong',
  "that's wrong", 'that is wrong', "that's not right", 'that is not right', "that's not it", "that's incorrect",
  'incorrect', 'negative', "don't", 'do not', 'cancel', 'stop', "it isn't", "it's not", 'it is not',
  'false', 'never mind', 'nevermind', 'no way',
];

const FILLERS = new Set(['um', 'umm', 'uh', 'uhh', 'er', 'erm', 'hmm', 'oh', 'well', 'so', 'ah']);

/** Words that ask to change what was said or shown ("change my details", "the date is wrong"). */
const CHANGE = new Set(['change', 'edit', 'correct', 'correction', 'fix', 'wrong', 'mistake', 'update', 'amend', 'back']);

function startsWith(words: readonly string[], phrase: string): number {
  const p = phrase.split(' ');
  if (p.length > words.length) return 0;
  return p.every((w, i) => words[i] === w) ? p.length : 0;
}

/** An answer read from how it starts: yes, no or neither, and what the visitor said after it. */
export interface Answer {
  answer: YesNo | null;
  /** the text after the yes or no ("it's Alice" in "No, it's Alice"); all of it when neither */
  rest: string;
}

/** Reads a yes or a no at the start of the text (after fillers), and what follows it. */
export function readAnswer(text: string): Answer {
  const all = wordsOf(text);
  let first = 0;
  while (all.length - first > 1 && FILLERS.has(all[first]!.text)) first++;
  const words = all.slice(first).map((w) => w.text);
  const longest = (phrases: readonly string[]) => Math.max(0, ...phrases.map((p) => startsWith(words, p)));
  const yes = longest(YES);
  const no = longest(NO);
  if (yes === no) return { answer: null, rest: text };
  const end = all[first + Math.max(yes, no) - 1]!.end;
  return { answer: yes > no ? 'yes' : 'no', rest: text.slice(end).replace(/^[\s,.;:!?-]+/, '') };
}

/** 'yes', 'no', or null when the answer is neither (or both at the same length). */
export function classifyYesNo(text: string): YesNo | null {
  return readAnswer(text).answer;
}

/** True when the visitor asks to change something ("change my details", "my date of birth is wrong"). */
export function wantsChange(text: string): boolean {
  return wordsOf(text).some((w) => CHANGE.has(w.text));
}
