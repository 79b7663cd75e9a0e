// What a visitor can change for their visit (src/ui/access-levels.ts): text sizes up to 200 %,
// volume levels 3 dB apart, and the operator's defaults read from the page's settings.

import { describe, expect, it } from 'vitest';
import { accessDefaultsFrom, DEFAULT_VOLUME, nextTextSize, TEXT_SIZES, VOLUME_LEVELS, volumeGain } from '../../src/ui/access-levels.ts';

describe('text sizes', () => {
  it('go up and down a step at a time, from 100 % to 200 % and no further', () => {
    expect(TEXT_SIZES[0]).toBe(100);
    expect(TEXT_SIZES.at(-1)).toBe(200);
    expect(nextTextSize(100, 1)).toBe(125);
    expect(nextTextSize(175, 1)).toBe(200);
    expect(nextTextSize(200, 1)).toBe(200);
    expect(nextTextSize(125, -1)).toBe(100);
    expect(nextTextSize(100, -1)).toBe(100);
  });
});

describe('volume', () => {
  it('is the voice as loud as it comes at the top level, 3 dB quieter a step below', () => {
    expect(volumeGain(VOLUME_LEVELS)).toBe(1);
    for (let level = 1; level < VOLUME_LEVELS; level++) {
      expect(20 * Math.log10(volumeGain(level) / volumeGain(level + 1))).toBeCloseTo(-3, 6);
    }
    expect(volumeGain(0)).toBe(volumeGain(1));
    expect(volumeGain(99)).toBe(1);
  });

  it('starts each visit where the operator set it, else two steps below the top', () => {
    expect(DEFAULT_VOLUME).toBe(VOLUME_LEVELS - 2);
    expect(accessDefaultsFrom('')).toEqual({ volume: DEFAULT_VOLUME, lower: false });
    expect(accessDefaultsFrom('?volume=5&layout=lower')).toEqual({ volume: 5, lower: true });
    expect(accessDefaultsFrom('?volume=11&layout=sideways')).toEqual({ volume: DEFAULT_VOLUME, lower: false });
  });
});
