// Cutting a streamed reply into sentences for speech, and what is left of one that broke off.

import { describe, expect, it } from 'vitest';
import { restOfSentence, SentenceSplitter } from '../../src/voice/sentences.ts';

/** Streams `text` in pieces of `size` characters, collecting what the splitter hands out. */
function stream(text: string, size = 3): string[][] {
  const s = new SentenceSplitter();
  const out: string[][] = [];
  for (let i = size; i < text.length; i += size) out.push(s.push(text.slice(0, i)));
  out.push(s.finish(text));
  return out;
}

describe('sentence splitting', () => {
  it('hands out each sentence once, as soon as something follows it', () => {
    const steps = stream('Thanks, Alex. Is that right? Tap Confirm!');
    expect(steps.flat()).toEqual(['Thanks, Alex.', 'Is that right?', 'Tap Confirm!']);
    // the first sentence comes out long before the stream ends
    const first = steps.findIndex((s) => s.length > 0);
    expect(first).toBeLessThan(6);
  });

  it('does not end a sentence at an abbreviation, an initial or inside a number', () => {
    const text = 'You are seeing Dr. Okafor at 10.30 today, e.g. in room 3. Please take a seat, J. Smith will call you.';
    expect(stream(text, 1).flat()).toEqual(['You are seeing Dr. Okafor at 10.30 today, e.g. in room 3.', 'Please take a seat, J. Smith will call you.']);
  });

  it('treats a line break as the end of a piece and ignores leading white space', () => {
    const s = new SentenceSplitter();
    expect(s.push('\n  Welcome\nPlease')).toEqual(['Welcome']);
    // the final text is trimmed by the conversation: the split still lines up
    expect(s.finish('Welcome\nPlease tell me your name.')).toEqual(['Please tell me your name.']);
  });

  it('cuts a very long clause at a comma so speech can start', () => {
    const long = `${'word '.repeat(30)}, and then ${'more '.repeat(20)}`;
    const s = new SentenceSplitter();
    const out = s.push(long);
    expect(out).toHaveLength(1);
    expect(out[0]!.endsWith(',')).toBe(true);
  });

  it('gives nothing for an empty reply', () => {
    expect(new SentenceSplitter().finish('   ')).toEqual([]);
  });
});

describe('the rest of a sentence that broke off', () => {
  const sentence = 'Your appointment is with Doctor Lindqvist, at half past ten, in room four.';
  it.each([
    [0, sentence],
    [2, sentence],
    [4, 'at half past ten, in room four.'],
    [5.5, 'in room four.'],
    [7, ''],
  ])('after %s s heard: "%s"', (heard, rest) => {
    expect(restOfSentence(sentence, heard)).toBe(rest);
  });

  it('takes a semicolon, a colon or a dash as the end of a clause too', () => {
    expect(restOfSentence('Two things are needed: your name – and your date of birth.', 3)).toBe('and your date of birth.');
  });
});
