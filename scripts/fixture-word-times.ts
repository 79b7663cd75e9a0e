// Where each word of a fixture's line lies in its WAV, for the transcription doubles (a commit is
// answered with the words its audio holds: tests/servers/heard-recording.ts). An English line is
// aligned by pocketsphinx_continuous (Debian's pocketsphinx and pocketsphinx-en-us), given a
// grammar of exactly the part's words, so it only has to say where each one is; a part in
// another language, or with a word its dictionary lacks, has its words spread over the part's
// sound by their letters (estimatePart in tests/support/audio-fixtures.ts).

import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { estimatePart, partSpans, type FixtureLine, type FixtureWord } from '../tests/support/audio-fixtures.ts';

const DICTIONARY = '/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict';
/** Silence kept either side of a part when it is cut out for the aligner (it wants some around speech), tried in turn. */
const MARGINS_MS = [100, 250, 400, 600];
/**
 * Beams far wider than pocketsphinx's defaults: with a grammar of only the part's words, its
 * default pruning loses the one path through some of espeak-ng's lines and returns nothing.
 */
const WIDE_BEAMS = ['-beam', '1e-80', '-wbeam', '1e-60', '-pbeam', '1e-80'];

let known: Set<string> | null = null;

/** The words pocketsphinx's English dictionary knows (its alternates, "read(2)", folded in). */
function dictionary(): Set<string> {
  known ??= new Set(
    readFileSync(DICTIONARY, 'utf8')
      .split('\n')
      .map((l) => l.split(' ')[0]!.replace(/\(\d+\)$/, ''))
      .filter(Boolean),
  );
  return known;
}

/** A word as the dictionary spells it: lower case, no punctuation but the apostrophe. */
function spelled(word: string): string {
  return word.toLowerCase().replace(/[^a-z']/g, '');
}

/**
 * The part's words aligned in `wav` (16 kHz mono), file times in ms, or null when pocketsphinx
 * cannot say (a word it does not know, or a result that is not the part's words in order).
 */
function alignPart(wav: string, work: string, words: readonly string[], span: { startMs: number; endMs: number }): FixtureWord[] | null {
  const grammarWords = words.map(spelled);
  if (grammarWords.some((w) => w === '' || !dictionary().has(w))) return null;
  const grammar = join(work, 'part.gram');
  writeFileSync(grammar, `#JSGF V1.0;\ngrammar part;\npublic <part> = ${grammarWords.join(' ')};\n`);
  // Where the aligner finds no way through with one margin, another often has one.
  for (const margin of MARGINS_MS) {
    const found = alignClip(wav, work, grammar, grammarWords, words, span, margin);
    if (found) return found;
  }
  if (process.env['WORD_TIMES_DEBUG']) console.error(`no alignment for "${words.join(' ')}"`);
  return null;
}

function alignClip(wav: string, work: string, grammar: string, grammarWords: readonly string[], words: readonly string[], span: { startMs: number; endMs: number }, margin: number): FixtureWord[] | null {
  const from = Math.max(0, span.startMs - margin);
  const clip = join(work, 'part.wav');
  execFileSync('sox', ['-D', wav, clip, 'trim', `${from / 1000}`, `=${(span.endMs + margin) / 1000}`]);
  const out = execFileSync('pocketsphinx_continuous', ['-infile', clip, '-jsgf', grammar, '-time', 'yes', '-logfn', '/dev/null', ...WIDE_BEAMS], { encoding: 'utf8' });
  const timed = out
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    // A word's line is "word start end confidence"; the first line, the words heard, is not one.
    .filter((f) => f.length === 4 && /^\d+\.\d+$/.test(f[1]!) && /^\d+\.\d+$/.test(f[2]!) && !f[0]!.startsWith('<') && f[0] !== '(NULL)')
    .map(([word, start, end]) => ({ word: word!.replace(/\(\d+\)$/, ''), startMs: from + Math.round(Number(start) * 1000), endMs: from + Math.round(Number(end) * 1000) }));
  if (timed.length !== words.length || timed.some((t, i) => t.word !== grammarWords[i])) return null;
  return timed.map((t, i) => ({ text: words[i]!, startMs: Math.max(span.startMs, t.startMs), endMs: Math.min(span.endMs, t.endMs + 10) }));
}

/**
 * Each word of a speech line and where it lies in `wav`: aligned part by part when the line is
 * English, spread by letters where it cannot be; `timed` says which.
 */
export function wordTimes(wav: string, work: string, line: FixtureLine, english: boolean): Pick<FixtureLine, 'words' | 'timed'> {
  let aligned = english;
  const words = partSpans(line).flatMap(({ text, span }) => {
    const parts = text.split(/\s+/).filter(Boolean);
    const found = english ? alignPart(wav, work, parts, span) : null;
    if (found === null) aligned = false;
    return found ?? estimatePart(parts, span);
  });
  return { words, timed: aligned ? 'aligned' : 'letters' };
}
