// Makes the audio fixtures in tests/fixtures/audio from fixtures.json: espeak-ng speaks each line
// (in the list's voice, or the fixture's own: a German visitor in German), or a line is cut from
// a recording of a person that a Debian package ships (pocketsphinx-testdata), sox resamples it
// and makes the noise bursts, and this script trims every clip to its sound, joins the clips with
// exact silences, writes the WAVs, then measures and checks them and finds where each word lies
// (scripts/fixture-word-times.ts). Run it through
// scripts/make-audio-fixtures.sh, with fixture names to make only those; the same list and tools
// give the same bytes.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeWav } from '../src/voice/wav.ts';
import { wordTimes } from './fixture-word-times.ts';
import { AUDIO_FIXTURES_DIR, FIXTURE_NAMES, type FixtureLine, type FixtureManifest, type FixtureSpan } from '../tests/support/audio-fixtures.ts';

/**
 * A person's recording, cut into parts at word boundaries: `file` under `recordings` (a WAV, or
 * raw 16 kHz 16-bit mono), `spans` the stretch of each part in seconds (from a word's start to a
 * word's end, as pocketsphinx_continuous -time yes gives them), `parts` what each part says.
 */
interface RecordedSpec {
  recorded: string;
  spans: [number, number][];
  parts: string[];
  pause: number;
}

type LineSpec = { after: number } & ({ say: string } | { parts: string[]; pause: number } | RecordedSpec | { noise: number });

interface FixtureSpec {
  name: string;
  /** espeak-ng's voice for this fixture's lines, when not the list's */
  voice?: string;
  lead: number;
  lines: LineSpec[];
}

interface FixtureList {
  voice: string;
  speed: number;
  amplitude: number;
  speechPeakDb: number;
  noisePeakDb: number;
  sampleRate: number;
  /** a sample louder than this (full scale 1) is sound */
  threshold: number;
  /** the folder of the recordings of people that `recorded` lines are cut from */
  recordings: string;
  fixtures: FixtureSpec[];
}

const list = JSON.parse(readFileSync(`${AUDIO_FIXTURES_DIR}fixtures.json`, 'utf8')) as FixtureList;
const rate = list.sampleRate;
const loud = Math.round(list.threshold * 0x8000);
const work = mkdtempSync(join(tmpdir(), 'audio-fixtures-'));
// -D: no dither, -R: a fixed seed for the noise generator, so a rerun writes the same bytes.
const rawOut = ['-t', 'raw', '-r', String(rate), '-e', 'signed', '-b', '16', '-c', '1'];

