// One visitor's voice: frames to turns to words, parts of a turn merged, barge-in, failures
// reported, and nothing heard while the kiosk talks unless the visitor really spoke over it.

import { describe, expect, it } from 'vitest';
import type { Microphone, MicrophoneEvents } from '../../src/ports/microphone.ts';
import { ServiceError } from '../../src/ports/service-error.ts';
import type { LiveRecognitionEvents, LiveRecognizer, SegmentTranscriber, SpeechSegment, TranscribeOptions } from '../../src/ports/speech-to-text.ts';
import type { SpokenClip, TextToSpeech } from '../../src/ports/text-to-speech.ts';
import { Speaker } from '../../src/voice/speaker.ts';
import { isoLanguage, VoiceSession, type VoiceProblem } from '../../src/voice/voice-session.ts';

class TestMicrophone implements Microphone {
  readonly sampleRate = 16000;
  readonly frameMs = 32;
  events: MicrophoneEvents | null = null;
  closed = 0;
  /** when set, open() waits for it after the microphone is granted (a detector still loading) */
  detectorLoaded: Promise<void> | null = null;
  constructor(private readonly failure?: ServiceError) {}
  async open(events: MicrophoneEvents) {
    if (this.failure) throw this.failure;
    events.granted?.();
    if (this.detectorLoaded) await this.detectorLoaded;
    this.events = events;
  }
  async close() {
    this.closed++;
    this.events = null;
  }
  /** Sends `ms` of frames at probability `p`. */
  send(p: number, ms: number) {
    for (let i = 0; i < Math.round(ms / this.frameMs); i++) this.events?.frame({ samples: new Float32Array(512).fill(p / 10), probability: p });
  }
}

/** A transcriber whose answers the test gives, one per request, when it chooses. */
class TestTranscriber implements SegmentTranscriber {
  readonly kind = 'segment' as const;
  readonly name = 'test';
  readonly requests: { segment: SpeechSegment; options: TranscribeOptions; answer: (text: string) => void; fail: (e: Error) => void }[] = [];
  transcribe(segment: SpeechSegment, options: TranscribeOptions): Promise<string> {
    return new Promise((answer, fail) => this.requests.push({ segment, options, answer, fail }));
  }
}

/** A voice that plays until stopped. */
const endlessVoice: TextToSpeech = {
  name: 'endless',
  async prepare(): Promise<SpokenClip> {
    return { play: (signal, started) => new Promise((resolve) => (started(), signal.addEventListener('abort', () => resolve()))) };
  },
};

const flush = () => new Promise((r) => setTimeout(r, 0));

function setup(options: { stt?: SegmentTranscriber | LiveRecognizer; mic?: TestMicrophone } = {}) {
  const mic = options.mic ?? new TestMicrophone();
  const stt = options.stt ?? new TestTranscriber();
  const log = { heard: [] as string[], interim: [] as (string | null)[], interrupted: 0, problems: [] as string[], marks: [] as string[] };
  let session: VoiceSession;
  const speaker = new Speaker([endlessVoice], 'en-US', { speaking: (on) => session.kioskSpeaking(on), failed: () => undefined });
  session = new VoiceSession(mic, stt, speaker, 'en-US', {
    changed: () => undefined,
    heard: (t) => log.heard.push(t),
    interim: (t) => log.interim.push(t),
    interrupted: () => log.interrupted++,
    problem: (kind: VoiceProblem, e) => log.problems.push(`${kind}${e ? `:${e.failure}` : ''}`),
    mark: (name) => log.marks.push(name),
  });
  return { mic, stt, speaker, session, log };
}

