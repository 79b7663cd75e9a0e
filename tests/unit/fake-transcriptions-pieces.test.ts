// The transcription double answering a line committed in pieces (the kiosk's early start commits
// at pauses): each piece gets its share of the line's words, the last the rest, so the pieces'
// words joined are the line; a whole line is answered whole, and too much speech is flagged. Audio
// sent again (the kiosk sends a turn again whole when the visitor goes on after a look at a pause)
// is the whole turn: its answer replaces the look's, whichever way each went.

import { describe, expect, it } from 'vitest';
import { StreamResampler } from '../../src/voice/pcm.ts';
import { FakeTranscriptions } from '../servers/fake-transcriptions.ts';

/** A made-up turn: `ms` of a tone whose loudness changes every 60 ms, as speech does, at 16 kHz. */
function turn(ms: number, seed = 1): Float32Array {
  const samples = new Float32Array((ms * 16000) / 1000);
  for (let i = 0; i < samples.length; i++) samples[i] = 0.3 * (1 + Math.sin(seed + Math.floor(i / 960))) * Math.sin(i / 7);
  return samples;
}

const at24k = (samples: Float32Array) => ({ samples: new StreamResampler(16000, 24000).push(samples), sampleRate: 24000 });

describe('the transcription double, a line in pieces', () => {
  it('gives each piece its share of the words and the last piece the rest', () => {
    const stt = new FakeTranscriptions();
    stt.script([{ text: 'I am here to collect a prescription', minSpeechMs: 1800, maxSpeechMs: 2600 }, { text: 'Tom Becker', minSpeechMs: 500 }]);
    const first = stt.answerPart(1200);
    const second = stt.answerPart(700);
    expect(first.split(' ').length).toBeGreaterThan(0);
    expect(`${first} ${second}`).toBe('I am here to collect a prescription');
    // the next line is untouched by the pieces before it
    expect(stt.answerPart(780)).toBe('Tom Becker');
  });

  it('answers a whole line whole, and flags pieces that add up to more speech than the line has', () => {
    const stt = new FakeTranscriptions();
    stt.script([{ text: 'yes please', minSpeechMs: 500, maxSpeechMs: 1300 }, { text: 'blue', minSpeechMs: 300, maxSpeechMs: 900 }]);
    expect(stt.answerPart(800)).toBe('yes please');
    expect(stt.answerPart(200)).toBe('');
    expect(stt.answerPart(900)).toBe('[unexpected segment of 1100 ms]');
    expect(stt.answerPart(0)).toBe('');
  });

  it('answers audio sent again as the whole turn, in place of the look at its start, at either rate', () => {
    const stt = new FakeTranscriptions();
    stt.script([{ text: 'my phone number is 555', minSpeechMs: 1800, maxSpeechMs: 2600 }, { text: '0199', minSpeechMs: 1000, maxSpeechMs: 1800 }, { text: 'yes' }]);
    const whole = turn(4000);
    // The look, streamed at 24 kHz: the words before the pause.
    expect(stt.answerCommit(2000, at24k(whole.subarray(0, 32000)))).toEqual({ text: 'my phone number is 555', again: false });
    // The whole turn sent again, here uploaded at 16 kHz: both parts' words, the look's replaced.
    expect(stt.answerCommit(4000, { samples: whole, sampleRate: 16000 })).toEqual({ text: 'my phone number is 555 0199', again: true });
    // Other audio is a turn of its own.
    expect(stt.answerCommit(600, { samples: turn(600, 4), sampleRate: 16000 })).toEqual({ text: 'yes', again: false });
  });
});
