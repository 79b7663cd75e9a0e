// The kiosk's voice: sentences in order, the next prepared while one plays, stop at once, and a
// failing voice replaced by the next (or by captions only).

import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/ports/service-error.ts';
import type { SpeakOptions, SpokenClip, TextToSpeech } from '../../src/ports/text-to-speech.ts';
import { Speaker } from '../../src/voice/speaker.ts';

/** A voice whose clips play until the test ends them; it logs what happens, in order. */
class TestVoice implements TextToSpeech {
  readonly log: string[] = [];
  readonly playing: { text: string; end: () => void }[] = [];
  constructor(
    readonly name: string,
    private readonly failOn: (text: string) => boolean = () => false,
  ) {}
  async prepare(text: string, _options: SpeakOptions): Promise<SpokenClip> {
    this.log.push(`prepare ${text}`);
    if (this.failOn(text)) throw new ServiceError('tts', 'http', 'down', 500);
    return {
      play: (signal, started) =>
        new Promise<void>((resolve) => {
          this.log.push(`play ${text}`);
          started();
          const end = () => {
            this.log.push(`end ${text}`);
            resolve();
          };
          signal.addEventListener('abort', () => {
            this.log.push(`stopped ${text}`);
            resolve();
          });
          this.playing.push({ text, end });
        }),
    };
  }
}

const flush = () => new Promise((r) => setTimeout(r, 0));

function setup(voices: TextToSpeech[]) {
  const speaking: boolean[] = [];
  const failures: string[] = [];
  const quiet = { times: 0 };
  const speaker = new Speaker(voices, 'en-US', {
    speaking: (on) => speaking.push(on),
    quiet: () => quiet.times++,
    failed: (e, fallingBack) => failures.push(`${e.failure}${fallingBack ? ' fallback' : ' none'}`),
  });
  return { speaker, speaking, failures, quiet };
}

describe('speaker', () => {
  it('speaks sentences in order and prepares the next while one plays', async () => {
    const voice = new TestVoice('test');
    const { speaker, speaking } = setup([voice]);
    speaker.say('One.');
    speaker.say('Two.');
    await flush();
    expect(voice.log).toEqual(['prepare One.', 'prepare Two.', 'play One.']);
    expect(speaker.speaking).toBe(true);
    voice.playing.shift()!.end();
    await flush();
    expect(voice.log.slice(3)).toEqual(['end One.', 'play Two.']);
    voice.playing.shift()!.end();
    await speaker.idle();
    expect(speaking).toEqual([true, false]);
    expect(speaker.busy).toBe(false);
  });

  it('stops at once and forgets what it was about to say', async () => {
    const voice = new TestVoice('test');
    const { speaker, speaking } = setup([voice]);
    speaker.say('One.');
    speaker.say('Two.');
    await flush();
    speaker.stop();
    expect(speaker.speaking).toBe(false);
    await flush();
    expect(voice.log).toContain('stopped One.');
    expect(voice.log).not.toContain('play Two.');
    expect(speaking).toEqual([true, false]);
    speaker.say('Three.');
    await flush();
    expect(voice.log.at(-1)).toBe('play Three.');
  });

  it('hands the rest to the next voice when one fails', async () => {
    const server = new TestVoice('server', () => true);
    const browser = new TestVoice('browser');
    const { speaker, failures } = setup([server, browser]);
    speaker.say('One.');
    speaker.say('Two.');
    await flush();
    await flush();
    expect(failures).toEqual(['http fallback']);
    expect(browser.log).toEqual(['prepare One.', 'prepare Two.', 'play One.']);
    expect(speaker.voiceName).toBe('browser');
  });

  it('goes on with captions only when every voice fails', async () => {
    const { speaker, failures, speaking, quiet } = setup([new TestVoice('only', () => true)]);
    speaker.say('One.');
    expect(speaker.busy).toBe(true);
    await speaker.idle();
    expect(failures).toEqual(['http none']);
    expect(speaking).toEqual([]);
    // Never a sound, but the kiosk is told it is quiet again (its light stops saying it is about to speak).
    expect(quiet.times).toBe(1);
    expect(speaker.busy).toBe(false);
    speaker.say('Two.'); // no voice left: nothing happens, nothing hangs
    expect(speaker.busy).toBe(false);
  });
});
