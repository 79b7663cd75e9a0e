// Spoken numbers in the visit's language, rewritten as digits so the other extractors only deal
// with digits: "twenty two", "one hundred and five", "nineteen ninety five", "the third", "double
// five"; "vierundzwanzig", "am fünften"; "soixante-dix-sept", "le premier"; "treinta y uno".
// One reader for every language: a number is read part by part, each part fitting the room the
// one before it leaves ("twenty" leaves room for a unit, "hundred" for anything under a hundred),
// so digits said one by one ("five five five") stay apart. Eastern Arabic digits become 0-9.

import { ENGLISH } from './languages/en.ts';
import { perLanguage, type Language, type NumberWords } from './languages/language.ts';
import { foldWord } from '../../engine/runtime/words.ts';

/** A word of the text, folded; `glued` when it is part of the same written word as the one before. */
interface Token {
  word: string;
  start: number;
  end: number;
  glued: boolean;
}

interface Prepared {
  words: NumberWords;
  cardinals: ReadonlyMap<string, number>;
  phrases: readonly (readonly [readonly string[], number])[];
  multipliers: ReadonlyMap<string, number>;
  joiners: ReadonlySet<string>;
  articleOnes: ReadonlySet<string>;
  repeats: ReadonlyMap<string, number>;
  zeroNear: ReadonlySet<string>;
  plus: ReadonlySet<string>;
}

const foldedMap = (r: Readonly<Record<string, number>> = {}) => new Map(Object.entries(r).map(([k, v]) => [foldWord(k), v]));
const foldedSet = (l: readonly string[] = []) => new Set(l.map(foldWord));

const prepared = perLanguage((lang: Language): Prepared => {
  const w = lang.numbers;
  return {
    words: w,
    cardinals: foldedMap(w.cardinals),
    phrases: Object.entries(w.phrases ?? {}).map(([k, v]) => [k.split(/\s+/).map(foldWord), v] as const),
    multipliers: foldedMap(w.multipliers),
    joiners: foldedSet(w.joiners),
    articleOnes: foldedSet(w.articleOnes),
    repeats: foldedMap(w.repeats),
    zeroNear: foldedSet(w.zeroNearDigits),
    plus: foldedSet(w.plus),
  };
});

/** The number words of a text; a word one of the language's compounds splits into its parts. */
function tokens(text: string, p: Prepared): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(/\p{L}+/gu)) {
    const word = foldWord(m[0]);
    const start = m.index;
    const end = start + m[0].length;
    const known = p.cardinals.has(word) || p.multipliers.has(word) || p.words.ordinal(word) !== undefined;
    const parts = known ? undefined : p.words.split?.(word);
    if (parts && parts.length > 1) parts.forEach((part, k) => out.push({ word: part, start, end, glued: k > 0 }));
    else out.push({ word, start, end, glued: false });
  }
  return out;
}

/** A single number word or phrase at tokens[i], or null. */
function valueAt(ts: readonly Token[], i: number, p: Prepared, joined: (k: number) => boolean): { value: number; used: number } | null {
  for (const [words, value] of p.phrases) {
    if (words.every((w, k) => ts[i + k]?.word === w && (k === 0 || joined(i + k)))) return { value, used: words.length };
  }
  const value = ts[i] === undefined ? undefined : p.cardinals.get(ts[i]!.word);
  return value === undefined ? null : { value, used: 1 };
}

const isTens = (v: number) => v >= 20 && v < 100 && v % 10 === 0;

/** What may be added after a part worth `v`: "twenty" leaves room for 1-9, "hundred" for 1-99. */
function roomAfter(v: number, w: NumberWords): number {
  if (v === 10) return w.tenTakesUnits ? 10 : 0;
  if (isTens(v)) return w.tensTakingTeens?.includes(v) ? 20 : 10;
  if (v >= 100 && v < 1000 && v % 100 === 0) return 100;
  return 0;
}

