// Person names in what the visitor said: introduced ("my name is …", "I'm …") or said on their
// own, with particles ("van der Berg") and titles ("Dr Smith"), written the way the person
// writes them ("maria" → "Maria", "van der berg" → "van der Berg").
//
// A title is not stored: a name field holds the name a record or a badge is matched on, and
// "Dr Smith" and "Smith" are one person. A title with a surname alone gives no first name.

import { NAME_PARTICLES, writeNameWord } from '../../engine/language/person-names.ts';
import type { Found } from './text.ts';

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
    'nothing nobody none whatever again repeat help wrong right correct incorrect mistake change ' +
    'zero one two three four five six seven ' +
    'eight nine ten eleven twelve twenty thirty forty fifty sixty seventy eighty ninety hundred'
  ).split(' '),
);

/** Forms of address said before a name. */
const TITLES = new Set('dr doctor mr mister mrs ms miss mx prof professor sir dame'.split(' '));

const NAME_WORD = /^\p{L}[\p{L}'’-]*$/u;

const isParticle = (word: string) => NAME_PARTICLES.has(word.toLowerCase());

interface NameWords {
  /** the name's words as written, particles included, title left out */
  words: string[];
  /** a title came first */
  titled: boolean;
  /** how much of the text the name took */
  length: number;
}

/**
 * Up to three name words at the start of the text (particles between them not counted), after a
 * title if one comes first; stops at a word that is no name, or at punctuation.
 */
function nameWords(text: string): NameWords | undefined {
  const words: string[] = [];
  let titled = false;
  let length = 0;
  let counted = 0;
  const re = /\s*([^\s,.;:!?()"]+)(\.?)/gy;
  for (let m = re.exec(text); m && counted < 3; m = re.exec(text)) {
    const w = m[1]!;
    if (words.length === 0 && !titled && TITLES.has(w.toLowerCase())) {
      titled = true;
      continue;
    }
    if (!NAME_WORD.test(w) || NOT_NAME.has(w.toLowerCase())) break;
    words.push(w);
    if (isParticle(w)) continue;
    counted += 1;
    length = re.lastIndex - m[2]!.length;
    if (m[2]) break; // a full stop ends the name
  }
  while (words.length > 0 && isParticle(words[words.length - 1]!)) words.pop();
  return counted > 0 ? { words, titled, length } : undefined;
}

/** The wanted part of the name: "Maria van der Berg" is Maria, van der Berg, or all of it. */
function namePart({ words, titled }: NameWords, part: NamePart): string | undefined {
  let chosen = words;
  if (part === 'first') {
    // "Dr Smith" and "van der Berg" are surnames: no first name in them.
    if (isParticle(words[0]!) || (titled && words.filter((w) => !isParticle(w)).length === 1)) return undefined;
    chosen = words.slice(0, 1);
  } else if (part === 'last') {
    let from = words.length - 1;
    while (from > 0 && isParticle(words[from - 1]!)) from -= 1;
    chosen = words.slice(from);
  }
  return chosen.map(writeNameWord).join(' ');
}

/** A name introduced as "my name is …", "I'm …", "call me …", "it's …". */
export function extractName(text: string, part: NamePart = 'full'): Found<string> | undefined {
  for (const lead of text.matchAll(NAME_LEAD)) {
    const start = lead.index + lead[0].length;
    const found = nameWords(text.slice(start));
    const value = found && namePart(found, part);
    if (found && value) return { value, start: lead.index, end: start + found.length };
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
  return namePart(found, part);
}

/** A bare answer for a free-text question: the words, without fillers, when short and not a question. */
export function bareText(text: string): string | undefined {
  if (QUESTION.test(text.trim())) return undefined;
  const rest = core(text);
  const words = rest.split(/\s+/).filter(Boolean);
  return words.length >= 1 && words.length <= 12 ? rest : undefined;
}
