// Values in what the visitor said or typed: person names, email addresses (typed or spoken as
// "alex at example dot com"), phone numbers, numbers and choices. Dates and times: dates.ts.

import { originalSpan, spokenToDigits } from './numbers.ts';
import { escapeRegExp, type Found } from './text.ts';

export { extractDate, extractTime, type SpokenDate, type SpokenTime } from './dates.ts';

// ------------------------------------------------------------------ names

/** Which part of a person's name a parameter wants. */
export type NamePart = 'first' | 'last' | 'full';

const NAME_LEAD =
  /\b(?:my\s+(?:(?:first|full|last|given|family)\s+)?name\s+is|my\s+(?:(?:first|full|last)\s+)?name's|(?:the\s+)?name's|(?:my\s+)?surname\s+is|you\s+can\s+call\s+me|call\s+me|i\s+am|i'm|im|it's|it\s+is|this\s+is)\s+/giu;

/** Words that follow "I'm" or "it's" without being a name, and words that end a name. */
const NOT_NAME = new Set(
  (
    'a an the and but or so not no yes yeah just very really fine good great well okay ok sure here there ready ' +
    'sorry looking trying interested from in on at for to with about back done happy glad new called named ' +
    'going coming doing still also actually my your his her their our is was am are be been i me you ' +
    'he she we they it this that what who how why where when please thanks thank hello hi hey born aged ' +
    'email e mail phone number years year old um uh er erm hmm like maybe perhaps huh pardon wait dunno ' +
    'nothing nobody none whatever again repeat help zero one two three four five six seven ' +
    'eight nine ten eleven twelve twenty thirty forty fifty sixty seventy eighty ninety hundred'
  ).split(' '),
);

