// The operator's microphone sensitivity: the same soft voice (a detector probability of 0.45)
// is a turn at high sensitivity, and nothing at normal or low; a clear voice is a turn at all three.

import { describe, expect, it } from 'vitest';
import { DEFAULT_DETECTOR, DEFAULT_TURN_TAKING, detectorFor, TurnTaker, type MicSensitivity } from '../../src/voice/turn-taking.ts';

const FRAME_MS = 32;

/** The events' types for half a second of quiet, a second of voice at `probability`, and a second of quiet. */
function heard(sensitivity: MicSensitivity, probability: number): string[] {
  const taker = new TurnTaker(DEFAULT_TURN_TAKING, FRAME_MS, detectorFor(sensitivity));
  const types: string[] = [];
  for (const [p, frames] of [[0, 16], [probability, 32], [0, 32]] as const) {
    for (let i = 0; i < frames; i++) for (const e of taker.push(new Float32Array(512), p)) types.push(e.type);
  }
  return types;
}

describe('microphone sensitivity', () => {
  it.each([
    ['high', 0.45, ['onset', 'speech', 'pause', 'segment']],
    ['normal', 0.45, []],
    ['low', 0.45, []],
    ['low', 0.6, []],
    ['normal', 0.6, ['onset', 'speech', 'pause', 'segment']],
    ['low', 0.9, ['onset', 'speech', 'pause', 'segment']],
  ] as const)('%s hears a voice of %d as %j', (sensitivity, probability, events) => {
    expect(heard(sensitivity, probability)).toEqual(events);
  });

  it('normal is the detector as it always was', () => {
    expect(detectorFor('normal')).toBe(DEFAULT_DETECTOR);
  });
});
