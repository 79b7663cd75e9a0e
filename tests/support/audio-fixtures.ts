// The audio fixtures in tests/fixtures/audio: espeak-ng speech, and one recording of a person,
// that Chromium plays as its microphone. Reads a fixture's manifest (where each sound truly
// starts and ends) and its WAV path.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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
}

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
