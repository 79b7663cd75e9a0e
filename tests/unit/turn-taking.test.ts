// Turn-taking on synthetic detector output: onsets, noise, the end of a free and of a dictated
// answer, barge-in over the kiosk's voice, and the audio a segment carries. The same logic on
// real recorded speech is in turn-taking.audio.test.ts.

import { describe, expect, it } from 'vitest';
import { DEFAULT_DETECTOR } from '../../src/voice/turn-settings.ts';
import { DEFAULT_TURN_TAKING, TurnTaker, type TurnEvent, type TurnTakingSettings } from '../../src/voice/turn-taking.ts';

const FRAME_MS = 32;
const FRAME = 512;

/** A script of detector probabilities: [probability, milliseconds] pairs, rounded to frames. */
type Script = [number, number][];

function run(script: Script, options: { settings?: Partial<TurnTakingSettings>; dictation?: boolean; kioskSpeaking?: (frame: number) => boolean } = {}) {
  const taker = new TurnTaker({ ...DEFAULT_TURN_TAKING, ...options.settings }, FRAME_MS);
  taker.configure({ ...DEFAULT_TURN_TAKING, ...options.settings }, options.dictation ? 'dictation' : 'free');
  const events: (TurnEvent & { frame: number })[] = [];
  let frame = 0;
  for (const [p, ms] of script) {
    for (let i = 0; i < Math.round(ms / FRAME_MS); i++) {
      taker.setKioskSpeaking(options.kioskSpeaking?.(frame) ?? false);
      // Each frame's samples carry its index, so tests can see which frames a segment holds.
      const samples = new Float32Array(FRAME).fill(frame / 10_000);
      for (const e of taker.push(samples, p)) events.push({ ...e, frame });
      frame++;
    }
  }
  return events;
}

const types = (events: TurnEvent[]) => events.map((e) => e.type);
const segments = (events: TurnEvent[]) => events.filter((e): e is Extract<TurnEvent, { type: 'segment' }> => e.type === 'segment');

