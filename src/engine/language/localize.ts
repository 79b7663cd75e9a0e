// A flow in one language. Every text a person reads or hears may be written as a map from
// language to text (syntax.ts marks where: `localized`); this walks the document beside the
// syntax table and puts in each such place the text for the visit's language, so that the
// normalizer, the engine and the screen only ever see plain strings.
//
// Lookup, for the visit's language: its exact tag, then its primary subtag (`de` for `de-AT`),
// then the flow's `language` the same way, then the first text written.

import { dict, own } from './records.ts';
import { fits } from './structure-check.ts';
import type { Shape } from './syntax.ts';

/** The primary subtag of a language tag, lower case: `de` for `de-DE`. */
export function primaryLanguage(tag: string): string {
  return tag.split('-')[0]!.toLowerCase();
}

/** The name in English of a tag's language, for messages and prompts: "German" for de-DE (the tag says the rest). */
export function languageName(tag: string): string {
  try {
    // One DisplayNames for every call: making one costs a few milliseconds, and every state of a
    // flow of several languages names them (the set_language tool).
    englishNames ??= new Intl.DisplayNames(['en'], { type: 'language' });
    return englishNames.of(primaryLanguage(tag)) ?? tag;
  } catch {
    return tag;
  }
}

let englishNames: Intl.DisplayNames | undefined;

/** Whether a map key (a tag or a primary subtag) serves the language `tag`. */
export function keyServes(key: string, tag: string): boolean {
  return key.toLowerCase() === tag.toLowerCase() || key.toLowerCase() === primaryLanguage(tag);
}

/** The entry of a text map for `language`, falling back to `fallback`'s, then to the first. */
export function pickText<T>(texts: Readonly<Record<string, T>>, language: string, fallback: string): T | undefined {
  const keys = Object.keys(texts);
  const exact = (tag: string) => keys.find((k) => k.toLowerCase() === tag.toLowerCase());
  const primary = (tag: string) => keys.find((k) => k.toLowerCase() === primaryLanguage(tag));
  const key = exact(language) ?? primary(language) ?? exact(fallback) ?? primary(fallback) ?? keys[0];
  return key === undefined ? undefined : texts[key];
}

/** Calls `visit` with each text map of the document and where it is. */
export function forEachTextMap(shape: Shape, value: unknown, visit: (texts: Record<string, unknown>, path: (string | number)[], list: boolean) => void, path: (string | number)[] = []): void {
  walk(shape, value, path, (texts, at, list) => {
    visit(texts, at, list);
    return texts;
  });
}

/** The document with every text map replaced by its text for `language` (a copy; the input is not changed). */
export function localizeDocument(shape: Shape, document: unknown, language: string, fallback: string): unknown {
  return walk(shape, document, [], (texts) => pickText(texts, language, fallback) ?? null);
}

type Replace = (texts: Record<string, unknown>, path: (string | number)[], list: boolean) => unknown;

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Copies `value` along `shape`, handing each text map to `replace`. Parts the shape does not describe are kept as they are. */
function walk(shape: Shape, value: unknown, path: (string | number)[], replace: Replace): unknown {
  switch (shape.kind) {
    case 'union': {
      if (shape.localized && isMapping(value)) return replace(value, path, shape.localized === 'list');
      const option = shape.options.find((o) => fits(o, value));
      return option ? walk(option, value, path, replace) : value;
    }
    case 'array':
      return Array.isArray(value) ? value.map((item, i) => walk(shape.items, item, [...path, i], replace)) : value;
    case 'map':
      return isMapping(value) ? mapEntries(value, (k, v) => walk(shape.values, v, [...path, k], replace)) : value;
    case 'object':
      if (!isMapping(value)) return value;
      return mapEntries(value, (k, v) => {
        const prop = own(shape.props, k);
        return prop ? walk(prop.shape, v, [...path, k], replace) : v;
      });
    default:
      return value;
  }
}

function mapEntries(value: Record<string, unknown>, each: (key: string, v: unknown) => unknown): Record<string, unknown> {
  return dict(Object.entries(value).map(([k, v]) => [k, each(k, v)] as const));
}