/** A cardinal read from tokens[i..]: its value, how many tokens it used, and the room it leaves. */
interface Cardinal {
  value: number;
  used: number;
  room: number;
  /** it ended on "hundred" */
  hundred: boolean;
}

function cardinal(ts: readonly Token[], i: number, p: Prepared, joined: (k: number) => boolean): Cardinal | null {
  let [total, current, room, used, scale] = [0, 0, Infinity, 0, Infinity];
  let [started, lastUnit, hundred] = [false, false, false];
  for (let k = i; k < ts.length; ) {
    if (k > i && !joined(k)) break;
    const w = ts[k]!.word;
    const mult = p.multipliers.get(w);
    if (!started && p.articleOnes.has(w) && p.multipliers.has(ts[k + 1]?.word ?? '') && joined(k + 1)) {
      [current, started, room] = [1, true, 0];
      k += 1;
      continue;
    }
    if (mult !== undefined) {
      if (mult === 100 && (current >= 100 || hundred)) break;
      if (mult > 100 && mult >= scale) break;
      if (mult === 100) [current, room] = [(current || 1) * 100, 100];
      else [total, current, room, scale] = [total + (current || 1) * mult, 0, mult, mult];
      [started, lastUnit, hundred, used] = [true, false, mult === 100, k - i + 1];
      k += 1;
      continue;
    }
    if (p.joiners.has(w)) {
      const next = started && joined(k + 1) ? valueAt(ts, k + 1, p, joined) : null;
      if (!next) break;
      if (p.words.unitBeforeTens && lastUnit && isTens(next.value)) {
        [current, room, lastUnit, used] = [current + next.value, 0, false, k + 1 + next.used - i];
        k += 1 + next.used;
        continue;
      }
      if (next.value === 0 || next.value >= room) break;
      k += 1;
      continue;
    }
    const v = valueAt(ts, k, p, joined);
    if (!v || (started && (v.value === 0 || v.value >= room))) break;
    [current, room, started, hundred] = [current + v.value, v.value === 0 ? 0 : roomAfter(v.value, p.words), true, false];
    lastUnit = v.value >= 1 && v.value <= 9;
    used = k + v.used - i;
    k += v.used;
  }
  return used === 0 ? null : { value: total + current, used, room, hundred };
}

/** An ordinal at tokens[i]: a word ("third") or a cardinal with an ordinal after it ("twenty first"). */
function ordinal(ts: readonly Token[], i: number, p: Prepared, joined: (k: number) => boolean): { value: number; used: number } | null {
  const card = cardinal(ts, i, p, joined);
  const after = card && ts[i + card.used];
  const o = after && joined(i + card.used) ? p.words.ordinal(after.word) : undefined;
  if (card && o !== undefined && o < card.room && o < 10) return { value: card.value + o, used: card.used + 1 };
  const own = p.words.ordinal(ts[i]!.word);
  return own === undefined ? null : { value: own, used: 1 };
}

/** Text with spoken numbers as digits, and where each character of it came from in the original. */
export interface DigitText {
  text: string;
  /** for each character of `text`: start and end of the original piece it came from */
  from: readonly (readonly [number, number])[];
}

/** Maps a span of a DigitText back to the original text. */
export function originalSpan(d: DigitText, start: number, end: number): [number, number] {
  const first = d.from[start];
  const last = d.from[end - 1];
  if (!first || !last) return [start, end];
  return [first[0], last[1]];
}

/** Eastern Arabic and Persian digits as 0-9. */
function westernDigit(c: string): string {
  const code = c.charCodeAt(0);
  if (code >= 0x0660 && code <= 0x0669) return String(code - 0x0660);
  if (code >= 0x06f0 && code <= 0x06f9) return String(code - 0x06f0);
  return c;
}

