// The voice benchmark's false cut-offs: lines with a pause inside them (espeak-ng in the kiosk's
// five languages, and people's recordings from Debian's pocketsphinx-testdata, each paused where a
// visitor hesitates), played into the kiosk with streaming recognition at the "typical cloud"
// delay, at a step that asks for a name, under today's rule (turn_taking.words: false: silence
// and the step's fields alone) and under the words-shaped one. Per line: how many turns it
// became, and its end of speech (true end to the turn's end). The bench fixture's ten free
// answers run the same way, for their end of speech under both rules.

import { readFileSync } from 'node:fs';
import { recordingOf, type FixtureLine, type FixtureName } from '../tests/support/audio-fixtures.ts';
import type { FoundStretch } from '../tests/servers/heard-recording.ts';
import type { Findings } from './voice-findings.ts';
import { named, readMarks, untilPageTime } from './voice-marks.ts';
import { clockOf, eachRun } from './voice-scenarios.ts';
import { TYPICAL_CLOUD } from './voice-latency.ts';
import { spokenLines, startVisit } from './voice-visit.ts';

/** The rules compared: today's (the words not read) and the words-shaped one. */
export const RULES = ['today', 'words'] as const;
export type Rule = (typeof RULES)[number];

/** The fixtures played, the visit's language for each, and the lines paused where the words look finished (controls). */
export const CUTOFF_SETS: readonly { fixture: FixtureName; language: string; controls?: readonly number[] }[] = [
  { fixture: 'paused-en', language: 'en-US', controls: [5] },
  { fixture: 'paused-de', language: 'de-DE' },
  { fixture: 'paused-fr', language: 'fr-FR' },
  { fixture: 'paused-es', language: 'es-ES' },
  { fixture: 'paused-ar', language: 'ar' },
  { fixture: 'paused-people', language: 'en-US', controls: [8] },
  { fixture: 'bench', language: 'en-US' },
];

/** The longest a turn may wait (turn_taking's unfinished wait): after it, a line's turns are all in. */
const LONGEST_WAIT_MS = 1200;

/** The bench's free-answer flow in `language`, with the rule's turn_taking. */
function flowFor(language: string, rule: Rule): { flows: Record<string, string>; query: Record<string, string> } {
  const yaml = readFileSync(new URL('flows/free-answer.yaml', import.meta.url), 'utf8').replace(/^language: .*$/m, `language: ${language}`);
  const path = `/bench-flows/free-answer-${language}-${rule}.yaml`;
  return { flows: { [path]: `${yaml}turn_taking: { words: ${rule === 'words'} }\n` }, query: { flow: path } };
}

/** Turns a line became (vk:speech-end between its start and the next line's), and its end of speech (ms). */
function turnsOfLine(ends: readonly number[], from: number, until: number, trueEnd: number): { turns: number; eos: number | null } {
  const mine = ends.filter((at) => at >= from && at < until);
  return { turns: mine.length, eos: mine.length > 0 ? mine.at(-1)! - trueEnd : null };
}

/** A cut closer than this to a word's aligned edge is taken as between words (the aligner's times are not exact). */
const WORD_EDGE_MS = 30;

/**
 * How the kiosk committed a line to recognition: its commits (each pause's look at the turn so
 * far, and the turn sent again whole when the visitor went on), the stretches whose words made the
 * turn (a commit sent again from where it began replaces it), and, where the words were aligned
 * by pocketsphinx, each cut between two of those that fell inside a word (a word a real recogniser
 * would hear in two halves, each with less context; the double, which answers a word by where its
 * middle lies, does not suffer from it, so the bench counts it instead).
 */
function addStretches(findings: Findings, key: string, found: readonly FoundStretch[], line: FixtureLine, untilMs: number): void {
  const mine = found.filter((s) => s.endMs > line.startMs && s.newFromMs < Math.min(untilMs, line.endMs));
  if (mine.length === 0) return;
  const kept = mine.filter((_, i) => !mine[i + 1]?.again);
  findings.add(`${key}.commits`, mine.length);
  findings.add(`${key}.stretches`, kept.length);
  if (line.timed !== 'aligned' || !line.words) return;
  for (const stretch of kept.slice(0, -1)) {
    const inside = line.words.some((w) => stretch.endMs > w.startMs + WORD_EDGE_MS && stretch.endMs < w.endMs - WORD_EDGE_MS);
    findings.add(`${key}.word-cuts`, inside ? 1 : 0);
  }
}

/** 8. The paused lines and the free answers, each fixture under both rules. */
export async function falseCutoffs(runs: number, findings: Findings): Promise<void> {
  for (const set of CUTOFF_SETS) {
    for (const rule of RULES) {
      const env = { STT_MODE: 'realtime' };
      await eachRun(`false cut-offs, ${set.fixture}, ${rule}`, runs, findings, { fixture: set.fixture, ...flowFor(set.language, rule), env }, async (kiosk, label) => {
        const lines = spokenLines(kiosk.fixture);
        kiosk.fakes.realtime.latency({ finalAfterCommitMs: TYPICAL_CLOUD.sttFinalMs });
        kiosk.fakes.llm.script([{ reply: { text: '' } }]);
        // Each commit gets the words its audio holds, by their times in the recording, wherever the kiosk cut.
        const recording = recordingOf(kiosk.fixture!);
        kiosk.fakes.stt.hear(recording);
        const listening = await startVisit(kiosk, findings);
        await untilPageTime(kiosk.page, listening + lines.at(-1)!.endMs + LONGEST_WAIT_MS + 1500);
        const marks = await readMarks(kiosk.page);
        const clock = await clockOf(kiosk.page, marks, lines, findings);
        const ends = named(marks, 'vk:speech-end').map((m) => m.at);
        for (const m of named(marks, 'vk:pause-words')) if (typeof m.detail?.['silenceMs'] === 'number') findings.add(`cut.${rule}.words-at`, m.detail['silenceMs']);
        lines.forEach((line: FixtureLine, i) => {
          const next = lines[i + 1];
          const { turns, eos } = turnsOfLine(ends, clock.fileToPage(line.startMs), next ? clock.fileToPage(next.startMs) : Infinity, clock.fileToPage(line.endMs));
          const kind = set.fixture === 'bench' ? 'free' : set.controls?.includes(i) ? 'control' : 'paused';
          if (turns === 0) {
            findings.fail(`${label}: line ${i + 1} ("${line.text}") was not heard`);
            return;
          }
          findings.add(`cut.${rule}.${kind}.split`, turns > 1 ? 1 : 0);
          if (kind === 'paused') findings.add(`cut.${rule}.${set.fixture}.split`, turns > 1 ? 1 : 0);
          if (eos !== null) findings.add(`cut.${rule}.${kind}.eos`, eos);
          addStretches(findings, `cut.${rule}`, recording.found, line, next?.startMs ?? Infinity);
          if (turns > 1 && rule === 'words') findings.note('cutoffs', `${label}: "${line.parts?.join(' … ') ?? line.text}" became ${turns} turns`);
        });
      });
    }
  }
}
