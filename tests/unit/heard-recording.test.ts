// The transcription double that hears a recording (tests/servers/heard-recording.ts): it finds
// where in the fixture the audio it was sent came from, at another rate and level, and answers
// with the words that lie there, once each, through the official client as through the kiosk.

import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeWav } from '../../src/voice/wav.ts';
import { HeardRecording } from '../servers/heard-recording.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../servers/openai-fakes.ts';
import { FIXTURE_NAMES, lineWords, loadFixture, partSpans, recordingOf } from '../support/audio-fixtures.ts';
import { fixtureSpan24k, REALTIME_RATE } from '../support/realtime-audio.ts';

const people = loadFixture('paused-people');

describe('a recording heard by the transcription double', () => {
  it('finds a stretch where it lies, at 24 kHz and half the level, and answers the words whose middle is in it', () => {
    const heard = recordingOf(people);
    const line = people.lines[5]!; // "he was not an … ill disposed young man"
    const pause = line.pauses![0]!;
    const before = fixtureSpan24k('paused-people', line.startMs - 300, pause.startMs + 200).map((v) => v / 2);
    const found = heard.find(before, REALTIME_RATE)!;
    expect(Math.abs(found.startMs - (line.startMs - 300))).toBeLessThanOrEqual(20);
    expect(found.likeness).toBeGreaterThan(0.9);
    expect(heard.wordsIn(found)).toBe('he was not an');
    expect(heard.transcribe(fixtureSpan24k('paused-people', pause.startMs + 200, line.endMs + 300), REALTIME_RATE)).toBe('ill disposed young man');
  });

  it('gives a word once when two stretches overlap (a turn sent with the audio from before its onset)', () => {
    const heard = recordingOf(people);
    const line = people.lines[2]!; // "two nine three … four zero"
    const words = line.words!;
    expect(heard.transcribe(fixtureSpan24k('paused-people', line.startMs - 300, words[1]!.endMs + 20), REALTIME_RATE)).toBe('two nine');
    expect(heard.transcribe(fixtureSpan24k('paused-people', words[0]!.startMs, line.endMs + 300), REALTIME_RATE)).toBe('three four zero');
  });

  it('answers every word of audio sent again from where the stretch before began (a turn sent whole after the visitor went on)', () => {
    const heard = recordingOf(people);
    const line = people.lines[5]!; // "he was not an … ill disposed young man"
    const pause = line.pauses![0]!;
    expect(heard.transcribe(fixtureSpan24k('paused-people', line.startMs - 300, pause.startMs + 100), REALTIME_RATE)).toBe('he was not an');
    expect(heard.transcribe(fixtureSpan24k('paused-people', line.startMs - 300, line.endMs + 300), REALTIME_RATE)).toBe('he was not an ill disposed young man');
  });

  it('takes a short stretch where it truly comes next, not where a later stretch is about as alike', () => {
    const heard = recordingOf(people);
    const text = people.lines.map((line) => heard.transcribe(fixtureSpan24k('paused-people', line.startMs - 200, line.endMs + 200), REALTIME_RATE));
    expect(text).toEqual(people.lines.map((line) => line.text));
    // Each part alone, in order, as the kiosk's early start commits them.
    const again = recordingOf(people);
    const parts = people.lines.flatMap((line) => partSpans(line).map(({ span }) => again.transcribe(fixtureSpan24k('paused-people', span.startMs - 150, span.endMs + 150), REALTIME_RATE)));
    expect(parts).toEqual(people.lines.flatMap((line) => line.parts ?? [line.text]));
  });

  it('says so when the audio is not from the recording', () => {
    const heard = recordingOf(people);
    const beeps = new Float32Array(REALTIME_RATE).map((_, i) => (Math.floor(i / 2400) % 2 === 0 ? 0.3 * Math.sin(i / 3) : 0));
    expect(heard.transcribe(beeps, REALTIME_RATE)).toBe('[audio of 1000 ms not found in the recording]');
  });

  it('spreads the words of a line without word times over its parts by their letters', () => {
    const words = lineWords({ text: 'ja bitte', startMs: 1000, endMs: 1900, kind: 'speech' });
    expect(words).toEqual([
      { text: 'ja', startMs: 1000, endMs: 1300 },
      { text: 'bitte', startMs: 1300, endMs: 1900 },
    ]);
    expect(new HeardRecording(new Float32Array(16000), 16000, words).words).toHaveLength(2);
  });
});

describe("the fixtures' word times", () => {
  it('spell every spoken line in order, each word inside its line and after the one before, out of the pauses', () => {
    for (const name of FIXTURE_NAMES) {
      for (const line of loadFixture(name).lines.filter((l) => l.kind === 'speech')) {
        const words = line.words!;
        expect(words.map((w) => w.text).join(' '), `${name}: "${line.text}"`).toBe(line.text);
        expect(line.timed).toMatch(/^(aligned|letters)$/);
        words.forEach((w, i) => {
          expect(w.startMs).toBeGreaterThanOrEqual(i === 0 ? line.startMs : words[i - 1]!.endMs);
          expect(w.endMs).toBeGreaterThan(w.startMs);
          expect(w.endMs).toBeLessThanOrEqual(line.endMs);
          for (const p of line.pauses ?? []) expect((w.startMs + w.endMs) / 2 < p.startMs || (w.startMs + w.endMs) / 2 > p.endMs, `${w.text} in a pause`).toBe(true);
        });
      }
    }
  });
});

describe('the transcription endpoint hearing a recording, through the openai package', () => {
  let fakes: FakeOpenAI;
  beforeAll(async () => {
    fakes = await startFakeOpenAI();
  });
  afterAll(() => fakes.close());

  it('answers an uploaded turn with the words it holds, and a turn of another recording with a note', async () => {
    const client = new OpenAI({ apiKey: 'test', baseURL: fakes.baseURL });
    fakes.stt.hear(recordingOf(loadFixture('paused-en')));
    const en = loadFixture('paused-en');
    const line = en.lines[1]!; // "my phone number is five five five … zero one nine nine"
    const wav = (samples: Float32Array) => toFile(Buffer.from(encodeWav(samples, REALTIME_RATE)), 'turn.wav');
    const answer = await client.audio.transcriptions.create({ file: await wav(fixtureSpan24k('paused-en', line.startMs - 300, line.endMs + 300)), model: 'w' });
    expect(answer.text).toBe(line.text);
    const other = await client.audio.transcriptions.create({ file: await wav(fixtureSpan24k('paused-de', 2000, 4200)), model: 'w' });
    expect(other.text).toMatch(/^\[audio of \d+ ms not found in the recording\]$/);
    fakes.stt.hear(null);
    fakes.stt.script([{ text: 'scripted again' }]);
    expect((await client.audio.transcriptions.create({ file: await wav(fixtureSpan24k('paused-en', line.startMs, line.endMs)), model: 'w' })).text).toBe('scripted again');
  });
});
