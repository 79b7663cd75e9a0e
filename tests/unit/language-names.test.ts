// The language choices' names and directions: each language in its own name, the region only
// where two choices share a language, right to left for Arabic and its kin.

import { describe, expect, it } from 'vitest';
import { directionOf, ownName } from '../../src/ui/i18n/language-names.ts';

describe('ownName', () => {
  it('names each language in itself, capitalised as a label', () => {
    const five = ['en-US', 'de-DE', 'fr-FR', 'es-ES', 'ar'];
    expect(five.map((tag) => ownName(tag, five))).toEqual(['English', 'Deutsch', 'Français', 'Español', 'العربية']);
  });

  it('names the region only when two choices share a language', () => {
    expect(ownName('en-GB', ['en-GB', 'en-US'])).toBe('British English');
    expect(ownName('en-GB', ['en-GB', 'de-DE'])).toBe('English');
  });

  it('falls back to the tag for a language it cannot name', () => {
    expect(ownName('qaa')).toBe('qaa');
  });
});

describe('directionOf', () => {
  it.each([
    ['ar', 'rtl'],
    ['ar-EG', 'rtl'],
    ['he', 'rtl'],
    ['fa-IR', 'rtl'],
    ['en-US', 'ltr'],
    ['de', 'ltr'],
  ] as const)('%s reads %s', (tag, dir) => {
    expect(directionOf(tag)).toBe(dir);
  });
});
