// Turn-taking on recorded speech (the espeak-ng fixtures), scored by the real Silero v5 model:
// one answer per spoken line, a 0.4 s pause inside dictated digits kept in one turn, short
// noises dropped, and the end of each answer decided soon after it truly ended.

import { describe, expect, it } from 'vitest';
import { DEFAULT_DETECTOR, DEFAULT_TURN_TAKING, TurnTaker, type Expectation, type TurnEvent } from '../../src/voice/turn-taking.ts';
import { loadFixture, type FixtureName } from '../support/audio-fixtures.ts';
import { FRAME_MS, scoreWav } from '../support/silero.ts';

type Segment = Extract<TurnEvent, { type: 'segment' }>;

async function listen(name: FixtureName, expectation: Expectation) {
  const fixture = loadFixture(name);
  const taker = new TurnTaker(DEFAULT_TURN_TAKING, FRAME_MS);
  taker.configure(DEFAULT_TURN_TAKING, expectation);
  const events: TurnEvent[] = [];
  for (const f of await scoreWav(fixture.path)) events.push(...taker.push(f.samples, f.probability));
  // A second of silence after the file, as the microphone gives after a %noloop file ends.
  for (let i = 0; i < 1000 / FRAME_MS; i++) events.push(...taker.push(new Float32Array(512), 0));
  const segments = events.filter((e): e is Segment => e.type === 'segment');
  return { fixture, events, segments };
}

describe('turn-taking on recorded speech', () => {
  it('keeps a 0.4 s pause inside a dictated phone number in one answer', async () => {
    const { fixture, segments } = await listen('digits-pause', 'dictation');
    expect(segments).toHaveLength(1);
    const line = fixture.lines[0]!;
    expect(line.pauses![0]!.endMs - line.pauses![0]!.startMs).toBe(400);
    // the segment covers the whole line, both parts
    expect(segments[0]!.speechEndMs).toBeGreaterThanOrEqual(line.endMs - 100);
    expect(segments[0]!.speechMs).toBeGreaterThan(line.endMs - line.startMs - 200);
  });

  it('would cut the same pause if the answer were free (the dictation wait is what keeps it)', async () => {
    const { segments } = await listen('digits-pause', 'free');
    expect(segments.length).toBe(2);
  });

  it('drops two short noise bursts: the only answer is the words spoken after them', async () => {
    const { fixture, segments, events } = await listen('noise', 'free');
    const spoken = fixture.lines.find((l) => l.kind === 'speech')!;
    expect(segments).toHaveLength(1);
    expect(events.filter((e) => e.type === 'speech')).toHaveLength(1);
    // the one answer is the spoken line, not a burst
    expect(segments[0]!.speechEndMs).toBeGreaterThan(spoken.startMs);
    expect(segments[0]!.speechMs).toBeGreaterThan(spoken.endMs - spoken.startMs - 200);
  });

  it('hears each line of a visit as one answer, and decides its end within the wait', async () => {
    const { fixture, segments } = await listen('bench', 'free');
    expect(segments).toHaveLength(fixture.lines.length);
    segments.forEach((s, i) => {
      const line = fixture.lines[i]!;
      const delay = s.atMs - line.endMs;
      // The handed-over audio holds the whole line, its quiet last sound included.
      expect(s.speechEndMs + DEFAULT_DETECTOR.postPadMs, `"${line.text}"`).toBeGreaterThanOrEqual(line.endMs);
      expect(delay, `"${line.text}"`).toBeLessThanOrEqual(DEFAULT_TURN_TAKING.endSilenceMs + 3 * FRAME_MS);
    });
  });
});
