// The browser speech adapter against a scripted speechSynthesis: the voice for a language, start
// and end, abort, a browser with no voices, and error events; and the watch of whether it has any
// voice (the operator's voice light: none at all is captions only).

import { afterEach, describe, expect, it, vi } from 'vitest';
import { BrowserSpeech, browserSpeechAvailable, chooseVoice, watchBrowserVoices, type VoiceLike } from '../../src/adapters/browser/speech-synthesis.ts';
import { ServiceError } from '../../src/ports/service-error.ts';

class ScriptedUtterance {
  lang = '';
  volume = 1;
  voice: VoiceLike | null = null;
  onstart: (() => void) | null = null;
  onend: (() => void) | null = null;
  onerror: ((event: { error: string }) => void) | null = null;
  constructor(readonly text: string) {}
}

/** speechSynthesis as the test drives it: utterances wait until the test starts or ends them. */
class ScriptedSynthesis extends EventTarget {
  voices: VoiceLike[] = [];
  spoken: ScriptedUtterance[] = [];
  cancels = 0;

  getVoices(): VoiceLike[] {
    return this.voices;
  }

  speak(utterance: ScriptedUtterance): void {
    this.spoken.push(utterance);
  }

  /** Like Chrome: the utterance being spoken reports `interrupted`. */
  cancel(): void {
    this.cancels++;
    this.spoken.at(-1)?.onerror?.({ error: 'interrupted' });
  }

  loadVoices(voices: VoiceLike[]): void {
    this.voices = voices;
    this.dispatchEvent(new Event('voiceschanged'));
  }
}

const voice = (name: string, lang: string, localService = true, isDefault = false): VoiceLike => ({ name, lang, localService, default: isDefault });

const VOICES = [
  voice('Google Deutsch', 'de-DE', false),
  voice('English (GB) remote', 'en-GB', false, true),
  voice('English (US) local', 'en-US'),
  voice('English (GB) local', 'en_GB'),
  voice('Français', 'fr-FR'),
];

function install(voices: VoiceLike[] = VOICES): ScriptedSynthesis {
  const synth = new ScriptedSynthesis();
  synth.voices = voices;
  vi.stubGlobal('speechSynthesis', synth);
  vi.stubGlobal('SpeechSynthesisUtterance', ScriptedUtterance);
  return synth;
}

