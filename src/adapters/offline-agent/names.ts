// Person names in what the visitor said, in the visit's language: introduced ("my name is …",
// "ich heiße …", "je m'appelle …", "me llamo …", "I'm …") or said on their own, with particles
// ("van der Berg") and titles ("Dr Smith", "Frau Weber"), written the way the person writes them
// ("maria" → "Maria", "van der berg" → "van der Berg"). Commands ("start over"), common words and
// gibberish ("xxxxxx", "asdf") are never a name.
//
// A title is not stored: a name field holds the name a record or a badge is matched on, and
// "Dr Smith" and "Smith" are one person. A title with a surname alone gives no first name.

import { NAME_PARTICLES, writeNameWord } from '../../engine/language/person-names.ts';
import { foldWord } from '../../engine/runtime/words.ts';
import { ENGLISH } from './languages/en.ts';
import { LANGUAGES } from './languages/index.ts';
import { perLanguage, type Language } from './languages/language.ts';
import { anyOf, foldInPlace } from './languages/patterns.ts';
import type { Found } from './text.ts';

/** Which part of a person's name a parameter wants. */
export type NamePart = 'first' | 'last' | 'full';

/** The longest word of a name: longer ones are not names (the longest surnames in use have about 35 letters). */
const MAX_NAME_WORD = 40;

