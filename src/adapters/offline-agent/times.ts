// Times of day as people say or type them: "2 PM", "10:30", "14h30" and "ten thirty" in any
// language, and the visit's language's own ways ("half past ten", "halb elf", "dix heures et
// demie", "las diez y media"; the readers are in each language's file).

import { ENGLISH } from './languages/en.ts';
import { perLanguage, type Language } from './languages/language.ts';
import { foldInPlace } from './languages/patterns.ts';
import { originalSpan, spokenToDigits } from './numbers.ts';
import type { Found } from './text.ts';

/** A time of day as said ("2:30 PM") and on a 24-hour clock ("14:30"). */
export interface SpokenTime {
  spoken: string;
  hhmm: string;
}

const AM_PM = /\b(\d{1,2})(?:[:.\s](\d{2}))?\s*([ap])\.?\s?m\b\.?/i;
const CLOCK = /\b(\d{1,2})[:h](\d{2})\b/i;
const SAID_PAIR = /\b(\d{1,2}) (\d{2})\b/;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** A time on a clock without AM or PM: "10:30" both ways. */
function clockTime(h: number, min: number): SpokenTime {
  return { spoken: `${h}:${pad(min)}`, hhmm: `${pad(h)}:${pad(min)}` };
}

/** Reads one way of saying a time from the digit text; `said` gives the original words of a match. */
type TimeReader = (t: string, said: (m: RegExpExecArray) => string) => { m: RegExpExecArray; value: SpokenTime } | undefined;

/** The ways of saying a time that every language shares. */
const SHARED: readonly TimeReader[] = [
  (t) => {
    const m = AM_PM.exec(t);
    const [h, min, pm] = [Number(m?.[1]), m?.[2] === undefined ? 0 : Number(m[2]), m?.[3]?.toLowerCase() === 'p'];
    if (!m || h < 1 || h > 12 || min > 59) return undefined;
    const spoken = `${h}${m[2] === undefined ? '' : `:${pad(min)}`} ${pm ? 'PM' : 'AM'}`;
    return { m, value: { spoken, hhmm: `${pad((h % 12) + (pm ? 12 : 0))}:${pad(min)}` } };
  },
  (t) => {
    const m = CLOCK.exec(t);
    if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return undefined;
    const hhmm = `${pad(Number(m[1]))}:${m[2]}`;
    return { m, value: { spoken: hhmm, hhmm } };
  },
  // "ten thirty": both numbers said in words (typed "10 30" could be anything)
  (t, said) => {
    const m = SAID_PAIR.exec(t);
    const [h, min] = [Number(m?.[1]), Number(m?.[2])];
    if (!m || h < 1 || h > 12 || min < 10 || min > 59 || /\d/.test(said(m))) return undefined;
    return { m, value: clockTime(h, min) };
  },
];

/** The language's own ways, as readers over the folded digit text. */
const ownReaders = perLanguage((lang: Language): TimeReader[] =>
  lang.times.readers.map(([source, read]) => {
    const re = new RegExp(source, 'iu');
    return (t: string) => {
      const m = re.exec(foldInPlace(t));
      const time = m ? read(m) : undefined;
      if (!m || !time || time.h < 0 || time.h > 23 || time.min < 0 || time.min > 59) return undefined;
      return { m, value: time.spoken === undefined ? clockTime(time.h, time.min) : { spoken: time.spoken, hhmm: `${pad(time.h)}:${pad(time.min)}` } };
    };
  }),
);

/** The first time of day in the text, or undefined. */
export function extractTime(text: string, lang: Language = ENGLISH): Found<SpokenTime> | undefined {
  const digits = spokenToDigits(text, lang);
  const said = (m: RegExpExecArray) => text.slice(...originalSpan(digits, m.index, m.index + m[0].length));
  const found = [...SHARED, ...ownReaders(lang)]
    .flatMap((read) => read(digits.text, said) ?? [])
    .sort((a, b) => a.m.index - b.m.index || b.m[0].length - a.m[0].length);
  const first = found[0];
  if (!first) return undefined;
  const [start, end] = originalSpan(digits, first.m.index, first.m.index + first.m[0].length);
  return { value: first.value, start, end };
}