const NAME_WORD = /^\p{L}[\p{L}'’-]*$/u;

/** "alex" → "Alex", "MCDONALD" → "Mcdonald"; mixed case ("McDonald") is kept as written. */
function capitalizeName(word: string): string {
  const mixed = word !== word.toLowerCase() && word !== word.toUpperCase();
  if (mixed) return word;
  return word
    .toLowerCase()
    .split(/(['’-])/)
    .map((p) => (p.length > 0 ? p[0]!.toUpperCase() + p.slice(1) : p))
    .join('');
}

/** The name made of the words (already checked), as the wanted part. */
function namePart(words: readonly string[], part: NamePart): string {
  const chosen = part === 'first' ? words.slice(0, 1) : part === 'last' ? words.slice(-1) : words;
  return chosen.map(capitalizeName).join(' ');
}

/** Up to three name words at the start of the text; stops at a non-name word or punctuation. */
function nameWords(text: string): { words: string[]; length: number } | undefined {
  const words: string[] = [];
  let length = 0;
  const re = /\s*([^\s,.;:!?()"]+)/gy;
  for (let m = re.exec(text); m && words.length < 3; m = re.exec(text)) {
    const w = m[1]!;
    if (!NAME_WORD.test(w) || NOT_NAME.has(w.toLowerCase())) break;
    words.push(w);
    length = re.lastIndex;
  }
  return words.length ? { words, length } : undefined;
}

/** A name introduced as "my name is …", "I'm …", "call me …", "it's …". */
export function extractName(text: string, part: NamePart = 'full'): Found<string> | undefined {
  for (const lead of text.matchAll(NAME_LEAD)) {
    const start = lead.index + lead[0].length;
    const found = nameWords(text.slice(start));
    if (found) return { value: namePart(found.words, part), start: lead.index, end: start + found.length };
  }
  return undefined;
}

const FILLER = /^(?:(?:um+|uh+|er+m?|hmm+|well|oh|so|okay|ok|right|yes|yeah|sure)\b[\s,.!]*)+/i;
const LEAD_IN = /^(?:it's|it\s+is|that's|that\s+is|my\s+answer\s+is|i'd\s+say|i\s+think|i\s+guess)\b\s*/i;
const TAIL = /[\s,]*\b(?:please|thanks|thank\s+you)\b[\s.!]*$/i;
const QUESTION = /\?\s*$|^(?:what|why|how|who|where|when|which|can|could|would|will|is|are|do|does|did|should)\b/i;

/** What is left of a short answer once fillers ("um", "it's", "please") are taken off. */
function core(text: string): string {
  return text.trim().replace(FILLER, '').replace(LEAD_IN, '').replace(TAIL, '').replace(/[\s.!,;:]+$/, '').trim();
}

/** A bare name said on its own ("Alex", "alex smith."), when the screen asks for one. */
export function bareName(text: string, part: NamePart = 'full'): string | undefined {
  if (QUESTION.test(text.trim())) return undefined;
  const rest = core(text);
  const found = nameWords(rest);
  if (!found || found.length !== rest.length) return undefined;
  return namePart(found.words, part);
}

/** A bare answer for a free-text question: the words, without fillers, when short and not a question. */
export function bareText(text: string): string | undefined {
  if (QUESTION.test(text.trim())) return undefined;
  const rest = core(text);
  const words = rest.split(/\s+/).filter(Boolean);
  return words.length >= 1 && words.length <= 12 ? rest : undefined;
}

// ------------------------------------------------------------------ email

const TYPED_EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;
const PART = '(?:[a-z0-9](?:\\s+[a-z0-9]){2,}|[a-z0-9][a-z0-9._%+-]*)';
const JOIN = '\\s+(?:dot|underscore|dash|hyphen|plus)\\s+';
const LABEL = '[a-z0-9][a-z0-9-]*';
const SPOKEN_EMAIL = new RegExp(`\\b(${PART}(?:${JOIN}${PART})*)\\s+(?:at|at\\s+sign)\\s+(${LABEL}(?:(?:\\s*\\.\\s*|\\s+dot\\s+)${LABEL})+)\\b`, 'i');
const VALID_EMAIL = /^[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}$/;

/** An email address, typed ("alex@example.com") or spoken ("alex dot smith at example dot com"). */
export function extractEmail(text: string): Found<string> | undefined {
  const typed = TYPED_EMAIL.exec(text);
  if (typed) return { value: typed[0].toLowerCase(), start: typed.index, end: typed.index + typed[0].length };
  const spoken = SPOKEN_EMAIL.exec(text);
  if (!spoken) return undefined;
  const local = spoken[1]!
    .toLowerCase()
    .replace(/\s+dot\s+/g, '.')
    .replace(/\s+underscore\s+/g, '_')
    .replace(/\s+(?:dash|hyphen)\s+/g, '-')
    .replace(/\s+plus\s+/g, '+')
    .replace(/\s+/g, '');
  const domain = spoken[2]!.toLowerCase().replace(/\s+dot\s+/g, '.').replace(/\s+/g, '');
  const value = `${local}@${domain}`;
  if (!VALID_EMAIL.test(value)) return undefined;
  return { value, start: spoken.index, end: spoken.index + spoken[0].length };
}

// ------------------------------------------------------------------ phone

const PHONE_RUN = /(?:\+\s?)?\(?\d[\d\s().,-]*\d/g;
const ENGINE_PHONE = /^\+?[0-9][0-9 ()./-]{5,}[0-9]$/;

/** A phone number of 7 to 15 digits, typed or spoken ("five five five, one two three four…"). */
export function extractPhone(text: string): Found<string> | undefined {
  const digits = spokenToDigits(text);
  for (const m of digits.text.matchAll(PHONE_RUN)) {
    const raw = m[0].trim();
    const count = raw.replace(/\D/g, '').length;
    if (count < 7 || count > 15) continue;
    // Typed groups ("555 123 4567", "+44 20 7946 0958") are kept; digits said one by one are joined.
    const grouped = raw.replace(/^\+\s?/, '').split(/\s+/).every((g) => g.replace(/\D/g, '').length >= 2);
    const value = grouped && ENGINE_PHONE.test(raw) ? raw.replace(/\s+/g, ' ') : (raw.startsWith('+') ? '+' : '') + raw.replace(/\D/g, '');
    const [start, end] = originalSpan(digits, m.index, m.index + m[0].length);
    return { value, start, end };
  }
  return undefined;
}

// ------------------------------------------------------------------ numbers

/** The first number, in digits ("22", "3.5") or words ("twenty two"); ordinals ("3rd") are not counted. */
export function extractNumber(text: string, integer = false): Found<number> | undefined {
  const digits = spokenToDigits(text);
  for (const m of digits.text.matchAll(/(?<![\w.])(-?\d+(?:\.\d+)?)(?![\w]|\.\d)/g)) {
    const value = Number(m[1]);
    if (integer && !Number.isInteger(value)) continue;
    const [start, end] = originalSpan(digits, m.index, m.index + m[0].length);
    return { value, start, end };
  }
  return undefined;
}

// ------------------------------------------------------------------ choices

/** One allowed value and the words that name it (its value, and its label if it has one). */
export interface Choice {
  value: unknown;
  names: readonly string[];
}

function choicePattern(name: string): RegExp {
  const words = name.trim().split(/[\s_-]+/).filter(Boolean).map(escapeRegExp);
  return new RegExp(`(?<![\\p{L}\\p{N}])${words.join('[\\s_-]*')}(?![\\p{L}\\p{N}])`, 'iu');
}

/** The choice named first in the text (as a whole word, any case), or undefined. */
export function extractChoice(text: string, choices: readonly Choice[]): Found<unknown> | undefined {
  let best: Found<unknown> | undefined;
  for (const c of choices) {
    for (const name of c.names) {
      if (name.trim() === '') continue;
      const m = choicePattern(name).exec(text);
      if (m && (!best || m.index < best.start || (m.index === best.start && m[0].length > best.end - best.start))) {
        best = { value: c.value, start: m.index, end: m.index + m[0].length };
      }
    }
  }
  return best;
}