/** Plays a clip; `state()` says whether it is still playing, finished, or failed. */
async function play(speech: BrowserSpeech, text: string, language = 'en-GB', signal = new AbortController().signal) {
  const clip = await speech.prepare(text, { language });
  const started = vi.fn();
  let outcome: 'playing' | 'done' | ServiceError = 'playing';
  const done = clip.play(signal, started).then(
    () => (outcome = 'done'),
    (error: ServiceError) => (outcome = error),
  );
  return { started, done, state: () => outcome };
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('watchBrowserVoices', () => {
  it('says at once whether there is a voice, again when the list changes, and stops when told', () => {
    const synth = install([]);
    const told: boolean[] = [];
    const stop = watchBrowserVoices((has) => told.push(has));
    expect(told).toEqual([false]);
    synth.loadVoices(VOICES);
    expect(told).toEqual([false, true]);
    stop();
    synth.loadVoices([]);
    expect(told).toEqual([false, true]);
  });

  it('says no voice where the browser has no speech synthesis at all', () => {
    const told: boolean[] = [];
    watchBrowserVoices((has) => told.push(has), null);
    expect(told).toEqual([false]);
  });
});

describe('chooseVoice', () => {
  it.each([
    ['en-GB', 'English (GB) local'],
    ['en-us', 'English (US) local'],
    ['de-DE', 'Google Deutsch'],
    ['fr-CA', 'Français'],
    ['en', 'English (US) local'],
    ['ja-JP', null],
  ])('%s speaks with %s', (language, name) => {
    expect(chooseVoice(VOICES, language)?.name ?? null).toBe(name);
  });

  it("prefers the browser's default among equals", () => {
    expect(chooseVoice([voice('a', 'en-US'), voice('b', 'en-US', true, true)], 'en-US')?.name).toBe('b');
  });
});

describe('BrowserSpeech', () => {
  it('says when the browser has no speech synthesis', async () => {
    expect(browserSpeechAvailable()).toBe(false);
    await expect(new BrowserSpeech().prepare('Hello', { language: 'en' })).rejects.toMatchObject({ service: 'tts', failure: 'missing' });
    install();
    expect(browserSpeechAvailable()).toBe(true);
  });

  it('speaks in the flow language, reports the start, and finishes on end', async () => {
    const synth = install();
    const clip = await play(new BrowserSpeech(), 'Hello there', 'en-GB');
    const [u] = synth.spoken;
    expect(u).toMatchObject({ text: 'Hello there', lang: 'en-GB', voice: { name: 'English (GB) local' } });
    u!.onstart!();
    expect(clip.started).toHaveBeenCalledTimes(1);
    await Promise.resolve();
    expect(clip.state()).toBe('playing');
    u!.onend!();
    await clip.done;
    expect(clip.state()).toBe('done');
  });

  it('speaks at the volume set, held between 0 and 1 (the browser goes no louder)', async () => {
    const synth = install();
    const speech = new BrowserSpeech();
    void (await play(speech, 'As loud as it comes')).done;
    speech.setVolume(0.25);
    void (await play(speech, 'Quieter')).done;
    speech.setVolume(3);
    void (await play(speech, 'Loudest')).done;
    expect(synth.spoken.map((u) => u.volume)).toEqual([1, 0.25, 1]);
  });

  it('waits for voices that load late', async () => {
    const synth = install([]);
    const clip = await play(new BrowserSpeech(), 'Bonjour', 'fr-FR');
    expect(synth.spoken).toEqual([]);
    synth.loadVoices(VOICES);
    expect(synth.spoken[0]?.voice?.name).toBe('Français');
    synth.spoken[0]!.onstart!();
    synth.spoken[0]!.onend!();
    await clip.done;
    expect(clip.state()).toBe('done');
  });

  it('an abort cancels the speech and finishes at once', async () => {
    const synth = install();
    const stop = new AbortController();
    const clip = await play(new BrowserSpeech(), 'A long sentence', 'en-GB', stop.signal);
    synth.spoken[0]!.onstart!();
    stop.abort();
    await clip.done;
    expect(synth.cancels).toBe(1);
    expect(clip.state()).toBe('done');
  });

  it('an already aborted signal speaks nothing', async () => {
    const synth = install();
    const stop = new AbortController();
    stop.abort();
    const clip = await play(new BrowserSpeech(), 'Hello', 'en-GB', stop.signal);
    await clip.done;
    expect(synth.spoken).toEqual([]);
    expect(clip.started).not.toHaveBeenCalled();
  });

  it('with no voices at all, fails with missing when the time is up', async () => {
    vi.useFakeTimers();
    const synth = install([]);
    const clip = await play(new BrowserSpeech({ startTimeoutMs: 1500 }), 'Hello');
    await vi.advanceTimersByTimeAsync(1499);
    expect(clip.state()).toBe('playing');
    await vi.advanceTimersByTimeAsync(1);
    expect(clip.state()).toBeInstanceOf(ServiceError);
    expect(clip.state()).toMatchObject({ service: 'tts', failure: 'missing' });
    expect(synth.spoken).toEqual([]);
  });

  it('fails with missing and silences the queue when speech never starts', async () => {
    vi.useFakeTimers();
    const synth = install();
    const clip = await play(new BrowserSpeech({ startTimeoutMs: 300 }), 'Hello');
    expect(synth.spoken).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(300);
    expect(clip.state()).toMatchObject({ service: 'tts', failure: 'missing' });
    expect(synth.cancels).toBe(1);
  });

  it('does not time out once speech has started', async () => {
    vi.useFakeTimers();
    const synth = install();
    const clip = await play(new BrowserSpeech({ startTimeoutMs: 300 }), 'Hello');
    synth.spoken[0]!.onstart!();
    await vi.advanceTimersByTimeAsync(5000);
    expect(clip.state()).toBe('playing');
    synth.spoken[0]!.onend!();
    await vi.advanceTimersByTimeAsync(0);
    expect(clip.state()).toBe('done');
  });

  it('finishes and silences a clip whose end never comes', async () => {
    vi.useFakeTimers();
    const synth = install();
    const clip = await play(new BrowserSpeech(), 'Hello');
    synth.spoken[0]!.onstart!();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(clip.state()).toBe('playing');
    await vi.advanceTimersByTimeAsync(1_000); // ten seconds and 0.2 s a character
    expect(clip.state()).toBe('done');
    expect(synth.cancels).toBe(1);
  });

  it.each([
    ['synthesis-failed', 'malformed'],
    ['network', 'network'],
    ['not-allowed', 'denied'],
    ['voice-unavailable', 'missing'],
  ])('an error event %s rejects with %s', async (code, failure) => {
    const synth = install();
    const clip = await play(new BrowserSpeech(), 'Hello');
    synth.spoken[0]!.onerror!({ error: code });
    await clip.done;
    expect(clip.state()).toBeInstanceOf(ServiceError);
    expect(clip.state()).toMatchObject({ service: 'tts', failure });
  });

  it.each(['interrupted', 'canceled'])('%s from elsewhere ends the clip without an error', async (code) => {
    const synth = install();
    const clip = await play(new BrowserSpeech(), 'Hello');
    synth.spoken[0]!.onstart!();
    synth.spoken[0]!.onerror!({ error: code });
    await clip.done;
    expect(clip.state()).toBe('done');
  });
});
