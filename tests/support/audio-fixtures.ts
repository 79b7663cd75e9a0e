// The audio fixtures in tests/fixtures/audio: espeak-ng speech, and one recording of a person,
// that Chromium plays as its microphone. Reads a fixture's manifest (where each sound truly
// starts and ends) and its WAV path.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { decodeWav } from '../../src/voice/wav.ts';
import { HeardRecording, type HeardWord } from '../servers/heard-recording.ts';

/** The fixtures that tests/fixtures/audio/fixtures.json defines. */
export const FIXTURE_NAMES = [
  'onboarding', 'clinic', 'visitor', 'digits-pause', 'noise', 'barge-in', 'clinic-de', 'onboarding-de', 'bench',
  'phone-pause', 'paused-en', 'paused-de', 'paused-fr', 'paused-es', 'paused-ar', 'paused-people',
] as const;

/**
 * Recordings of people, kept as they are (tests/fixtures/audio/README.md says where each is from):
 * real speech has hesitations, breaths and trailing-off ends that synthetic voices lack.
 */
export const RECORDED_NAMES = ['human'] as const;

export type FixtureName = (typeof FIXTURE_NAMES)[number] | (typeof RECORDED_NAMES)[number];

/** A stretch of the file in milliseconds from its first sample. */
export interface FixtureSpan {
  startMs: number;
  endMs: number;
}

/** One line: measured from the samples, from its first to its last sample above the threshold. */
export interface FixtureLine extends FixtureSpan {
  /** what espeak-ng said; "" for noise */
  text: string;
  kind: 'speech' | 'noise';
  /** silences inside the line (a line spoken in parts) */
  pauses?: FixtureSpan[];
  /** what each part of a line spoken in parts says (`text` is them joined) */
  parts?: string[];
  /** each word of `text` and where it lies in the file (a speech line of a made fixture) */
  words?: FixtureWord[];
  /** how `words` were placed: by pocketsphinx's alignment, or spread over each part by letters */
  timed?: 'aligned' | 'letters';
}

/** One word of a line, as the line's text spells it, and where it lies in the file. */
export type FixtureWord = HeardWord;

/** What `<name>.json` beside each WAV holds. */
export interface FixtureManifest {
  /** the WAV's file name, beside the manifest */
  file: string;
  sampleRate: number;
  durationMs: number;
  lines: FixtureLine[];
}

/** A manifest with the absolute path of its WAV. */
export interface AudioFixture extends FixtureManifest {
  name: FixtureName;
  path: string;
}

/** The folder that holds the fixtures (absolute, ending in a slash). */
export const AUDIO_FIXTURES_DIR = fileURLToPath(new URL('../fixtures/audio/', import.meta.url));

/** Reads one fixture's manifest. */
export function loadFixture(name: FixtureName): AudioFixture {
  const manifest = JSON.parse(readFileSync(`${AUDIO_FIXTURES_DIR}${name}.json`, 'utf8')) as FixtureManifest;
  return { ...manifest, name, path: `${AUDIO_FIXTURES_DIR}${manifest.file}` };
}

/** Chromium's flag that plays the fixture once as the microphone, then silence. */
export function fakeMicrophoneFlag(fixture: AudioFixture): string {
  return `--use-file-for-fake-audio-capture=${fixture.path}%noloop`;
}

/**
 * A speech line's parts and the stretch of sound each fills; a line without parts (a person's
 * recording with pauses of its own) is one part, pauses and all.
 */
export function partSpans(line: FixtureLine): { text: string; span: FixtureSpan }[] {
  if (!line.parts) return [{ text: line.text, span: { startMs: line.startMs, endMs: line.endMs } }];
  const texts = line.parts;
  const pauses = line.pauses ?? [];
  if (texts.length !== pauses.length + 1) throw new Error(`"${line.text}": ${texts.length} parts for ${pauses.length} pauses`);
  return texts.map((text, i) => ({ text, span: { startMs: i === 0 ? line.startMs : pauses[i - 1]!.endMs, endMs: i === pauses.length ? line.endMs : pauses[i]!.startMs } }));
}

/** `words` spread over `span` by their letters, as if every letter took as long to say. */
export function estimatePart(words: readonly string[], span: FixtureSpan): FixtureWord[] {
  const weight = (w: string) => Math.max(1, [...w.replace(/[^\p{L}\p{N}]/gu, '')].length) + 1;
  const total = words.reduce((sum, w) => sum + weight(w), 0);
  let at = 0;
  return words.map((text) => {
    const startMs = Math.round(span.startMs + ((span.endMs - span.startMs) * at) / total);
    at += weight(text);
    return { text, startMs, endMs: Math.round(span.startMs + ((span.endMs - span.startMs) * at) / total) };
  });
}

/** The line's words and where each lies: the manifest's, or spread by letters over its parts. */
export function lineWords(line: FixtureLine): FixtureWord[] {
  return line.words ?? partSpans(line).flatMap(({ text, span }) => estimatePart(text.split(/\s+/).filter(Boolean), span));
}

/**
 * The fixture as a transcription double hears it (`fakes.stt.hear`): each request or commit is
 * answered with the words of the fixture's spoken lines that its audio holds, by the word times
 * in the manifest (spread by letters over each part where it has none).
 */
export function recordingOf(fixture: AudioFixture): HeardRecording {
  const wav = fixtureAudio(fixture.path);
  return new HeardRecording(wav.samples, wav.sampleRate, fixture.lines.filter((l) => l.kind === 'speech').flatMap(lineWords));
}

const decoded = new Map<string, { samples: Float32Array; sampleRate: number }>();

/** The samples of the fixture WAV at `path` (-1 to 1), decoded once per process: tests cut many stretches from one. */
export function fixtureAudio(path: string): { samples: Float32Array; sampleRate: number } {
  let wav = decoded.get(path);
  if (!wav) decoded.set(path, (wav = decodeWav(readFileSync(path))));
  return wav;
}
