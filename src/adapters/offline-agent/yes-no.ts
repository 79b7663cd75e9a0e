// Is this answer a yes or a no? Read from how the answer starts ("yes, that's right", "no, it's
// Alice"), after fillers such as "um" or "oh".

import { normalizePhrase } from './text.ts';

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

function startsWith(words: readonly string[], phrase: string): number {
  const p = phrase.split(' ');
  if (p.length > words.length) return 0;
  return p.every((w, i) => words[i] === w) ? p.length : 0;
}

/** 'yes', 'no', or null when the answer is neither (or both at the same length). */
export function classifyYesNo(text: string): YesNo | null {
  const words = normalizePhrase(text).split(' ').filter(Boolean);
  while (words.length > 1 && FILLERS.has(words[0]!)) words.shift();
  const longest = (phrases: readonly string[]) => Math.max(0, ...phrases.map((p) => startsWith(words, p)));
  const yes = longest(YES);
  const no = longest(NO);
  if (yes > no) return 'yes';
  if (no > yes) return 'no';
  return null;
}
