// Corrections: "no wait", "sorry, I meant …", "actually …" take back what was just said or shown
// instead of answering it, and a correction keeps what it does not correct. A name said as the
// correction of one that waits ("no wait, it's Garcia" while "Maria Garrcia" waits) replaces the
// word of it that it corrects (the one it is closest to, or the surname or first name it names)
// and keeps the rest; a date said in part ("the 6th", "born in 1985", "5 April") keeps the day,
// month or year it does not say.

import { editDistance } from '../../engine/language/diagnostics.ts';
import { NAME_PARTICLES } from '../../engine/language/person-names.ts';
import { readAnswer } from '../../engine/runtime/yes-no.ts';
import { foldWord } from '../../engine/runtime/words.ts';
import { dateInWords, datePart, type DateContext } from './dates.ts';
import { perLanguage, type Language } from './languages/language.ts';
import { anyOf, foldInPlace } from './languages/patterns.ts';
import type { Found } from './text.ts';

/** What a visitor's words say as a correction. */
export interface Correction {
  /** they start by taking something back ("no wait", "sorry", "actually", "I meant") */
  correcting: boolean;
  /** the words after the no and the markers: what they say instead */
  rest: string;
}

const markers = perLanguage((lang: Language) => new RegExp(`^[\\s,.;:!-]*${anyOf(lang.talk.corrections)}[\\s,.;:!-]*`, 'iu'));

/**
 * Reads a correction from how the words start: a no, and the language's markers of a correction
 * ("no wait, I meant Priya", "actually no sorry, I'm here for a prescription"). A plain no ("no,
 * it's Marta") is not one by itself: it answers what was asked.
 */
export function readCorrection(said: string, lang: Language): Correction {
  const marker = markers(lang);
  let rest = said.trim();
  let correcting = false;
  for (let i = 0; i < 6; i++) {
    const m = marker.exec(foldInPlace(rest));
    if (m) {
      correcting = true;
      rest = rest.slice(m[0].length);
      continue;
    }
    const answer = readAnswer(rest, lang.code);
    if (answer.answer !== 'no' || answer.rest === rest) break;
    rest = answer.rest;
  }
  return { correcting, rest: correcting ? rest.trim() : said.trim() };
}

const partWords = perLanguage((lang: Language) => ({
  surname: new RegExp(anyOf(lang.talk.surname), 'iu'),
  first: new RegExp(anyOf(lang.talk.firstName), 'iu'),
}));

/** Which part of a name the words say they give: "my surname is …" the last, "my first name is …" the first. */
export function namedPart(said: string, lang: Language): 'first' | 'last' | undefined {
  const folded = foldInPlace(said);
  const words = partWords(lang);
  // "first name" before "name": a longer phrase of the surname's list ("family name") is looked for first.
  if (words.first.test(folded)) return 'first';
  return words.surname.test(folded) ? 'last' : undefined;
}

/** How alike two words are enough that one corrects the other: a letter or two apart, a third of the word at most. */
function alike(a: string, b: string): number | undefined {
  const d = editDistance(foldWord(a), foldWord(b));
  return d <= Math.max(1, Math.floor(Math.max(a.length, b.length) / 3)) ? d : undefined;
}

/**
 * A name heard as a correction of `old`, a name of several words: the words of `old` it corrects
 * replaced, the others kept. It corrects the part it says it is ("my surname is Lopez"), else the
 * one word it is like ("Garcia" for "Garrcia", "Marta" for "Maria"). Undefined when it says a
 * whole name, or is like no word of `old`: then it replaces all of it, as said.
 */
export function correctedName(old: string, heard: string, part?: 'first' | 'last'): string | undefined {
  const was = old.trim().split(/\s+/);
  const now = heard.trim().split(/\s+/);
  const named = (ws: readonly string[]) => ws.filter((w) => !NAME_PARTICLES.has(w.toLowerCase()));
  if (named(was).length < 2 || named(now).length !== 1 || now.length > 2) return undefined;
  if (part === 'first') return [...now, ...was.slice(1)].join(' ');
  if (part === 'last') {
    let from = was.length - 1;
    while (from > 0 && NAME_PARTICLES.has(was[from - 1]!.toLowerCase())) from -= 1;
    return [...was.slice(0, Math.max(1, from)), ...now].join(' ');
  }
  const word = named(now)[0]!;
  const scored = was.map((w, i) => ({ i, d: NAME_PARTICLES.has(w.toLowerCase()) ? undefined : alike(w, word) })).filter((s) => s.d !== undefined);
  const best = Math.min(...scored.map((s) => s.d!));
  const closest = scored.filter((s) => s.d === best);
  if (closest.length !== 1) return undefined;
  const at = closest[0]!.i;
  return [...was.slice(0, at), word, ...was.slice(at + 1)].join(' ');
}

/**
 * A date said in part as the correction of `old` (YYYY-MM-DD): "the 6th" keeps its month and
 * year, "1985" its day and month, "5 April" its year. Undefined when the text says none of these.
 */
export function correctedDate(old: string, text: string, lang: Language, ctx: DateContext): Found<string> | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(old);
  if (!m) return undefined;
  const part = datePart(text, lang, ctx);
  if (!part) return undefined;
  const { day, month, year } = part.value;
  const iso = `${year ?? m[1]}-${String(month ?? Number(m[2])).padStart(2, '0')}-${String(day ?? Number(m[3])).padStart(2, '0')}`;
  // A day the month does not have ("the 31st" of a February) corrects nothing.
  return iso === old || dateInWords(iso) === undefined ? undefined : { value: iso, start: part.start, end: part.end };
}