/** "nineteen ninety five", "nineteen oh five": a year said in pairs, after a cardinal of 19 or 20. */
function yearPair(ts: readonly Token[], k: number, p: Prepared, joined: (k: number) => boolean): { value: number; used: number } | null {
  if (k >= ts.length || !joined(k)) return null;
  const digitAfter = (j: number) => j < ts.length && joined(j) && (p.cardinals.get(ts[j]!.word) ?? 10) < 10;
  const oh = p.zeroNear.has(ts[k]!.word) && digitAfter(k + 1);
  const pair = oh ? { value: p.cardinals.get(ts[k + 1]!.word)!, used: 2 } : cardinal(ts, k, p, joined);
  return pair && pair.value >= (oh ? 1 : 10) && pair.value <= 99 ? pair : null;
}

/** One number said at tokens[i], as the digits to write and how many tokens it took. */
function numberAt(ts: readonly Token[], i: number, p: Prepared, joined: (k: number) => boolean): { digits: string; used: number } | null {
  const w = ts[i]!.word;
  const nextJoined = i + 1 < ts.length && joined(i + 1);
  const digitWord = (k: number) => ts[k] !== undefined && (p.cardinals.get(ts[k]!.word) ?? 10) < 10;
  const times = p.repeats.get(w);
  if (times !== undefined && nextJoined && digitWord(i + 1)) return { digits: String(p.cardinals.get(ts[i + 1]!.word)).repeat(times), used: 2 };
  if (p.plus.has(w) && nextJoined && digitWord(i + 1)) return { digits: '+', used: 1 };
  if (p.zeroNear.has(w) && ((i > 0 && joined(i) && digitWord(i - 1)) || (nextJoined && digitWord(i + 1)))) return { digits: '0', used: 1 };
  const ord = ordinal(ts, i, p, joined);
  if (ord) return { digits: p.words.ordinalMark(ord.value), used: ord.used };
  const card = cardinal(ts, i, p, joined);
  if (!card) return null;
  if (p.words.yearPairs && (card.value === 19 || card.value === 20) && !card.hundred) {
    const pair = yearPair(ts, i + card.used, p, joined);
    if (pair) return { digits: String(card.value * 100 + pair.value), used: card.used + pair.used };
  }
  return { digits: String(card.value), used: card.used };
}

/**
 * Rewrites spoken numbers as digits in the visit's language: "twenty two" → "22", "the third of
 * May" → "the 3rd of May", "am fünften März" → "am 5. März", "nineteen ninety five" → "1995",
 * "double five" → "55", "oh" next to a digit → "0", "plus" before one → "+".
 */
export function spokenToDigits(original: string, lang: Language = ENGLISH): DigitText {
  const p = prepared(lang);
  const ts = tokens(original, p);
  const joined = (k: number) => ts[k] !== undefined && (ts[k]!.glued || /^[\s-]+$/.test(original.slice(ts[k - 1]!.end, ts[k]!.start)));
  let text = '';
  const from: [number, number][] = [];
  let copied = 0;
  const put = (s: string, start: number, end: number) => {
    for (let c = copied; c < start; c++) {
      text += westernDigit(original[c]!);
      from.push([c, c + 1]);
    }
    for (const ch of s) {
      text += ch;
      from.push([start, end]);
    }
    copied = Math.max(copied, end);
  };
  for (let i = 0; i < ts.length; ) {
    const n = numberAt(ts, i, p, joined);
    if (!n) {
      i += 1;
      continue;
    }
    put(n.digits, ts[i]!.start, ts[i + n.used - 1]!.end);
    i += n.used;
  }
  put('', original.length, original.length);
  return { text, from };
}

/** The value of one written word of number words ("vierundzwanzig" 24), for a language's ordinals. */
export function wordValue(word: string, lang: Language): number | undefined {
  const p = prepared(lang);
  const ts = tokens(word, p);
  const card = ts.length > 0 ? cardinal(ts, 0, p, (k) => ts[k]?.glued ?? false) : null;
  return card && card.used === ts.length ? card.value : undefined;
}
