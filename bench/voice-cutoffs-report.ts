// What `npm run bench:voice` prints for the false cut-offs (bench/voice-cutoffs.ts): per set of
// lines, how many were split into two turns under today's rule and under the words-shaped one,
// and the end of speech under each.

import { summarize, textTable } from './stats.ts';
import { CUTOFF_SETS, RULES, type Rule } from './voice-cutoffs.ts';
import type { Findings } from './voice-findings.ts';
import { TYPICAL_CLOUD } from './voice-latency.ts';

function ms(x: number): string {
  return Math.abs(x) < 10 ? x.toFixed(1) : x.toFixed(0);
}

/** "split / lines" of a figure of 0-or-1 samples. */
function split(samples: readonly number[]): string {
  return samples.length === 0 ? '-' : `${samples.reduce((n, x) => n + x, 0)} / ${samples.length}`;
}

function p50(samples: readonly number[]): string {
  const s = summarize(samples);
  return s ? ms(s.p50) : '-';
}

/** The p50 and max of a count, as whole numbers. */
function counts(samples: readonly number[]): string {
  const s = summarize(samples);
  return s ? `p50 ${s.p50}, max ${s.max}` : '-';
}

export function cutoffReport(f: Findings): void {
  const row = (label: string, key: (rule: Rule) => string, eos?: (rule: Rule) => string) => [
    label,
    ...RULES.map((rule) => split(f.of(key(rule)))),
    ...RULES.map((rule) => (eos ? p50(f.of(eos(rule))) : '')),
  ];
  const rows = [
    ...CUTOFF_SETS.filter((s) => s.fixture !== 'bench').map((s) => row(`  ${s.fixture} (${s.language})`, (rule) => `cut.${rule}.${s.fixture}.split`)),
    row('paused mid-thought, all', (rule) => `cut.${rule}.paused.split`, (rule) => `cut.${rule}.paused.eos`),
    row('control: paused where the words look finished', (rule) => `cut.${rule}.control.split`, (rule) => `cut.${rule}.control.eos`),
    row('free answers (bench fixture, no pause)', (rule) => `cut.${rule}.free.split`, (rule) => `cut.${rule}.free.eos`),
  ];
  console.log("\n8. False cut-offs: lines with a pause inside, streamed, at a step that asks for a name: split into two turns, today's rule beside the words");
  console.log(textTable(['', 'split: today', 'split: words', 'end of speech p50 ms: today', 'words'], rows));
  for (const line of [
    `today's rule: turn_taking.words false (the silence, 350 ms at this step). words: the words of each pause read as they come back`,
    `  (recognition ${TYPICAL_CLOUD.sttFinalMs} ms after each commit, the "typical cloud"). Pauses of 0.5 to 0.8 s; end of speech: the line's true end to its`,
    `  last turn's end (vk:speech-end). Lines: espeak-ng in five languages (tests/fixtures/audio/paused-*), people from pocketsphinx-testdata.`,
    `the words of a pause came back (vk:pause-words) after p50 ${p50(f.of('cut.words.words-at'))} ms of silence (today's rule: ${p50(f.of('cut.today.words-at'))}); while they are`,
    `  on their way the turn is held (up to 1200 ms): its transcript could come no sooner anyway, but the end of speech is marked later.`,
    `commits a line took under the words (each pause's look at the turn so far, the turn sent again whole when the visitor went on): ${counts(f.of('cut.words.commits'))};`,
    `  stretches whose words made the turn: ${counts(f.of('cut.words.stretches'))}; of the cuts between those inside the English lines, whose words pocketsphinx`,
    `  aligned, ${split(f.of('cut.words.word-cuts'))} fell inside a word (more than 30 ms from its edges), a word a real recogniser hears in halves.`,
    `goal: at most 1 in 20 paused lines split with the words, and no free answer's end of speech p50 above today's 388 ms.`,
    ...f.notesOf('cutoffs'),
  ])
    console.log(line);
}
