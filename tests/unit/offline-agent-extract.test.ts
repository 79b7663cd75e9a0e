// The offline agent's value extraction: names, emails, phones, dates, times, numbers, choices.

import { describe, expect, it } from 'vitest';
import {
  bareName,
  bareText,
  extractChoice,
  extractDate,
  extractEmail,
  extractName,
  extractNumber,
  extractPhone,
  extractTime,
  type NamePart,
} from '../../src/adapters/offline-agent/extract.ts';
import { spokenToDigits } from '../../src/adapters/offline-agent/numbers.ts';

describe('names', () => {
  it.each<[string, NamePart, string | undefined]>([
    ['My name is Alex', 'first', 'Alex'],
    ['my name is alex', 'first', 'Alex'],
    ["I'm Alex", 'first', 'Alex'],
    ['i am alex, nice to meet you', 'first', 'Alex'],
    ['Call me Al', 'first', 'Al'],
    ['you can call me Mary-Jane', 'first', 'Mary-Jane'],
    ['My name is Jane Smith', 'full', 'Jane Smith'],
    ['My name is Jane Smith', 'first', 'Jane'],
    ['My name is Jane Smith', 'last', 'Smith'],
    ['hi, I am jane smith and my email is jane@example.com', 'full', 'Jane Smith'],
    ["My name's Ruairí O'Neill", 'full', "Ruairí O'Neill"],
    ['my name is DeShawn', 'first', 'DeShawn'],
    ["It's Alice", 'first', 'Alice'],
    ["I'm not sure", 'first', undefined],
    ["I'm fine, thanks", 'first', undefined],
    ["I'm twenty two", 'first', undefined],
    ['blue', 'first', undefined],
  ])('%j (%s) → %j', (text, part, expected) => {
    expect(extractName(text, part)?.value).toBe(expected);
  });

  it('gives the span of the whole introduction', () => {
    const f = extractName('Hello, my name is Alex.', 'first');
    expect(f).toEqual({ value: 'Alex', start: 7, end: 22 });
  });

  it.each<[string, NamePart, string | undefined]>([
    ['Alex', 'first', 'Alex'],
    ['alex.', 'first', 'Alex'],
    ['um, alex please', 'first', 'Alex'],
    ["it's alex", 'first', 'Alex'],
    ['alex smith', 'first', 'Alex'],
    ['alex smith', 'full', 'Alex Smith'],
    ['hmm', 'first', undefined],
    ['yes', 'first', undefined],
    ['what do you mean?', 'first', undefined],
    ['I do not know', 'first', undefined],
    ['my name is something you will never guess', 'full', undefined],
  ])('a bare name: %j (%s) → %j', (text, part, expected) => {
    expect(bareName(text, part)).toBe(expected);
  });

  it('takes a bare free-text answer but not a question', () => {
    expect(bareText("It's the blue door, please")).toBe('the blue door');
    expect(bareText('where is the toilet?')).toBeUndefined();
  });
});

describe('emails', () => {
  it.each<[string, string | undefined]>([
    ['alex@example.com', 'alex@example.com'],
    ['My email is Alex.Smith@Example.co.uk.', 'alex.smith@example.co.uk'],
    ['alex at example dot com', 'alex@example.com'],
    ['my email is alex at example dot com thanks', 'alex@example.com'],
    ['alex dot smith at gmail dot com', 'alex.smith@gmail.com'],
    ['alex underscore smith at example dot co dot uk', 'alex_smith@example.co.uk'],
    ['mary dash jane at example dot org', 'mary-jane@example.org'],
    ['a l e x at example dot com', 'alex@example.com'],
    ['alex at example.com', 'alex@example.com'],
    ["I'm at the desk", undefined],
    ['alex at example', undefined],
  ])('%j → %j', (text, expected) => {
    expect(extractEmail(text)?.value).toBe(expected);
  });
});

describe('phone numbers', () => {
  it.each<[string, string | undefined]>([
    ['my number is 555-123-4567', '555-123-4567'],
    ['+44 20 7946 0958', '+44 20 7946 0958'],
    ['(555) 123-4567', '5551234567'],
    ['five five five one two three four', '5551234'],
    ['oh seven seven double nine one two three four five six', '07799123456'],
    ['plus four four two oh seven nine four six oh nine five eight', '+442079460958'],
    ['I am 22', undefined],
    ['call me on 12 34', undefined],
  ])('%j → %j', (text, expected) => {
    expect(extractPhone(text)?.value).toBe(expected);
  });
});

