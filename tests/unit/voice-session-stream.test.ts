// One visitor's voice with a streaming recogniser: the audio goes out from the onset (pre-pad
// first) while the visitor speaks, one commit at the end of the turn, a noise is cancelled and
// never committed; a pause commits the words so far, which turn-taking reads (a number that may
// go on keeps the turn open), and with the early start offers them as the likely turn, withdrawn
// when the visitor goes on; the stream then starts again with the whole turn, whose words replace
// the pause's.

import { describe, expect, it } from 'vitest';
import type { Microphone, MicrophoneEvents } from '../../src/ports/microphone.ts';
import type { StreamingTranscriber, StreamOptions, TurnStream, TurnStreamEvents } from '../../src/ports/speech-to-text.ts';
import type { SpokenClip, TextToSpeech } from '../../src/ports/text-to-speech.ts';
import { Speaker } from '../../src/voice/speaker.ts';
import { WHOLE_TURN_MS } from '../../src/voice/turn-streamer.ts';
import { DEFAULT_TURN_TAKING } from '../../src/voice/turn-taking.ts';
import { VoiceSession } from '../../src/voice/voice-session.ts';

class TestMicrophone implements Microphone {
  readonly sampleRate = 16000;
  readonly frameMs = 32;
  events: MicrophoneEvents | null = null;
  async open(events: MicrophoneEvents) {
    this.events = events;
  }
  async close() {
    this.events = null;
  }
  /** Sends `ms` of frames at probability `p`; each frame's samples carry its number. */
  sent = 0;
  send(p: number, ms: number) {
    for (let i = 0; i < Math.round(ms / this.frameMs); i++) this.events?.frame({ samples: new Float32Array(512).fill(++this.sent), probability: p });
  }
}

interface Stretch {
  options: StreamOptions;
  events: TurnStreamEvents;
  /** the frame numbers appended, in order */
  frames: number[];
  state: 'open' | 'committed' | 'cancelled';
  answer: (text: string) => void;
}

/** A streaming recogniser whose stretches the test sees and answers. */
class TestStream implements StreamingTranscriber {
  readonly kind = 'stream' as const;
  readonly name = 'test-stream';
  readonly stretches: Stretch[] = [];
  warmed: string[] = [];
  closed = 0;
  warm(language: string) {
    this.warmed.push(language);
  }
  close() {
    this.closed++;
  }
  begin(options: StreamOptions, events: TurnStreamEvents): TurnStream {
    let answer: (text: string) => void = () => undefined;
    const text = new Promise<string>((resolve) => (answer = resolve));
    const stretch: Stretch = { options, events, frames: [], state: 'open', answer: (t) => answer(t) };
    this.stretches.push(stretch);
    return {
      append: (samples) => void stretch.frames.push(samples[0]!),
      commit: () => {
        stretch.state = 'committed';
        return text;
      },
      cancel: () => void (stretch.state = 'cancelled'),
    };
  }
}

const silentVoice: TextToSpeech = {
  name: 'silent',
  async prepare(): Promise<SpokenClip> {
    return { play: async () => undefined };
  },
};

const flush = () => new Promise((r) => setTimeout(r, 0));

function setup(earlyStart: boolean) {
  const mic = new TestMicrophone();
  const stt = new TestStream();
  const log = { heard: [] as string[], interim: [] as (string | null)[], likely: [] as string[], wentOn: 0, marks: [] as string[] };
  let session: VoiceSession;
  const speaker = new Speaker([silentVoice], 'en-US', { speaking: (on) => session.kioskSpeaking(on), failed: () => undefined });
  session = new VoiceSession(
    mic,
    stt,
    speaker,
    'de-DE',
    {
      changed: () => undefined,
      heard: (t) => log.heard.push(t),
      interim: (t) => log.interim.push(t),
      interrupted: () => undefined,
      likelyTurn: (t) => log.likely.push(t),
      wentOn: () => log.wentOn++,
      problem: () => undefined,
      mark: (name) => log.marks.push(name),
    },
    { earlyStart },
  );
  return { mic, stt, session, log };
}