describe('turn-taking', () => {
  it('hands over a free answer after the end silence', () => {
    const events = run([[0, 640], [0.9, 960], [0.05, 1000]]);
    expect(types(events)).toEqual(['onset', 'speech', 'pause', 'segment']);
    const seg = segments(events)[0]!;
    expect(seg.speechEndMs).toBe(640 + 960);
    // decided once 350 ms of silence have been seen: 11 frames of 32 ms
    expect(seg.atMs - seg.speechEndMs).toBe(11 * FRAME_MS);
    expect(seg.speechMs).toBe(960);
  });

  it('waits longer when a dictated answer (phone, date, email) is expected', () => {
    const script: Script = [[0, 320], [0.9, 800], [0.05, 416], [0.9, 800], [0.05, 1200]];
    const free = segments(run(script));
    const dictated = segments(run(script, { dictation: true }));
    expect(free).toHaveLength(2); // a 0.4 s pause ends a free answer
    expect(dictated).toHaveLength(1); // but not a dictated one
    expect(dictated[0]!.speechMs).toBe(800 + 416 + 800);
    expect(dictated[0]!.atMs - dictated[0]!.speechEndMs).toBe(25 * FRAME_MS); // 800 ms
  });

  it('calls a sound shorter than min_speech_ms noise, and hands nothing over', () => {
    const events = run([[0, 320], [0.95, 96], [0.02, 1500], [0.95, 128], [0.02, 1500]]);
    expect(types(events)).toEqual(['onset', 'noise', 'onset', 'noise']);
    expect(events.filter((e) => e.type === 'noise').map((e) => (e as { durationMs: number }).durationMs)).toEqual([96, 128]);
  });

  it('counts speech from 150 ms by default, and a flow can ask for more', () => {
    expect(types(run([[0.9, 160], [0, 800]]))).toEqual(['onset', 'speech', 'pause', 'segment']);
    expect(types(run([[0.9, 160], [0, 800]], { settings: { minSpeechMs: 300 } }))).toEqual(['onset', 'noise']);
  });

  it('keeps a turn going through frames between the two thresholds', () => {
    // 0.4 is under the speech threshold but over the silence threshold: the voice trails on.
    const events = run([[0.9, 320], [0.4, 640], [0.9, 320], [0, 800]]);
    expect(segments(events)).toHaveLength(1);
    expect(segments(events)[0]!.speechMs).toBe(320 + 640 + 320);
  });

  it('carries a pre-pad before the first speech frame and a short pad after the last', () => {
    const events = run([[0, 960], [0.9, 320], [0, 800]]);
    const seg = segments(events)[0]!;
    // 300 ms of pre-pad is ceil(300/32)+1 = 11 frames kept while quiet (the onset frame among them);
    // 100 ms after is 4 frames.
    const frames = seg.samples.length / FRAME;
    expect(frames).toBe(10 + 10 + 4);
    expect(seg.samples[0]).toBeCloseTo((30 - 10) / 10_000); // the first kept frame is 10 before the onset
  });

  it('needs barge_in_ms of louder speech to interrupt the kiosk', () => {
    const speaking = () => true;
    // 0.55 is speech when the kiosk is quiet, not while it speaks (its own voice may leak in)
    expect(types(run([[0.55, 640], [0, 600]], { kioskSpeaking: speaking }))).toEqual([]);
    // 192 ms: speech to a quiet kiosk, too short to interrupt it; the kiosk was held from 64 ms, then heard again
    const short = run([[0.9, 192], [0, 600]], { kioskSpeaking: speaking });
    expect(types(short)).toEqual(['onset', 'hold', 'noise']);
    expect(short[1]).toMatchObject({ type: 'hold', atMs: 64 });
    // a click (32 ms) does not even hold it
    expect(types(run([[0.9, 32], [0, 600]], { kioskSpeaking: speaking }))).toEqual(['onset', 'noise']);
    const over = run([[0.9, 320], [0, 600]], { kioskSpeaking: speaking });
    expect(types(over)).toEqual(['onset', 'hold', 'speech', 'pause', 'segment']);
    expect(over[2]).toMatchObject({ type: 'speech', overKiosk: true, atMs: 256 });
    // to a quiet kiosk there is nothing to hold
    expect(types(run([[0.9, 320], [0, 600]]))).toEqual(['onset', 'speech', 'pause', 'segment']);
  });

  it('never hands over speech made while the kiosk talks in a step without barge-in', () => {
    const events = run([[0.95, 2000], [0, 600]], { kioskSpeaking: () => true, settings: { bargeIn: false } });
    expect(segments(events)).toHaveLength(0);
  });

  it('hands over a very long turn without waiting for a pause', () => {
    const events = run([[0.9, 31_000]]);
    expect(segments(events)).toHaveLength(1);
    expect(segments(events)[0]!.speechMs).toBeGreaterThanOrEqual(29_900);
  });

  it('starts afresh after reset', () => {
    const taker = new TurnTaker(DEFAULT_TURN_TAKING, FRAME_MS);
    for (let i = 0; i < 10; i++) taker.push(new Float32Array(FRAME), 0.9);
    expect(taker.hearing).toBe(true);
    taker.reset();
    expect(taker.hearing).toBe(false);
    const after: TurnEvent[] = [];
    for (let i = 0; i < 30; i++) after.push(...taker.push(new Float32Array(FRAME), 0));
    expect(after).toEqual([]);
  });

  it('reports a pause that may end the turn once, and speech after it as the turn going on', () => {
    const events = run([[0.9, 480], [0, 224], [0.9, 320], [0, 600]]);
    expect(types(events)).toEqual(['onset', 'speech', 'pause', 'resume', 'pause', 'segment']);
    const [first, resume] = events.filter((e) => e.type === 'pause' || e.type === 'resume');
    // the pause's silence after the last speech frame (32 ms: one frame)
    expect(DEFAULT_DETECTOR.pauseMs).toBe(32);
    expect(first).toMatchObject({ type: 'pause', atMs: 480 + DEFAULT_DETECTOR.pauseMs, speechEndMs: 480 });
    expect(resume).toMatchObject({ type: 'resume', atMs: 480 + 224 + 32 });
  });

  it('counts a pause from the last loud frame: a fading tail (voiced, not loud) is already pause, though not yet the end', () => {
    const events = run([[0.9, 480], [0.4, 128], [0, 600]]);
    expect(types(events)).toEqual(['onset', 'speech', 'pause', 'segment']);
    expect(events.find((e) => e.type === 'pause')).toMatchObject({ atMs: 480 + DEFAULT_DETECTOR.pauseMs });
    // the end waits for 350 ms below the silence threshold, after the tail
    expect(events.find((e) => e.type === 'segment')).toMatchObject({ atMs: 480 + 128 + 352 });
  });

  it('reports no pause when the wait is no longer than it (a flow that wants a quick end)', () => {
    expect(types(run([[0.9, 480], [0, 600]], { settings: { endSilenceMs: DEFAULT_DETECTOR.pauseMs } }))).toEqual(['onset', 'speech', 'segment']);
  });

  it('gives the audio before the onset with it, for a recogniser that takes speech as it comes', () => {
    const events = run([[0, 640], [0.9, 320], [0, 400]]);
    const onset = events.find((e) => e.type === 'onset') as Extract<TurnEvent, { type: 'onset' }>;
    // the pre-pad (300 ms: 10 frames) and the onset frame itself, in order
    const frames = onset.preRoll.map((f) => Math.round(f[0]! * 10_000));
    expect(frames).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  });
});
