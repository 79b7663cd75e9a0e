// The kiosk's voice over OpenAI's speech API, streamed: against the speech double and an audio
// clock that runs in real time. A sentence can start once its first audio is here; its chunks
// and the next sentence go on the clock back to back; a stall, a stop and a service that knows
// no pcm each end as they should.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenAISpeech, type OpenAISpeechOptions } from '../../src/adapters/openai/speech.ts';
import { ServiceError } from '../../src/ports/service-error.ts';
import { BrokenOff, type SpokenClip } from '../../src/ports/text-to-speech.ts';
import { Speaker } from '../../src/voice/speaker.ts';
import { FakeAudioContext, type FakeSource } from '../support/fake-audio-context.ts';
import { startFakeOpenAI, type FakeOpenAI } from '../servers/openai-fakes.ts';

let fake: FakeOpenAI;
beforeAll(async () => (fake = await startFakeOpenAI()));
afterAll(() => fake.close());
beforeEach(() => fake.reset());

function voice(context: FakeAudioContext, options: Partial<OpenAISpeechOptions> = {}): OpenAISpeech {
  return new OpenAISpeech({ baseURL: fake.baseURL, model: 'tts-1', voice: 'alloy', audioContext: () => context.asAudioContext(), ...options });
}

const en = (signal?: AbortSignal) => ({ language: 'en-US', ...(signal ? { signal } : {}) });

/** The seconds of audio the pieces hold, and whether each starts exactly where the one before ends. */
function backToBack(pieces: FakeSource[]): { seconds: number; gaps: number[] } {
  const gaps = pieces.slice(1).map((p, i) => p.startAt! - (pieces[i]!.startAt! + pieces[i]!.duration));
  return { seconds: pieces.reduce((sum, p) => sum + p.duration, 0), gaps };
}

async function play(clip: SpokenClip, signal = new AbortController().signal, onScheduled = () => {}) {
  let startedAt: number | null = null;
  let scheduled = false;
  await clip.play(
    signal,
    () => (startedAt = performance.now()),
    () => {
      scheduled = true;
      onScheduled();
    },
  );
  return { startedAt, scheduled };
}

describe('streamed pcm', () => {
  it('is ready with its first chunk, plays the chunks back to back, and ends once the last has sounded', async () => {
    const context = new FakeAudioContext();
    Object.assign(fake.tts, { durationFor: () => 2000, chunkMs: 100, realTimeFactor: 0.5 });
    const clip = await voice(context).prepare('A long first sentence.', en());
    const delivery = fake.tts.deliveries[0]!;
    // Ready long before the double has sent the rest (19 more chunks, 50 ms apart).
    expect(delivery.sent).toBeLessThan(delivery.chunks);
    expect(fake.tts.requests[0]!.response_format).toBe('pcm');

    // The sound arrives faster than it plays; the clock waits for it, so that a starved test
    // process cannot let the audio run dry between two chunks (a gap that would be right then).
    context.hold();
    const { scheduled } = await play(clip, undefined, () => context.release());
    expect(delivery.sent).toBe(20);
    expect(scheduled).toBe(true);
    const pieces = context.started;
    const { seconds, gaps } = backToBack(pieces);
    expect(seconds).toBeCloseTo(2, 6);
    for (const gap of gaps) expect(Math.abs(gap)).toBeLessThan(1e-9);
    expect(context.currentTime).toBeGreaterThanOrEqual(pieces.at(-1)!.startAt! + pieces.at(-1)!.duration - 0.01);
    expect(pieces.every((p) => p.ended && !p.stopped && !p.connected)).toBe(true);
  });

  it('puts the next sentence, ready in time, exactly where the one before ends', async () => {
    const context = new FakeAudioContext();
    fake.tts.durationFor = (text) => (text.startsWith('One') ? 600 : 400);
    const started: string[] = [];
    const ends: number[] = [];
    const speaker = new Speaker([voice(context, { queuedUntil: (end) => ends.push(end) })], 'en-US', { speaking: () => {}, sentenceStarted: (text) => started.push(text), failed: () => {} });
    // Both sentences are ready before the first has played: the clock waits until all of their
    // second of audio is on it.
    context.hold();
    speaker.say('One sentence first.');
    speaker.say('Two.');
    await context.whenQueued(1);
    context.release();
    await speaker.idle();
    expect(started).toEqual(['One sentence first.', 'Two.']);
    const { seconds, gaps } = backToBack(context.started);
    expect(seconds).toBeCloseTo(1, 6);
    for (const gap of gaps) expect(Math.abs(gap)).toBeLessThan(1e-9);
    // The page's audio is told, piece by piece, where what is queued ends: at last the second sentence's end.
    const last = context.started.at(-1)!;
    expect(ends.at(-1)).toBeCloseTo(last.startAt! + last.duration, 9);
    expect(ends).toEqual([...ends].sort((a, b) => a - b));
  });

  it('breaks off after what had arrived has played when the stream stalls: a timeout, and the request dropped', async () => {
    const context = new FakeAudioContext();
    Object.assign(fake.tts, { durationFor: () => 3000, holdAfterChunks: 3 });
    // The stall is what times out, never the first chunks: 300 ms was outrun by a loaded machine
    // (the unit tests beside the browser tests in npm test) before the double's first chunk came.
    const clip = await voice(context, { timeoutMs: 1500 }).prepare('A sentence that stalls.', en());
    const error = await play(clip).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ service: 'tts', failure: 'timeout' });
    const pieces = context.started;
    expect(backToBack(pieces).seconds).toBeCloseTo(0.3, 6);
    // It says how much of the sentence was heard, so the voice taking over can go on from there.
    expect(error).toBeInstanceOf(BrokenOff);
    expect((error as BrokenOff).heardSeconds).toBeCloseTo(0.3, 6);
    expect(pieces.every((p) => p.ended)).toBe(true);
    await fake.tts.whenAborted(1);
  });

  it('stops every queued piece at once on abort, and the double sees the request go', async () => {
    const context = new FakeAudioContext();
    Object.assign(fake.tts, { durationFor: () => 10_000, realTimeFactor: 1 });
    const controller = new AbortController();
    const clip = await voice(context).prepare('A very long sentence.', en(controller.signal));
    let sounding!: () => void;
    const sounded = new Promise<void>((resolve) => (sounding = resolve));
    const playing = clip.play(controller.signal, sounding);
    await sounded;
    // Held, the clock lets no piece run out: the play can only end by the stop.
    context.hold();
    controller.abort();
    await playing;
    expect(context.started.length).toBeGreaterThan(0);
    expect(context.started.every((p) => p.stopped && !p.connected)).toBe(true);
    await fake.tts.whenAborted(1);
    expect(fake.tts.deliveries[0]!.sent).toBeLessThan(fake.tts.deliveries[0]!.chunks);
  });
});

