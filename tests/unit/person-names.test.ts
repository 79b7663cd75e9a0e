// The `name` value type: a person's name written the way names are written, whoever captured it.

import { describe, expect, it } from 'vitest';
import { writeName } from '../../src/engine/language/person-names.ts';
import { convertValue } from '../../src/engine/language/values.ts';

describe('writeName', () => {
  it.each([
    ['maria', 'Maria'],
    ['MARIA GARCIA', 'Maria Garcia'],
    ['  maria   van der berg ', 'Maria van der Berg'],
    ['van der berg', 'van der Berg'],
    ["o'neil", "O'Neil"],
    ['anne-marie mcdonald', 'Anne-Marie McDonald'],
    ['DeShawn', 'DeShawn'],
    ['Maria de la Cruz', 'Maria de la Cruz'],
    ['josé ÁLVAREZ', 'josé ÁLVAREZ'],
    ['józef', 'Józef'],
  ])('writes %j as %j', (typed, written) => {
    expect(writeName(typed)).toBe(written);
  });
});

describe('the name type', () => {
  it('converts text, and refuses what is not text', () => {
    expect(convertValue('name', 'maria')).toEqual({ ok: true, value: 'Maria' });
    expect(convertValue('name', 42).ok).toBe(false);
    expect(convertValue('name', {}).ok).toBe(false);
  });
});
