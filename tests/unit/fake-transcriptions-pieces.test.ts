// The transcription double answering a line committed in pieces (the kiosk's early start commits
// at pauses): each piece gets its share of the line's words, the last the rest, so the pieces'
// words joined are the line; a whole line is answered whole, and too much speech is flagged.

import { describe, expect, it } from 'vitest';
import { FakeTranscriptions } from '../servers/fake-transcriptions.ts';

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
});