describe('volume', () => {
  it('plays every piece through one gain node of the voice, which a change of volume moves at once', async () => {
    const context = new FakeAudioContext();
    const speech = voice(context);
    speech.setVolume(0.5);
    const clip = await speech.prepare('Hello.', en());
    const playing = play(clip);
    await context.whenQueued(0.3);
    const [gain] = context.gains;
    expect(context.gains).toHaveLength(1);
    expect(gain!.gain.value).toBe(0.5);
    expect(gain!.connectedTo).toBe(context.destination);
    expect(context.sources.every((s) => s.connectedTo === gain)).toBe(true);
    speech.setVolume(0.125); // while it speaks
    expect(gain!.gain.value).toBe(0.125);
    await playing;
    await play(await speech.prepare('Again.', en()));
    expect(context.gains).toHaveLength(1);
  });

  it('is silent at once while held (someone may be speaking over it), and as loud as it was when let go', async () => {
    const context = new FakeAudioContext();
    const speech = voice(context);
    speech.setVolume(0.5);
    const playing = play(await speech.prepare('Hello.', en()));
    await context.whenQueued(0.3);
    const [gain] = context.gains;
    speech.hold(true);
    expect(gain!.gain.value).toBe(0);
    speech.setVolume(0.75); // a change while held waits for the hold to end
    expect(gain!.gain.value).toBe(0);
    speech.hold(false);
    expect(gain!.gain.value).toBe(0.75);
    await playing;
  });
});

describe('voices by language', () => {
  it("asks for the language's own voice (by tag, then primary subtag), and the default voice for the rest", async () => {
    const context = new FakeAudioContext();
    const speech = voice(context, { byLanguage: { de: 'thorsten', 'pt-br': 'faber', pt: 'tugao' } });
    for (const language of ['de-DE', 'pt-BR', 'pt-PT', 'fr-FR', 'constructor']) await play(await speech.prepare('Hallo.', { language }));
    expect(fake.tts.requests.map((r) => r.voice)).toEqual(['thorsten', 'faber', 'tugao', 'alloy', 'alloy']);
  });
});

describe('pcm refused', () => {
  it('asks again for WAV, and for WAV only for the rest of the visit', async () => {
    const context = new FakeAudioContext();
    fake.tts.refusePcm = true;
    const speech = voice(context);
    await play(await speech.prepare('One.', en()));
    await play(await speech.prepare('Two.', en()));
    expect(fake.tts.requests.map((r) => `${r.input} ${r.response_format}`)).toEqual(['One. pcm', 'One. wav', 'Two. wav']);
    expect(context.started.map((p) => p.duration)).toEqual([0.3, 0.3]);
  });

  it('takes an answer that is not audio as a refusal too', async () => {
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const wav = (JSON.parse(body) as { response_format: string }).response_format === 'wav';
        if (!wav) return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>a proxy page</html>');
        void fetch(`${fake.baseURL}/audio/speech`, { method: 'POST', body, headers: { 'content-type': 'application/json' } }).then(async (r) => {
          res.writeHead(200, { 'content-type': 'audio/wav' }).end(Buffer.from(await r.arrayBuffer()));
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const context = new FakeAudioContext();
      const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      await play(await voice(context, { baseURL }).prepare('Hello.', en()));
      expect(context.started).toHaveLength(1);
    } finally {
      server.close();
    }
  });

  it('with pcm forced, a refusal is the voice failing (the next voice takes over); with wav forced, pcm is never asked for', async () => {
    fake.tts.refusePcm = true;
    const refused = await voice(new FakeAudioContext(), { format: 'pcm' }).prepare('One.', en()).then(() => null, (e: unknown) => e);
    expect(refused).toMatchObject({ service: 'tts', failure: 'malformed' });
    fake.tts.requests.length = 0;
    await play(await voice(new FakeAudioContext(), { format: 'wav' }).prepare('Two.', en()));
    expect(fake.tts.requests.map((r) => r.response_format)).toEqual(['wav']);
  });
});