/** The step's listening with the words read (the default) or not (`turn_taking.words: false`). */
function readingWords(session: VoiceSession, words: boolean, language = 'de-DE') {
  session.configure({ settings: { ...DEFAULT_TURN_TAKING, words }, expectation: 'free', language, choices: [] });
}

describe('voice session with a streaming recogniser', () => {
  it('streams the turn while it is spoken, pre-pad first, and commits once at its end (words not read)', async () => {
    const { mic, stt, session, log } = setup(false);
    readingWords(session, false);
    await session.start();
    expect(stt.warmed).toEqual(['de']);
    mic.send(0, 320); // frames 1-10: quiet, the last few kept as pre-pad
    mic.send(0.9, 320); // frames 11-20: speech
    expect(stt.stretches).toHaveLength(1);
    const [s] = stt.stretches;
    expect(s!.options).toMatchObject({ language: 'de', sampleRate: 16000 });
    // the pre-pad (about 300 ms before the onset) and every speech frame so far, in order, while still speaking
    expect(s!.frames).toEqual(Array.from({ length: 11 + 10 - s!.frames[0]! }, (_, i) => s!.frames[0]! + i));
    expect(s!.frames[0]).toBeLessThanOrEqual(2); // 300 ms of pre-pad before the onset at frame 11
    expect(s!.frames.at(-1)).toBe(20);
    expect(s!.state).toBe('open');
    mic.send(0, 400); // the turn ends
    expect(s!.state).toBe('committed');
    expect(stt.stretches).toHaveLength(1);
    expect(log.marks).toContain('vk:speech-end');
    s!.events.interim('hallo');
    s!.answer(' Hallo, ich bin Alex ');
    await flush();
    expect(log.heard).toEqual(['Hallo, ich bin Alex']);
    expect(log.interim).toEqual(['hallo', null]);
    expect(log.marks.filter((m) => m === 'vk:transcript')).toHaveLength(1);
  });

  it('cancels a noise and never commits it', async () => {
    const { mic, stt, session, log } = setup(false);
    await session.start();
    mic.send(0.9, 64); // a click
    mic.send(0, 400);
    expect(stt.stretches).toHaveLength(1);
    expect(stt.stretches[0]!.state).toBe('cancelled');
    expect(log.heard).toEqual([]);
    expect(log.marks).not.toContain('vk:speech-end');
  });

  it('early start: a pause commits the words so far and offers them; the end of the turn hands the same words on', async () => {
    const { mic, stt, session, log } = setup(true);
    await session.start();
    mic.send(0.9, 480);
    mic.send(0, 192); // a pause (128 ms or more), not yet the end (350 ms)
    expect(stt.stretches[0]!.state).toBe('committed');
    expect(log.marks).toContain('vk:pause-commit');
    stt.stretches[0]!.answer('Alex');
    await flush();
    expect(log.likely).toEqual(['Alex']);
    expect(log.heard).toEqual([]); // not before the turn is over
    mic.send(0, 320); // the end
    expect(stt.stretches[1]!.state).toBe('cancelled'); // only silence after the pause
    await flush();
    expect(log.heard).toEqual(['Alex']);
    expect(log.wentOn).toBe(0);
  });

  it('early start: the visitor goes on after the pause; the offer is withdrawn and the turn is one', async () => {
    const { mic, stt, session, log } = setup(true);
    await session.start();
    mic.send(0.9, 480);
    mic.send(0, 192);
    stt.stretches[0]!.answer('my number is');
    await flush();
    expect(log.likely).toEqual(['my number is']);
    mic.send(0.9, 480); // goes on
    expect(log.wentOn).toBe(1);
    // The stream starts again with the whole turn: the pre-pad, the words, the pause and the rest.
    expect(stt.stretches[1]!.state).toBe('cancelled');
    const whole = stt.stretches[2]!;
    const first = stt.stretches[0]!.frames[0]!;
    const lastSpoken = mic.sent;
    mic.send(0, 192); // the next pause commits it
    expect(whole.state).toBe('committed');
    expect(whole.frames).toEqual(Array.from({ length: whole.frames.length }, (_, i) => first + i));
    expect(whole.frames.at(-1)).toBeGreaterThan(lastSpoken);
    whole.answer('my number is 0770 983');
    await flush();
    expect(log.likely).toEqual(['my number is', 'my number is 0770 983']);
    mic.send(0, 544); // a number may go on: the dictation wait, 800 ms
    expect(log.heard).toEqual([]);
    mic.send(0, 96);
    await flush();
    expect(log.heard).toEqual(['my number is 0770 983']);
  });

  it('without the early start a pause commits the words so far for turn-taking and offers nothing; with words: false it commits nothing', async () => {
    const reading = setup(false);
    await reading.session.start();
    reading.mic.send(0.9, 480);
    reading.mic.send(0, 192);
    expect(reading.stt.stretches[0]!.state).toBe('committed');
    reading.stt.stretches[0]!.answer('Alex');
    await flush();
    expect(reading.log.likely).toEqual([]);
    reading.mic.send(0, 192);
    await flush();
    expect(reading.log.heard).toEqual(['Alex']); // plain words: the free wait, 350 ms

    const { mic, stt, session, log } = setup(false);
    readingWords(session, false);
    await session.start();
    mic.send(0.9, 480);
    mic.send(0, 192);
    expect(stt.stretches[0]!.state).toBe('open');
    expect(log.likely).toEqual([]);
    await session.stop();
    expect(stt.stretches[0]!.state).toBe('cancelled');
    expect(stt.closed).toBe(1);
  });

  it('a phone number dictated with a 0.5 s pause at a step that asks for a name is one turn: its words at the pause end on a number', async () => {
    const { mic, stt, session, log } = setup(false);
    readingWords(session, true, 'en-US');
    await session.start();
    mic.send(0.9, 960);
    mic.send(0, 160);
    stt.stretches[0]!.answer('my phone number is five five five');
    await flush();
    mic.send(0, 352); // 0.5 s in all: the free wait (350 ms) is long past
    expect(log.heard).toEqual([]);
    mic.send(0.9, 640); // the rest of the number
    mic.send(0, 160);
    expect(stt.stretches[1]!.state).toBe('cancelled');
    stt.stretches[2]!.answer('my phone number is five five five zero one nine nine.');
    await flush();
    mic.send(0, 800);
    await flush();
    expect(log.heard).toEqual(['my phone number is five five five zero one nine nine.']);
    expect(log.marks.filter((m) => m === 'vk:speech-end')).toHaveLength(1);
  });

  it('the words of a pause the visitor went on after are replaced by the whole turn, even when they come back last', async () => {
    const { mic, stt, session, log } = setup(true);
    await session.start();
    mic.send(0.9, 480);
    mic.send(0, 160); // a pause inside a word: "Mar" … "ia"
    mic.send(0.9, 320);
    mic.send(0, 160);
    stt.stretches[2]!.answer('Maria');
    await flush();
    expect(log.likely).toEqual(['Maria']);
    stt.stretches[0]!.answer('Mar');
    await flush();
    expect(log.likely).toEqual(['Maria']);
    mic.send(0, 320);
    await flush();
    expect(log.heard).toEqual(['Maria']);
  });

  it('a turn longer than the whole-turn limit goes on in stretches whose words are joined', async () => {
    const { mic, stt, session, log } = setup(false);
    readingWords(session, true, 'en-US');
    await session.start();
    mic.send(0.9, WHOLE_TURN_MS + 320);
    mic.send(0, 160);
    stt.stretches[0]!.answer('and then');
    await flush();
    mic.send(0.9, 320);
    expect(stt.stretches[1]!.state).toBe('open'); // not sent again
    mic.send(0, 160);
    stt.stretches[1]!.answer('it ended.');
    await flush();
    mic.send(0, 800);
    await flush();
    expect(log.heard).toEqual(['and then it ended.']);
  });

  it('a whole answer ends as soon as its words are in', async () => {
    const { mic, stt, session, log } = setup(false);
    await session.start();
    mic.send(0.9, 320);
    mic.send(0, 224);
    expect(log.marks).not.toContain('vk:speech-end');
    stt.stretches[0]!.answer('Ja, bitte.');
    await flush();
    expect(log.marks).toContain('vk:speech-end'); // at 224 ms of silence, before the free wait
    expect(log.heard).toEqual(['Ja, bitte.']);
  });
});