describe('voice session', () => {
  it('hears a turn: one segment, transcribed in the flow language, handed on with its marks', async () => {
    const { mic, stt, session, log } = setup();
    await session.start();
    expect(session.state.microphone).toBe('open');
    mic.send(0, 320);
    mic.send(0.9, 640);
    mic.send(0, 400);
    const t = stt as TestTranscriber;
    expect(t.requests).toHaveLength(1);
    expect(t.requests[0]!.options.language).toBe('en');
    expect(t.requests[0]!.segment.sampleRate).toBe(16000);
    expect(session.state.transcribing).toBe(true);
    t.requests[0]!.answer('  My name is Alex ');
    await flush();
    expect(log.heard).toEqual(['My name is Alex']);
    expect(log.marks).toEqual(['vk:listening', 'vk:speech-end', 'vk:transcript']);
    expect(session.state.transcribing).toBe(false);
  });

  it('merges a part spoken again before the words of the first came back', async () => {
    const { mic, stt, session, log } = setup();
    await session.start();
    const t = stt as TestTranscriber;
    mic.send(0.9, 640);
    mic.send(0, 400); // first part handed over
    mic.send(0.9, 320); // the visitor goes on
    t.requests[0]!.answer('my number is 0770');
    await flush();
    expect(log.heard).toEqual([]); // held: the visitor is still speaking
    mic.send(0, 400);
    t.requests[1]!.answer('983 123');
    await flush();
    expect(log.heard).toEqual(['my number is 0770 983 123']);
  });

  it('hands the first part on when what followed was only a noise', async () => {
    const { mic, stt, session, log } = setup();
    await session.start();
    const t = stt as TestTranscriber;
    mic.send(0.9, 640);
    mic.send(0, 400);
    mic.send(0.9, 64); // a click
    t.requests[0]!.answer('yes');
    await flush();
    expect(log.heard).toEqual([]);
    mic.send(0, 300);
    expect(log.heard).toEqual(['yes']);
    expect(t.requests).toHaveLength(1);
  });

  it('stops the kiosk and the model turn when the visitor speaks over it', async () => {
    const { mic, speaker, session, log } = setup();
    await session.start();
    speaker.say('Welcome to the clinic. Please tell me your name.');
    await flush();
    expect(speaker.speaking).toBe(true);
    mic.send(0.9, 160); // not enough to interrupt
    expect(speaker.speaking).toBe(true);
    mic.send(0, 300);
    mic.send(0.9, 320);
    expect(speaker.speaking).toBe(false);
    expect(log.interrupted).toBe(1);
    expect(log.marks).toContain('vk:barge-in');
  });

  it('reports a failed transcription, and its return, and goes on listening', async () => {
    const { mic, stt, session, log } = setup();
    await session.start();
    const t = stt as TestTranscriber;
    mic.send(0.9, 640);
    mic.send(0, 400);
    t.requests[0]!.fail(new ServiceError('stt', 'http', 'bad gateway', 502));
    await flush();
    expect(log.problems).toEqual(['recognition:http']);
    expect(log.heard).toEqual([]);
    mic.send(0.9, 640);
    mic.send(0, 400);
    t.requests[1]!.answer('hello');
    await flush();
    expect(log.problems).toEqual(['recognition:http', 'recognition_back']);
    expect(log.heard).toEqual(['hello']);
  });

  it('reports a denied microphone and never listens', async () => {
    const mic = new TestMicrophone(new ServiceError('microphone', 'denied', 'NotAllowedError'));
    const { session, log } = setup({ mic });
    await session.start();
    expect(session.state.microphone).toBe('failed');
    expect(log.problems).toEqual(['microphone:denied']);
  });

  it('stops claiming to listen when the open microphone goes silent, and says why', async () => {
    const { mic, stt, session, log } = setup();
    await session.start();
    mic.send(0.9, 320); // the visitor had begun to speak
    expect(session.state).toMatchObject({ microphone: 'open', hearing: true });
    mic.events!.lost!(new ServiceError('microphone', 'timeout', 'no sound from the microphone for 5 s'));
    expect(session.state).toMatchObject({ microphone: 'failed', hearing: false });
    expect(log.problems).toEqual(['microphone:timeout']);
    mic.send(0, 400); // nothing half heard is handed on
    expect((stt as TestTranscriber).requests).toHaveLength(0);
  });

  it('says it is getting ready while the microphone is given and the detector still loads', async () => {
    const mic = new TestMicrophone();
    let loaded = () => {};
    mic.detectorLoaded = new Promise((resolve) => (loaded = resolve));
    const { session } = setup({ mic });
    const starting = session.start();
    expect(session.state.microphone).toBe('preparing');
    loaded();
    await starting;
    expect(session.state.microphone).toBe('open');
  });

  it('closes the microphone and drops unfinished turns when stopped', async () => {
    const { mic, stt, session, log } = setup();
    await session.start();
    const t = stt as TestTranscriber;
    mic.send(0.9, 640);
    mic.send(0, 400);
    const signal = (t.requests[0]!.options.signal as AbortSignal);
    await session.stop();
    expect(mic.closed).toBe(1);
    expect(signal.aborted).toBe(true);
    t.requests[0]!.answer('too late');
    await flush();
    expect(log.heard).toEqual([]);
  });

  it('with a live recogniser, drops what it hears while the kiosk talks unless the visitor spoke over it', async () => {
    let events: LiveRecognitionEvents | null = null;
    const live: LiveRecognizer = { kind: 'live', name: 'live', onDevice: false, start: (_l, e) => (events = e), stop: () => (events = null) };
    const { mic, speaker, session, log } = setup({ stt: live });
    await session.start();
    events!.interim('my na');
    events!.final('my name is Alex');
    expect(log.heard).toEqual(['my name is Alex']);
    speaker.say('Thank you, Alex. Is that right?');
    await flush();
    events!.final('thank you alex is that right'); // the kiosk's own voice, recognised
    expect(log.heard).toEqual(['my name is Alex']);
    mic.send(0.9, 320); // the visitor speaks over it
    events!.final('yes');
    expect(log.heard).toEqual(['my name is Alex', 'yes']);
    expect(log.interim).toEqual(['my na', null, null, null]);
    await session.stop();
    expect(events).toBeNull();
  });

  it('closes the microphone when the live recogniser fails for good', async () => {
    let events: LiveRecognitionEvents | null = null;
    const live: LiveRecognizer = { kind: 'live', name: 'live', onDevice: false, start: (_l, e) => (events = e), stop: () => undefined };
    const { mic, session, log } = setup({ stt: live });
    await session.start();
    events!.failed(new ServiceError('stt', 'missing', 'audio-capture'));
    expect(mic.closed).toBe(1);
    expect(session.state.microphone).toBe('failed');
    expect(log.problems).toEqual(['recognition:missing']);
  });

  it('gives transcription the ISO 639-1 code of the flow language', () => {
    expect(isoLanguage('en-US')).toBe('en');
    expect(isoLanguage('pt_BR')).toBe('pt');
    expect(isoLanguage('de')).toBe('de');
  });
});