describe('dates', () => {
  it.each<[string, string, string | undefined]>([
    ['15 March 1995', '15 March 1995', '1995-03-15'],
    ['I was born on March 15th 1995', 'March 15th 1995', '1995-03-15'],
    ['March 15, 1995', 'March 15, 1995', '1995-03-15'],
    ['15/03/1995', '15/03/1995', '1995-03-15'],
    ['03/15/1995', '03/15/1995', '1995-03-15'],
    ['1995-03-15', '1995-03-15', '1995-03-15'],
    ['the 3rd of May 2001', '3rd of May 2001', '2001-05-03'],
    ['the third of may two thousand and one', '3rd of May 2001', '2001-05-03'],
    ['fifteen march nineteen ninety five', '15 March 1995', '1995-03-15'],
    ['May the twenty first, twenty twenty four', 'May the 21st, 2024', '2024-05-21'],
    ['29 Feb 2000', '29 Feb 2000', '2000-02-29'],
    ['May 20th', 'May 20th', undefined],
  ])('%j → %j, %j', (text, spoken, iso) => {
    expect(extractDate(text)?.value).toEqual({ spoken, ...(iso ? { iso } : {}) });
  });

  it.each(['31 April 2001', '29 February 2001', '45/03/1995', 'next Tuesday', 'may I come in'])('no date in %j', (text) => {
    expect(extractDate(text)).toBeUndefined();
  });

  it('gives the span in the original words', () => {
    const text = 'born the third of May two thousand and one, thanks';
    const f = extractDate(text)!;
    expect(text.slice(f.start, f.end)).toBe('the third of May two thousand and one');
  });
});

describe('times', () => {
  it.each<[string, string, string]>([
    ['at 2 pm', '2 PM', '14:00'],
    ['2:30pm please', '2:30 PM', '14:30'],
    ['ten a.m.', '10 AM', '10:00'],
    ['two thirty p m', '2:30 PM', '14:30'],
    ['14:45', '14:45', '14:45'],
    ["at three o'clock", "3 o'clock", '03:00'],
    ['noon', '12 PM', '12:00'],
    ['12 am', '12 AM', '00:00'],
  ])('%j → %j, %j', (text, spoken, hhmm) => {
    expect(extractTime(text)?.value).toEqual({ spoken, hhmm });
  });

  it('finds no time in "I am 22"', () => {
    expect(extractTime('I am 22')).toBeUndefined();
  });
});

describe('numbers', () => {
  it.each<[string, boolean, number | undefined]>([
    ['22', false, 22],
    ["I'm 22 years old", false, 22],
    ['twenty two', false, 22],
    ['twenty-two', false, 22],
    ['one hundred and five', false, 105],
    ['a hundred', false, 100],
    ['three thousand two hundred', false, 3200],
    ['zero', false, 0],
    ['3.5 please', false, 3.5],
    ['3.5 please', true, undefined],
    ['minus -4', false, -4],
    ['the 3rd', false, undefined],
    ['none', false, undefined],
  ])('%j (integer: %s) → %j', (text, integer, expected) => {
    expect(extractNumber(text, integer)?.value).toBe(expected);
  });

  it('rewrites spoken numbers as digits and keeps the way back to the original', () => {
    const text = 'I have twenty two cats and nineteen ninety five dogs, oh one two';
    const d = spokenToDigits(text);
    expect(d.text).toBe('I have 22 cats and 1995 dogs, 0 1 2');
    const [start, end] = d.from[d.text.indexOf('1995')]!;
    expect(text.slice(start, end)).toBe('nineteen ninety five');
    expect(spokenToDigits('the first of june, double five').text).toBe('the 1st of june, 55');
    expect(spokenToDigits('oh yes, one').text).toBe('oh yes, 1');
    expect(spokenToDigits('one hundred and, well, constructor toString').text).toBe('100 and, well, constructor toString');
  });
});

describe('choices', () => {
  const colours = ['red', 'green', 'blue', 'yellow'].map((c) => ({ value: c, names: [c] }));

  it.each<[string, string | undefined]>([
    ['blue', 'blue'],
    ['Blue please', 'blue'],
    ['I think GREEN, or maybe red', 'green'],
    ['blueberry', undefined],
    ['purple', undefined],
  ])('%j → %j', (text, expected) => {
    expect(extractChoice(text, colours)?.value).toBe(expected);
  });

  it('matches option labels and multi-word values and gives back the value', () => {
    const choices = [
      { value: 'walk_in', names: ['walk_in'] },
      { value: 'appt', names: ['appt', 'Booked appointment'] },
      { value: 2, names: ['2'] },
    ];
    expect(extractChoice("I'm a walk in", choices)?.value).toBe('walk_in');
    expect(extractChoice('I have a booked appointment', choices)?.value).toBe('appt');
    expect(extractChoice('2', choices)?.value).toBe(2);
  });
});
