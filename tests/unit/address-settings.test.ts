// Settings in the page address that the kiosk cannot use (`?idle_seconds=abc`,
// `?mic_sensitivity=loud`) are left at their defaults and said to staff, naming the setting, the
// value and what is used instead; what the kiosk does use is never reported.

import { describe, expect, it } from 'vitest';
import { get } from 'svelte/store';
import { t } from '../../src/ui/i18n/i18n.ts';
import { addressProblems, settingsFrom, voiceSettingsFrom } from '../../src/ui/kiosk-settings.ts';
import { accessDefaultsFrom } from '../../src/ui/access-levels.ts';

const said = (search: string) => addressProblems(search).map((p) => get(t)(p.words.key, p.words.values));

describe('addressProblems', () => {
  it('names each setting it cannot use, and what stands in', () => {
    expect(said('?idle_seconds=abc&mic_sensitivity=loud&flow=onboarding')).toEqual([
      'For staff: idle_seconds=abc in the page address is not a number of seconds, so the kiosk uses 120 seconds.',
      'For staff: mic_sensitivity=loud in the page address is not low, normal or high, so the microphone stays at normal.',
    ]);
    expect(said('?end_seconds=-3&idle_grace_seconds=&flow_timeout_seconds=0&language=english!&voice=a%20b')).toEqual([
      'For staff: end_seconds=-3 in the page address is not a number of seconds, so the kiosk uses 20 seconds.',
      'For staff: idle_grace_seconds= in the page address is not a number of seconds, so the kiosk uses 20 seconds.',
      'For staff: flow_timeout_seconds=0 in the page address is not a number of seconds, so the kiosk uses 15 seconds.',
      'For staff: language=english! in the page address is not a language tag such as en-GB, so the kiosk uses the flow’s language.',
      'For staff: voice=a b in the page address is not a voice name, so the kiosk uses the server’s voice.',
    ]);
  });

  it('says nothing of what the kiosk uses, and agrees with what it uses', () => {
    const fine = '?idle_seconds=2.5&end_seconds=0&idle_grace_seconds=600&flow_timeout_seconds=3&mic_sensitivity=high&language=en-GB&voice=nova&mic_sensitivity_x=1';
    expect(addressProblems(fine)).toEqual([]);
    expect(settingsFrom(fine)).toEqual({ idleSeconds: 2.5, endSeconds: 0, idleGraceSeconds: 600 });
    expect(voiceSettingsFrom(fine)).toEqual({ language: 'en-GB', voice: 'nova', sensitivity: 'high' });
    // What it reports is what it leaves at the default.
    expect(settingsFrom('?idle_seconds=abc&idle_grace_seconds=')).toEqual({ idleSeconds: 120, endSeconds: 20, idleGraceSeconds: 20 });
    expect(voiceSettingsFrom('?mic_sensitivity=loud').sensitivity).toBe('normal');
  });

  it("names a volume or layout it cannot use, and leaves the operator's default", () => {
    expect(said('?volume=loud&layout=low')).toEqual([
      'For staff: volume=loud in the page address is not a level from 1 to 10, so each visit starts at level 8.',
      'For staff: layout=low in the page address is not standard or lower, so the controls stay where they are.',
    ]);
    expect(accessDefaultsFrom('?volume=loud&layout=low')).toEqual({ volume: 8, lower: false });
    expect(addressProblems('?volume=10&layout=lower')).toEqual([]);
    expect(accessDefaultsFrom('?volume=10&layout=lower')).toEqual({ volume: 10, lower: true });
  });
});