function int16(bytes: Buffer): Int16Array {
  return new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/** The part of a clip from its first to its last sample above the threshold. */
function trimmed(clip: Int16Array, what: string): Int16Array {
  const first = clip.findIndex((s) => Math.abs(s) > loud);
  const last = clip.findLastIndex((s) => Math.abs(s) > loud);
  if (first < 0) throw new Error(`no sound in "${what}"`);
  return clip.slice(first, last + 1);
}

function speak(text: string, voice: string): Int16Array {
  const wav = join(work, 'clip.wav');
  execFileSync('espeak-ng', ['-v', voice, '-s', String(list.speed), '-a', String(list.amplitude), '-w', wav, text]);
  const raw = execFileSync('sox', ['-D', '-R', wav, ...rawOut, '-', 'gain', '-n', String(list.speechPeakDb)], { maxBuffer: 1 << 26 });
  return trimmed(int16(raw), text);
}

/** One part of a person's recording, from `start` to `end` seconds, its peak set like espeak-ng's and its edges faded (5 ms). */
function cut(file: string, start: number, end: number): Int16Array {
  const path = join(list.recordings, file);
  const input = file.endsWith('.raw') ? ['-t', 'raw', '-r', '16000', '-e', 'signed', '-b', '16', '-c', '1', path] : [path];
  const raw = execFileSync('sox', ['-D', '-R', ...input, ...rawOut, '-', 'trim', String(start), `=${end}`, 'fade', 't', '0.005', '0', '0.005', 'gain', '-n', String(list.speechPeakDb)], { maxBuffer: 1 << 26 });
  return trimmed(int16(raw), `${file} ${start}-${end} s`);
}

/** A short burst of band-limited pink noise with a sharp attack and a quick decay, like a cough. */
function noise(seconds: number): Int16Array {
  const raw = execFileSync('sox', [
    '-D', '-R', '-n', ...rawOut, '-',
    'synth', String(seconds), 'pinknoise',
    'sinc', '300-3500',
    'fade', 'q', '0.003', String(seconds), String(Math.min(0.04, seconds / 2)),
    'gain', '-n', String(list.noisePeakDb),
  ]);
  return trimmed(int16(raw), `${seconds} s of noise`);
}

const samplesOf = (seconds: number) => Math.round(seconds * rate);
const ms = (samples: number) => Math.round((samples / rate) * 1000);

/** A stretch of the planned file: the clips of one line, with where each was placed. */
interface Placed {
  text: string;
  kind: FixtureLine['kind'];
  parts: { at: number; length: number }[];
  /** what each part says, for a line spoken in parts */
  said?: string[];
  after: number;
}

function build(spec: FixtureSpec): { samples: Int16Array; placed: Placed[] } {
  const voice = spec.voice ?? list.voice;
  const chunks: Int16Array[] = [new Int16Array(samplesOf(spec.lead))];
  let at = chunks[0]!.length;
  const placed: Placed[] = [];
  const put = (clip: Int16Array) => {
    chunks.push(clip);
    const where = { at, length: clip.length };
    at += clip.length;
    return where;
  };
  const silence = (seconds: number) => put(new Int16Array(samplesOf(seconds)));
  for (const line of spec.lines) {
    const parts: Placed['parts'] = [];
    let text = '';
    let kind: FixtureLine['kind'] = 'speech';
    if ('say' in line) {
      text = line.say;
      parts.push(put(speak(line.say, voice)));
    } else if ('recorded' in line) {
      text = line.parts.join(' ');
      line.spans.forEach(([start, end], i) => {
        if (i > 0) silence(line.pause);
        parts.push(put(cut(line.recorded, start, end)));
      });
    } else if ('parts' in line) {
      text = line.parts.join(' ');
      line.parts.forEach((part, i) => {
        if (i > 0) silence(line.pause);
        parts.push(put(speak(part, voice)));
      });
    } else {
      kind = 'noise';
      parts.push(put(noise(line.noise)));
    }
    silence(line.after);
    placed.push({ text, kind, parts, ...('parts' in line ? { said: line.parts } : {}), after: line.after });
  }
  const samples = new Int16Array(at);
  let offset = 0;
  for (const chunk of chunks) {
    samples.set(chunk, offset);
    offset += chunk.length;
  }
  return { samples, placed };
}

/** First and last sample above the threshold in [from, to), in samples. */
function soundIn(samples: Float32Array, from: number, to: number): { first: number; last: number } {
  let first = -1;
  let last = -1;
  for (let i = from; i < to; i++) {
    if (Math.abs(samples[i]!) > list.threshold) {
      if (first < 0) first = i;
      last = i;
    }
  }
  if (first < 0) throw new Error(`no sound between ${ms(from)} and ${ms(to)} ms`);
  return { first, last };
}

/**
 * Measures every line in the written file. Each clip is looked for between the end of the clip
 * before it and the start of the clip after it, so the measure comes from the audio itself.
 */
function measure(file: string, placed: Placed[]): { sampleRate: number; length: number; lines: FixtureLine[] } {
  const wav = decodeWav(readFileSync(file));
  const clips = placed.flatMap((line) => line.parts);
  const spans = clips.map((clip, i) => {
    const from = i === 0 ? 0 : clips[i - 1]!.at + clips[i - 1]!.length;
    const to = clips[i + 1]?.at ?? wav.samples.length;
    return soundIn(wav.samples, from, to);
  });
  let next = 0;
  const lines = placed.map((line): FixtureLine => {
    const own = spans.slice(next, next + line.parts.length);
    next += line.parts.length;
    const measured: FixtureLine = { text: line.text, startMs: ms(own[0]!.first), endMs: ms(own.at(-1)!.last + 1), kind: line.kind };
    if (own.length > 1) {
      measured.pauses = own.slice(1).map((part, i): FixtureSpan => ({ startMs: ms(own[i]!.last + 1), endMs: ms(part.first) }));
      if (line.said) measured.parts = line.said;
    }
    return measured;
  });
  return { sampleRate: wav.sampleRate, length: wav.samples.length, lines };
}

function check(name: string, spec: FixtureSpec, manifest: FixtureManifest, wavPath: string): void {
  const fail = (why: string) => {
    throw new Error(`${name}: ${why}`);
  };
  const info = (flag: string) => execFileSync('soxi', [flag, wavPath], { encoding: 'utf8' }).trim();
  if (info('-r') !== String(rate) || info('-c') !== '1' || info('-b') !== '16' || info('-e') !== 'Signed Integer PCM') {
    fail(`soxi reports ${info('-r')} Hz, ${info('-c')} channels, ${info('-b')} bits, ${info('-e')}`);
  }
  if (Math.abs(Number(info('-D')) * 1000 - manifest.durationMs) > 1) fail(`soxi duration ${info('-D')} s, manifest ${manifest.durationMs} ms`);
  if (Math.abs(manifest.lines[0]!.startMs - spec.lead * 1000) > 2) fail(`first sound at ${manifest.lines[0]!.startMs} ms, lead ${spec.lead} s`);
  manifest.lines.forEach((line, i) => {
    const plan = spec.lines[i]!;
    const nextStart = manifest.lines[i + 1]?.startMs ?? manifest.durationMs;
    if (line.endMs <= line.startMs) fail(`line ${i + 1} ends before it starts`);
    if (Math.abs(nextStart - line.endMs - plan.after * 1000) > 2) fail(`line ${i + 1} is followed by ${nextStart - line.endMs} ms, not ${plan.after} s`);
    if ('noise' in plan && Math.abs(line.endMs - line.startMs - plan.noise * 1000) > 20) {
      fail(`noise burst ${i + 1} lasts ${line.endMs - line.startMs} ms, not ${plan.noise * 1000}`);
    }
    if ('pause' in plan) {
      if (line.pauses?.length !== plan.parts.length - 1) fail(`line ${i + 1} has ${line.pauses?.length ?? 0} pauses`);
      if ('spans' in plan && plan.spans.length !== plan.parts.length) fail(`line ${i + 1} has ${plan.spans.length} spans for ${plan.parts.length} parts`);
      for (const p of line.pauses ?? []) if (Math.abs(p.endMs - p.startMs - plan.pause * 1000) > 50) fail(`pause of ${p.endMs - p.startMs} ms`);
    }
  });
}

function make(spec: FixtureSpec): FixtureManifest {
  const { samples, placed } = build(spec);
  const raw = join(work, `${spec.name}.raw`);
  const wavPath = `${AUDIO_FIXTURES_DIR}${spec.name}.wav`;
  writeFileSync(raw, new Uint8Array(samples.buffer));
  execFileSync('sox', ['-D', '-R', ...rawOut, raw, wavPath]);
  const measured = measure(wavPath, placed);
  // The recordings of people are English (CMU's test data), as espeak-ng's voice is unless the fixture names another.
  const english = (spec.voice ?? list.voice).startsWith('en');
  const lines = measured.lines.map((line) => (line.kind === 'speech' ? { ...line, ...wordTimes(wavPath, work, line, english) } : line));
  const manifest: FixtureManifest = { file: `${spec.name}.wav`, sampleRate: measured.sampleRate, durationMs: ms(measured.length), lines };
  check(spec.name, spec, manifest, wavPath);
  writeFileSync(`${AUDIO_FIXTURES_DIR}${spec.name}.json`, `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

try {
  const names = list.fixtures.map((f) => f.name);
  if (names.join() !== FIXTURE_NAMES.join()) throw new Error(`fixtures.json names ${names.join(', ')}; tests/support/audio-fixtures.ts knows ${FIXTURE_NAMES.join(', ')}`);
  // Fixture names on the command line: only those are made (the others keep their bytes).
  const asked = process.argv.slice(2);
  const unknown = asked.filter((name) => !names.includes(name));
  if (unknown.length > 0) throw new Error(`no fixture named ${unknown.join(', ')} in fixtures.json`);
  for (const spec of list.fixtures.filter((f) => asked.length === 0 || asked.includes(f.name))) {
    const manifest = make(spec);
    const lines = manifest.lines.map((l) => `${l.startMs}-${l.endMs}`).join(' ');
    console.log(`${spec.name}.wav  ${(manifest.durationMs / 1000).toFixed(2)} s  ${lines}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
