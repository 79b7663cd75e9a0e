// The offline agent's value extraction: names, emails, phones, dates, times, numbers, choices,
// and the words that deny a value ("not red").

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
import { hearChoice } from '../../src/adapters/offline-agent/choices.ts';
import { dateInWords, extractImpossibleDate } from '../../src/adapters/offline-agent/dates.ts';
import { isNegated } from '../../src/adapters/offline-agent/negation.ts';
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
    ['my name is maria van der berg', 'full', 'Maria van der Berg'],
    ['my name is maria van der berg', 'last', 'van der Berg'],
    ['my name is maria van der berg', 'first', 'Maria'],
    ["I'm Dr. Jane Smith", 'full', 'Jane Smith'],
    ["I'm Dr. Jane Smith", 'first', 'Jane'],
    ["I'm Dr Smith", 'first', undefined],
    ["I'm Dr Smith", 'last', 'Smith'],
    ['my name is DA SILVA', 'full', 'da Silva'],
    ['call me mcdonald', 'full', 'McDonald'],
    ["no, it's wrong, it's Marta", 'first', 'Marta'],
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
    ['van der berg', 'full', 'van der Berg'],
    ['van der berg', 'first', undefined],
    ['Van der Berg', 'full', 'Van der Berg'],
    ['maria van der berg', 'full', 'Maria van der Berg'],
    ['Dr Smith', 'full', 'Smith'],
    ['doctor jane smith', 'full', 'Jane Smith'],
    ['Dr.', 'full', undefined],
    ['maria van', 'full', undefined],
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

  it.each<[string, { month: number; year?: number; days: number } | undefined]>([
    ['31 February 1990', { month: 2, year: 1990, days: 28 }],
    ['the thirtieth of february', { month: 2, days: 29 }],
    ['31/04/2001', { month: 4, year: 2001, days: 30 }],
    ['29 February 2000', undefined],
    ['5 March 1984, not 31 February', undefined],
    ['next Tuesday', undefined],
  ])('a day the month does not have: %j → %j', (text, expected) => {
    expect(extractImpossibleDate(text)?.value).toEqual(expected);
  });

  it('says a date in words, one way', () => {
    expect(dateInWords('1984-03-05')).toBe('March 5, 1984');
    expect(dateInWords('2000-02-29')).toBe('February 29, 2000');
    expect(dateInWords('1990-02-31')).toBeUndefined();
    expect(dateInWords('March 5')).toBeUndefined();
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
    ['doctor lindqvist at half past ten', '10:30', '10:30'],
    ['a quarter past nine', '9:15', '09:15'],
    ['quarter to one', '12:45', '12:45'],
    ['ten thirty', '10:30', '10:30'],
    ['at ten forty five please', '10:45', '10:45'],
  ])('%j → %j, %j', (text, spoken, hhmm) => {
    expect(extractTime(text)?.value).toEqual({ spoken, hhmm });
  });

  it.each(['I am 22', 'half to ten', 'room 10 30', 'nineteen ninety'])('finds no time in %j', (text) => {
    expect(extractTime(text)).toBeUndefined();
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

  const hosts = ['Priya Shah', 'Tom Becker', 'Ana Souza', 'Facilities'].map((h) => ({ value: h, names: [h] }));
  const doctors = ['Dr. Okafor', 'Dr. Lindqvist', 'Dr. Moreau'].map((d) => ({ value: d, names: [d] }));
  const reasons = [
    { value: 'appointment', names: ['appointment', 'Appointment'], phrases: ['I have a booked appointment'] },
    { value: 'walk_in', names: ['walk_in', 'Walk-in visit'], phrases: ["I don't have an appointment"] },
    { value: 'prescription', names: ['prescription', 'Prescription collection'], phrases: ["I'm here to collect a prescription"] },
  ];

  it.each<[string, readonly { value: unknown; names: readonly string[] }[], unknown]>([
    ['Tom', hosts, 'Tom Becker'],
    ['becker please', hosts, 'Tom Becker'],
    ["I'm here to see Priya Shah", hosts, 'Priya Shah'],
    ['Dr Lindqvist', doctors, 'Dr. Lindqvist'],
    ['doctor moreau at ten', doctors, 'Dr. Moreau'],
    ['the doctor', doctors, undefined],
    ["I don't have an appointment", reasons, 'walk_in'],
    ['I do not have an appointment', reasons, 'walk_in'],
    ['I have an appointment', reasons, 'appointment'],
    ['just a walkin', reasons, 'walk_in'],
    ['a prescription please, not an appointment', reasons, 'prescription'],
  ])('by part of a label, a description or inside a sentence: %j → %j', (text, choices, expected) => {
    expect(extractChoice(text, choices)?.value).toBe(expected);
  });

  it.each<[string, string | undefined, string[]]>([
    ["I don't like blue", undefined, ['blue']],
    ['not red, green', 'green', ['red']],
    ['green rather than red', 'green', ['red']],
    ['blue, no, yellow', 'yellow', []],
    ['no blue', undefined, ['blue']],
    ['no, blue', 'blue', []],
    ['never red or yellow', undefined, ['red', 'yellow']],
  ])('not a choice the visitor denies: %j → %j, declined %j', (text, chosen, declined) => {
    const heard = hearChoice(text, colours);
    expect(heard.chosen?.value).toBe(chosen);
    expect(heard.declined.map((d) => d.value.value)).toEqual(declined);
  });
});

describe('negation', () => {
  it.each<[string, string, boolean]>([
    ["I don't like blue", 'blue', true],
    ['not red, green', 'green', false],
    ['not red, green', 'red', true],
    ['I do not want the 5th but the 6th', '6th', false],
    ['I do not want the 5th but the 6th', '5th', true],
    ['no appointment', 'appointment', true],
    ['no I have an appointment', 'appointment', false],
    ['I would like blue', 'blue', false],
  ])('in %j, %j is denied: %s', (text, word, negated) => {
    expect(isNegated(text, text.lastIndexOf(word))).toBe(negated);
  });
});
