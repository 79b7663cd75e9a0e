// Spoken numbers: "twenty two", "one hundred and five", "nineteen ninety five", "the third",
// "double five", rewritten as digits so the other extractors only deal with digits.

const UNITS: ReadonlyMap<string, number> = new Map(Object.entries({
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9,
}));
const TEENS: ReadonlyMap<string, number> = new Map(Object.entries({
  ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16,
  seventeen: 17, eighteen: 18, nineteen: 19,
}));
const TENS: ReadonlyMap<string, number> = new Map(Object.entries({
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
}));
const SCALES: ReadonlyMap<string, number> = new Map(Object.entries({ thousand: 1000, million: 1_000_000 }));
const ORDINAL_UNITS: ReadonlyMap<string, number> = new Map(Object.entries({
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9,
  tenth: 10, eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15,
  sixteenth: 16, seventeenth: 17, eighteenth: 18, nineteenth: 19,
}));
const ORDINAL_TENS: ReadonlyMap<string, number> = new Map(Object.entries({ twentieth: 20, thirtieth: 30 }));

type Part = 'unit' | 'teen' | 'tens' | 'hundred' | 'scale';

interface Word {
  lower: string;
  start: number;
  end: number;
}

function words(text: string): Word[] {
  return [...text.matchAll(/[A-Za-z]+/g)].map((m) => ({ lower: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }));
}

/** A cardinal read from words[i..]: its value and how many words it used, or null. */
function cardinal(ws: readonly Word[], i: number, joined: (a: number) => boolean): { value: number; used: number; last: Part } | null {
  let total = 0;
  let current = 0;
  let prev: Part | 'and' | null = null;
  let last: Part | null = null;
  let used = 0;
  for (let k = i; k < ws.length; k++) {
    if (k > i && !joined(k)) break;
    const w = ws[k]!.lower;
    const next = ws[k + 1]?.lower;
    let part: Part | 'and';
    if (w === 'a' && prev === null && (next === 'hundred' || (next !== undefined && SCALES.has(next)))) {
      current = 1;
      prev = 'unit';
      continue;
    }
    if (UNITS.has(w)) {
      if (prev !== null && prev !== 'tens' && prev !== 'hundred' && prev !== 'scale' && prev !== 'and') break;
      current += UNITS.get(w)!;
      part = 'unit';
    } else if (TEENS.has(w)) {
      if (prev !== null && prev !== 'hundred' && prev !== 'scale' && prev !== 'and') break;
      current += TEENS.get(w)!;
      part = 'teen';
    } else if (TENS.has(w)) {
      if (prev !== null && prev !== 'hundred' && prev !== 'scale' && prev !== 'and') break;
      current += TENS.get(w)!;
      part = 'tens';
    } else if (w === 'hundred') {
      if (prev !== 'unit' && prev !== 'teen') break;
      current *= 100;
      part = 'hundred';
    } else if (SCALES.has(w)) {
      if (prev === null || prev === 'scale' || prev === 'and') break;
      total += current * SCALES.get(w)!;
      current = 0;
      part = 'scale';
    } else if (w === 'and' && (prev === 'hundred' || prev === 'scale') && next !== undefined && (UNITS.has(next) || TEENS.has(next) || TENS.has(next))) {
      part = 'and';
    } else break;
    if (part !== 'and') {
      used = k - i + 1;
      last = part;
    }
    prev = part;
  }
  if (used === 0 || last === null) return null;
  return { value: total + current, used, last };
}

/** "first", "twenty first", "thirtieth": an ordinal from words[i..], or null. */
function ordinal(ws: readonly Word[], i: number, joined: (a: number) => boolean): { value: number; used: number } | null {
  const w = ws[i]!.lower;
  if (ORDINAL_UNITS.has(w)) return { value: ORDINAL_UNITS.get(w)!, used: 1 };
  if (ORDINAL_TENS.has(w)) return { value: ORDINAL_TENS.get(w)!, used: 1 };
  const next = ws[i + 1]?.lower;
  if (TENS.has(w) && next !== undefined && joined(i + 1) && ORDINAL_UNITS.has(next) && ORDINAL_UNITS.get(next)! < 10) {
    return { value: TENS.get(w)! + ORDINAL_UNITS.get(next)!, used: 2 };
  }
  return null;
}

function suffix(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  if (!teen && n % 10 === 1) return 'st';
  if (!teen && n % 10 === 2) return 'nd';
  if (!teen && n % 10 === 3) return 'rd';
  return 'th';
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


/**
 * Rewrites spoken numbers as digits: "twenty two" → "22", "the third of May" → "the 3rd of May",
 * "nineteen ninety five" → "1995", "double five" → "55", "oh" next to a digit → "0", "plus" before one → "+".
 */
export function spokenToDigits(original: string): DigitText {
  const ws = words(original);
  const joined = (k: number) => /^[\s-]+$/.test(original.slice(ws[k - 1]!.end, ws[k]!.start));
  let text = '';
  const from: [number, number][] = [];
  let copied = 0;
  const put = (s: string, start: number, end: number) => {
    for (let c = copied; c < start; c++) {
      text += original[c];
      from.push([c, c + 1]);
    }
    for (const ch of s) {
      text += ch;
      from.push([start, end]);
    }
    copied = end;
  };
  const isDigitWord = (k: number) => ws[k] !== undefined && UNITS.has(ws[k]!.lower);
  for (let i = 0; i < ws.length; ) {
    const w = ws[i]!;
    const nextJoined = i + 1 < ws.length && joined(i + 1);
    if ((w.lower === 'double' || w.lower === 'triple') && nextJoined && isDigitWord(i + 1)) {
      const d = String(UNITS.get(ws[i + 1]!.lower)!);
      put(d.repeat(w.lower === 'double' ? 2 : 3), w.start, ws[i + 1]!.end);
      i += 2;
      continue;
    }
    if (w.lower === 'plus' && nextJoined && isDigitWord(i + 1)) {
      put('+', w.start, w.end);
      i += 1;
      continue;
    }
    if (w.lower === 'oh' && ((i > 0 && joined(i) && isDigitWord(i - 1)) || (nextJoined && isDigitWord(i + 1)))) {
      put('0', w.start, w.end);
      i += 1;
      continue;
    }
    const ord = ordinal(ws, i, joined);
    if (ord) {
      put(`${ord.value}${suffix(ord.value)}`, w.start, ws[i + ord.used - 1]!.end);
      i += ord.used;
      continue;
    }
    const card = cardinal(ws, i, joined);
    if (!card) {
      i += 1;
      continue;
    }
    let value = card.value;
    let used = card.used;
    // "nineteen ninety five", "twenty twenty four", "nineteen oh five": a year said in pairs.
    if ((value === 19 || value === 20) && card.last !== 'hundred' && i + used < ws.length && joined(i + used)) {
      const k = i + used;
      const oh = ws[k]!.lower === 'oh' && k + 1 < ws.length && joined(k + 1) && isDigitWord(k + 1);
      const pair = oh ? { value: UNITS.get(ws[k + 1]!.lower)!, used: 2 } : cardinal(ws, k, joined);
      if (pair && pair.value >= (oh ? 1 : 10) && pair.value <= 99) {
        value = value * 100 + pair.value;
        used += pair.used;
      }
    }
    put(String(value), w.start, ws[i + used - 1]!.end);
    i += used;
  }
  put('', original.length, original.length);
  return { text, from };
}