const NAME_WORD = /^\p{L}(?:[\p{L}'’-]*\p{L})?$/u;

const isParticle = (word: string) => NAME_PARTICLES.has(word.toLowerCase());

/** Rows of keyboards, whose runs ("asdf", "qwerty") are typed, not names. */
const KEYBOARD_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm', 'qwertzuiop', 'yxcvbnm', 'azertyuiop', 'qsdfghjklm', 'wxcvbn'];

/**
 * A word that is no one's name: a letter three times in a row ("xxx"), a run of a keyboard row
 * ("asdf"), more than five consonants together or no vowel in four letters or more (in Latin
 * letters; "Nietzsche" and "Ng" are names), or longer than any name.
 */
export function isGibberish(word: string): boolean {
  const w = foldWord(word).replace(/['’-]/g, '');
  if (w.length > MAX_NAME_WORD || /(\p{L})\1\1/u.test(w)) return true;
  if (w.length >= 4 && KEYBOARD_ROWS.some((row) => row.includes(w))) return true;
  if (!/^[a-z]+$/.test(w)) return false;
  return /[^aeiouy]{6}/.test(w) || (w.length >= 4 && !/[aeiouy]/.test(w));
}

interface NameReader {
  /** a lead that any name may follow, then one that a particle may not start ("soy de Madrid") */
  lead: RegExp;
  /** words of a correction between a lead and the name ("ich heiße eigentlich Lea") */
  skip: RegExp;
  weakLead: RegExp;
  titles: ReadonlySet<string>;
  notNames: ReadonlySet<string>;
  filler: RegExp;
  leadIn: RegExp;
  tail: RegExp;
  question: RegExp;
}

const reader = perLanguage((lang: Language): NameReader => {
  const b = lang.bare;
  const startWords = (list: readonly string[]) => new RegExp(`^(?:${anyOf(list)}[\\s,.!]*)+`, 'iu');
  return {
    lead: new RegExp(`${anyOf(lang.names.leads)}\\s+`, 'giu'),
    skip: new RegExp(`^(?:${anyOf(lang.talk.corrections)}[\\s,]+)*`, 'iu'),
    weakLead: new RegExp(`${anyOf(lang.names.weakLeads)}\\s+`, 'giu'),
    titles: new Set(lang.names.titles.map(foldWord)),
    notNames: new Set(lang.names.notNames.map(foldWord)),
    filler: startWords(b.fillers),
    leadIn: new RegExp(`^${anyOf(b.leadIns)}\\s*`, 'iu'),
    tail: new RegExp(`[\\s,]*${anyOf(b.tails)}[\\s.!]*$`, 'iu'),
    question: new RegExp(`[?؟]\\s*$|^[¿]|^${anyOf(b.questionStarts)}`, 'iu'),
  };
});

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
 * title if one comes first; stops at a word that is no name, or at punctuation. Nothing when a
 * word of it is gibberish; after a weak lead, nothing that starts with a particle.
 */
function nameWords(text: string, r: NameReader, weak = false): NameWords | undefined {
  const words: string[] = [];
  let [titled, length, counted] = [false, 0, 0];
  const re = /\s*([^\s,.;:!?¿¡()"«»„“”،؛؟]+)(\.?)/gy;
  for (let m = re.exec(text); m && counted < 3; m = re.exec(text)) {
    const w = m[1]!;
    const folded = foldWord(w);
    if (words.length === 0 && !titled && r.titles.has(folded)) {
      titled = true;
      continue;
    }
    if (!NAME_WORD.test(w) || r.notNames.has(folded)) break;
    if (isGibberish(w) || (weak && words.length === 0 && isParticle(w))) return undefined;
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

/** A name after one of the language's leads, "my name is …" (and "I'm …" when `weak`). */
function nameAfterLead(text: string, part: NamePart, lang: Language, weak: boolean): Found<string> | undefined {
  const r = reader(lang);
  const folded = foldInPlace(text);
  const leads = [...folded.matchAll(r.lead)].map((m) => ({ m, weak: false }));
  if (weak) leads.push(...[...folded.matchAll(r.weakLead)].map((m) => ({ m, weak: true })));
  for (const { m: lead, weak } of leads.sort((a, b) => a.m.index - b.m.index)) {
    const after = lead.index + lead[0].length;
    const start = after + (r.skip.exec(folded.slice(after))?.[0].length ?? 0);
    const found = nameWords(text.slice(start), r, weak);
    const value = found && namePart(found, part);
    if (found && value) return { value, start: lead.index, end: start + found.length };
  }
  return undefined;
}

/**
 * A name introduced as "my name is …", "I'm …", "ich heiße …", "je m'appelle …", "me llamo …",
 * "اسمي …" in the visit's language; or, typed in another language the assistant speaks, after that
 * language's own lead ("اسمي ماريا غارسيا" in an English visit is Maria Garcia's name, not all of it).
 */
export function extractName(text: string, part: NamePart = 'full', lang: Language = ENGLISH): Found<string> | undefined {
  const own = lang.names.leads.length > 0 ? nameAfterLead(text, part, lang, lang.understands === 'all') : undefined;
  if (own) return own;
  for (const other of LANGUAGES) {
    if (other === lang) continue;
    const found = nameAfterLead(text, part, other, false);
    if (found) return found;
  }
  return undefined;
}

/** What is left of a short answer once fillers ("um", "it's", "please", "äh", "bitte") are taken off. */
function core(text: string, r: NameReader): string {
  let t = text.trim();
  const cut = (re: RegExp) => {
    const m = re.exec(foldInPlace(t));
    if (m) t = (t.slice(0, m.index) + t.slice(m.index + m[0].length)).trim();
  };
  cut(r.filler);
  cut(r.leadIn);
  cut(r.tail);
  return t.replace(/[\s.!,;:]+$/, '').trim();
}

/** True when the text asks something ("what do you mean?", "¿dónde?", "wie bitte?"). */
export function isQuestion(text: string, lang: Language = ENGLISH): boolean {
  return reader(lang).question.test(foldInPlace(text.trim()));
}

/** A bare name said on its own ("Alex", "alex smith.", "Maria, bitte"), when the screen asks for one. */
export function bareName(text: string, part: NamePart = 'full', lang: Language = ENGLISH): string | undefined {
  if (lang.understands !== 'all') return undefined;
  const r = reader(lang);
  if (r.question.test(foldInPlace(text.trim()))) return undefined;
  const rest = core(text, r);
  const found = nameWords(rest, r);
  if (!found || found.length !== rest.length || found.words.every((w) => w.length < 2)) return undefined;
  return namePart(found, part);
}

/** A bare answer for a free-text question: the words, without fillers, when short, no question and no gibberish. */
export function bareText(text: string, lang: Language = ENGLISH): string | undefined {
  if (lang.understands !== 'all') return undefined;
  const r = reader(lang);
  if (r.question.test(foldInPlace(text.trim()))) return undefined;
  const rest = core(text, r);
  const words = rest.split(/\s+/).filter(Boolean);
  if (words.some((w) => /\p{L}/u.test(w) && isGibberish(w.replace(/[^\p{L}'’-]/gu, '')))) return undefined;
  return words.length >= 1 && words.length <= 12 ? rest : undefined;
}
