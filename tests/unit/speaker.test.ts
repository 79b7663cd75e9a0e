// The kiosk's voice: sentences in order, the next prepared while one plays, stop at once, and a
// failing voice replaced by the next (or by captions only).

import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/ports/service-error.ts';
import { BrokenOff, type SpeakOptions, type SpokenClip, type TextToSpeech } from '../../src/ports/text-to-speech.ts';
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

  it('tells once per reply when its first sentence has its first audio', async () => {
    const voice = new TestVoice('test');
    let firstAudio = 0;
    const speaker = new Speaker([voice], 'en-US', { speaking: () => {}, failed: () => {}, firstAudio: () => firstAudio++ });
    speaker.say('One.');
    speaker.say('Two.');
    await flush();
    expect(firstAudio).toBe(1);
    voice.playing.shift()!.end();
    await flush();
    voice.playing.shift()!.end();
    await speaker.idle();
    speaker.say('A new reply.');
    await flush();
    expect(firstAudio).toBe(2);
  });

  it('plays a ready sentence as soon as the one before has all its sound queued, so it follows with no gap', async () => {
    const scheduled: (() => void)[] = [];
    const log: string[] = [];
    const ends: (() => void)[] = [];
    const queuing: TextToSpeech = {
      name: 'queuing',
      prepare: async (text) => ({
        play: (_signal, started, queued) =>
          new Promise<void>((resolve) => {
            log.push(`play ${text}`);
            started();
            scheduled.push(() => queued?.());
            ends.push(() => {
              log.push(`end ${text}`);
              resolve();
            });
          }),
      }),
    };
    const { speaker, speaking } = setup([queuing]);
    speaker.say('One.');
    speaker.say('Two.');
    speaker.say('Three.');
    await flush();
    expect(log).toEqual(['play One.']);
    scheduled[0]!(); // all of One is queued: Two goes right behind it
    await flush();
    expect(log).toEqual(['play One.', 'play Two.']);
    ends[0]!();
    await flush();
    // Three waits until Two has all its sound queued (or has ended).
    expect(log).toEqual(['play One.', 'play Two.', 'end One.']);
    ends[1]!();
    await flush();
    expect(log.slice(3)).toEqual(['end Two.', 'play Three.']);
    ends[2]!();
    await speaker.idle();
    expect(speaking).toEqual([true, false]);
  });

  it('when a sentence breaks off while it plays, the next voice goes on from the clause that was not heard', async () => {
    const sentence = 'Your appointment is with Doctor Lindqvist, at half past ten, in room four.';
    const breaking: TextToSpeech = {
      name: 'stream',
      prepare: async (text) => ({
        play: (_signal, started) => {
          started();
          // Four seconds were heard (about "Your appointment is with Doctor Lindqvist, at"), then the stream broke.
          return Promise.reject(new BrokenOff(new ServiceError('tts', 'network', `broke during "${text}"`), 4));
        },
      }),
    };
    const browser = new TestVoice('browser');
    const { speaker, failures } = setup([breaking, browser]);
    speaker.say(sentence);
    speaker.say('Please take a seat.');
    await flush();
    await flush();
    expect(failures).toEqual(['network fallback']);
    expect(browser.log.filter((l) => l.startsWith('prepare'))).toEqual(['prepare at half past ten, in room four.', 'prepare Please take a seat.']);
  });

  it('says a sentence again whole when it broke off in its first clause, and not at all when it had been heard to its end', async () => {
    for (const [heard, again] of [[0.5, ['prepare Thank you, Maria.']], [30, []]] as const) {
      const breaking: TextToSpeech = {
        name: 'stream',
        prepare: async () => ({ play: (_s, started) => (started(), Promise.reject(new BrokenOff(new ServiceError('tts', 'timeout', 'stalled'), heard))) }),
      };
      const browser = new TestVoice('browser');
      const { speaker } = setup([breaking, browser]);
      speaker.say('Thank you, Maria.');
      await flush();
      await flush();
      expect(browser.log.filter((l) => l.startsWith('prepare'))).toEqual(again);
    }
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

  it('sets the volume of every voice, the one that takes over too; a voice without a volume is passed over', () => {
    const first = Object.assign(new TestVoice('first'), { gain: 1, setVolume(g: number) { this.gain = g; } });
    const second = Object.assign(new TestVoice('second'), { gain: 1, setVolume(g: number) { this.gain = g; } });
    const { speaker } = setup([first, new TestVoice('no volume'), second]);
    speaker.setVolume(0.4);
    expect([first.gain, second.gain]).toEqual([0.4, 0.4]);
  });
});
