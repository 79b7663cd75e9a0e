// The matcher behind `vfdl test`'s expectations: mappings match a subset of an object's fields,
// lists match exactly, scalars match when equal, null matches unset, and $contains, $matches and
// $includes say otherwise. Bad patterns are reported where they are written.

import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { explain, match, readPattern, type Pattern } from '../../src/cli/expect-pattern.ts';

/** Reads a pattern from YAML text; throws with the problems when it is not valid. */
function pattern(yaml: string): Pattern {
  const { problems, result } = read(yaml);
  if (!result || problems.length) throw new Error(problems.join('\n'));
  return result;
}

function read(yaml: string): { problems: string[]; result: Pattern | undefined } {
  const doc = parseDocument(yaml);
  const problems: string[] = [];
  const result = readPattern(doc.contents, { doc, problem: (_node, message) => problems.push(message) });
  return { problems, result };
}

const matches = (yaml: string, actual: unknown) => match(pattern(yaml), actual).length === 0;

describe('matching a value against a pattern', () => {
  it.each([
    ['text is equal', 'Alex', 'Alex', true],
    ['text differs', 'Alex', 'alex', false],
    ['no conversion between text and number', '"1"', 1, false],
    ['numbers', '2', 2, true],
    ['booleans', 'true', true, true],
    ['null matches unset', 'null', undefined, true],
    ['null matches null', 'null', null, true],
    ['null does not match a value', 'null', '', false],
    ['a mapping matches a subset of the fields', '{ type: speech_cue }', { type: 'speech_cue', text: 'Hi' }, true],
    ['a mapping needs each field it names', '{ type: speech_cue, reason: captured }', { type: 'speech_cue', text: 'Hi' }, false],
    ['nested mappings are subsets too', '{ variables: { first_name: Alex } }', { variables: { first_name: 'Alex', color: 'red' } }, true],
    ['a null field matches a field that is absent', '{ field: null }', { type: 'tool_rejected' }, true],
    ['a mapping does not match a list', '{ a: 1 }', [1], false],
    ['a list matches the same items in order', '[a, b]', ['a', 'b'], true],
    ['a list does not match a longer list', '[a]', ['a', 'b'], false],
    ['a list does not match another order', '[a, b]', ['b', 'a'], false],
    ['an empty list matches only an empty list', '[]', [], true],
    ['an empty list does not match a list with items', '[]', ['a'], false],
    ['mappings inside a list are subsets', '[{ id: a }]', [{ id: 'a', label: 'A' }], true],
    ['$contains finds a substring', '{ $contains: "heard Alex" }', 'I heard Alex. Is that right?', true],
    ['$contains is case-sensitive', '{ $contains: "heard alex" }', 'I heard Alex.', false],
    ['$contains needs text', '{ $contains: "1" }', 1, false],
    ['$matches tests a regular expression, not anchored', '{ $matches: "Alex\\\\.\\\\s+Is" }', 'I heard Alex. Is that right?', true],
    ['$matches can be anchored', '{ $matches: "^Alex$" }', 'I heard Alex', false],
    ['$includes: the items in any order, others allowed', '{ $includes: [c, a] }', ['a', 'b', 'c'], true],
    ['$includes: a missing item', '{ $includes: [d] }', ['a', 'b', 'c'], false],
    ['$includes: not a list', '{ $includes: [a] }', 'a', false],
    ['operators inside mappings', '{ agent: { system_prompt: { $contains: Ask } } }', { agent: { system_prompt: 'Ask them' } }, true],
  ])('%s', (_name, yaml, actual, expected) => {
    expect(matches(yaml, actual)).toBe(expected);
  });

  it('never takes a field from Object.prototype', () => {
    expect(matches('{ constructor: null, toString: null, __proto__: null }', {})).toBe(true);
    expect(matches('{ constructor: x }', {})).toBe(false);
    expect(matches('{ hasOwnProperty: { $contains: "" } }', { hasOwnProperty: 'own' })).toBe(true);
  });
});

describe('what a mismatch says', () => {
  it('names the path, what was there and what was expected', () => {
    const p = pattern('{ reason: pending_confirmation, variables: { first_name: Alex }, list: [1, 2] }');
    const got = { reason: 'guard_failed', variables: { first_name: 'Alec' }, list: [1, 3] };
    expect(explain(match(p, got))).toEqual([
      'reason is "guard_failed", expected "pending_confirmation"',
      'variables.first_name is "Alec", expected "Alex"',
      'list[1] is 3, expected 2',
    ]);
  });

  it('says unset for a missing field, and describes operators', () => {
    expect(explain(match(pattern('{ text: { $contains: Hi } }'), {}), 'message')).toEqual(['message.text is unset, expected text containing "Hi"']);
    expect(explain(match(pattern('{ $matches: "^a+$" }'), 'b'))).toEqual(['the value is "b", expected text matching /^a+$/']);
    expect(explain(match(pattern('{ $includes: [x] }'), ['a']), 'tools')).toEqual(['tools is ["a"], expected a list including "x"']);
    expect(explain(match(pattern('[a, b]'), ['a']), 'required')).toEqual(['required is ["a"], expected ["a", "b"]']);
  });

  it('shortens long values', () => {
    const [line] = explain(match(pattern('x'), 'y'.repeat(500)));
    expect(line!.length).toBeLessThan(260);
    expect(line).toContain('…');
  });
});

describe('patterns that cannot be read', () => {
  it.each([
    ['{ $contain: x }', 'unknown operator "$contain" (did you mean "$contains"?)'],
    ['{ $matches: "(" }', '$matches: not a valid regular expression'],
    ['{ $contains: [x] }', '$contains takes text'],
    ['{ $includes: x }', '$includes takes a list'],
    ['{ $contains: x, text: y }', 'an operator stands alone in its mapping'],
    ['{ a: { $nope: 1 } }', 'unknown operator "$nope"'],
  ])('%s', (yaml, message) => {
    const { problems, result } = read(yaml);
    expect(result).toBeUndefined();
    expect(problems.join('\n')).toContain(message);
  });
});
