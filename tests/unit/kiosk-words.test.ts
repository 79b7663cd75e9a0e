// The kiosk's own words (src/ui/i18n): every message of the English catalog formats, with its
// values put in, and counts take the right plural.

import { get } from 'svelte/store';
import { describe, expect, it } from 'vitest';
import { catalogLanguage, t, type MessageKey } from '../../src/ui/i18n/i18n.ts';
import { en } from '../../src/ui/i18n/messages-en.ts';

/** Every key of a catalog, as `area.name`. */
function keysOf(catalog: object, prefix = ''): string[] {
  return Object.entries(catalog).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : keysOf(v as object, `${prefix}${k}.`)));
}

describe("the kiosk's words", () => {
  it('formats every English message, none of them empty or left as its key', () => {
    const say = get(t);
    for (const key of keysOf(en)) {
      const message = key.split('.').reduce<unknown>((at, part) => (at as Record<string, unknown>)[part], en) as string;
      // every value the message names, as a count (a plural takes a number; a plain value shows it)
      const values = Object.fromEntries([...message.matchAll(/\{(\w+)/g)].map((m) => [m[1]!, 2]));
      const text = say(key as MessageKey, values);
      expect(text, key).not.toBe('');
      expect(text, key).not.toBe(key);
      expect(text, key).not.toMatch(/[{}]/);
    }
  });

  it('counts in words: one second, two seconds', () => {
    const say = get(t);
    expect(say('stillThere.text', { seconds: 1 })).toBe('For your privacy this screen will clear itself in 1 second.');
    expect(say('end.clearsIn', { seconds: 20 })).toBe('This screen clears itself in 20 seconds.');
    expect(say('field.confirmLabel', { label: 'Email {address}' })).toBe('Confirm Email {address}');
  });

  it('serves a language by its primary subtag, and English where there is no catalog', () => {
    expect(catalogLanguage('en-GB')).toBe('en');
    expect(catalogLanguage('tlh')).toBe('en');
  });
});
