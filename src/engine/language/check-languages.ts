// The checks of a flow's languages: `language` and `languages` are real language tags and the one
// is among the others; every text map speaks only the flow's languages (`unknown-language`), has a
// text for each of them (`missing-translation`, a warning: the default's text is used), and names
// in each translation only variables that exist.

import type { Catalog } from './catalog.ts';
import { didYouMean } from './diagnostics.ts';
import type { Flow } from './flow.ts';
import { TODAY } from './dates.ts';
import { templateNames } from './interpolate.ts';
import { forEachTextMap, keyServes, languageName, pickText } from './localize.ts';
import type { Reporter } from './source.ts';
import { flowShape } from './syntax.ts';

/** Whether `tag` is a well-formed BCP 47 language tag. */
function wellFormed(tag: string): boolean {
  let known = wellFormedTags.get(tag);
  if (known === undefined) {
    try {
      known = Intl.getCanonicalLocales(tag).length === 1;
    } catch {
      known = false;
    }
    if (wellFormedTags.size < 1000) wellFormedTags.set(tag, known);
  }
  return known;
}

/** Tags already asked about: the answer never changes, and each text map of a flow asks again. */
const wellFormedTags = new Map<string, boolean>();

export function checkLanguages(r: Reporter, flow: Flow, cat: Catalog): void {
  const data = r.src.data as Record<string, unknown>;
  if (typeof data['language'] === 'string' && !wellFormed(flow.defaultLanguage)) {
    r.error('bad-value', ['language'], `"${flow.defaultLanguage}" is not a language tag (BCP 47, such as en-US or de)`);
  }
  const listed = Array.isArray(data['languages']);
  if (listed) {
    flow.languages.forEach((tag, i) => {
      if (!wellFormed(tag)) r.error('bad-value', ['languages', i], `"${tag}" is not a language tag (BCP 47, such as en-US or de)`);
    });
    if (!flow.languages.some((tag) => tag.toLowerCase() === flow.defaultLanguage.toLowerCase())) {
      r.error('bad-value', ['languages'], `languages must include the flow's language, ${flow.defaultLanguage}${didYouMean(flow.defaultLanguage, flow.languages)}`);
    }
  }
  const known = [...cat.variables.keys()];
  forEachTextMap(flowShape, data, (texts, path, list) => {
    const keys = Object.keys(texts);
    for (const key of keys) {
      if (!flow.languages.some((tag) => keyServes(key, tag))) {
        const offered = flow.languages.join(', ');
        r.error('unknown-language', [...path, key], `"${key}" is not one of this flow's languages (${offered}); add it to languages, or correct it${didYouMean(key, flow.languages)}`, true);
      }
    }
    for (const tag of flow.languages) {
      if (wellFormed(tag) && !keys.some((key) => keyServes(key, tag))) {
        r.warn('missing-translation', path, `no text in ${languageName(tag)} (${tag}) here: a visitor in that language sees the ${flow.defaultLanguage} text`);
      }
    }
    // The default's text is checked with the rest of the flow; each translation's names here.
    const checkedAlready = pickText(texts, flow.defaultLanguage, flow.defaultLanguage);
    for (const key of keys) {
      const value = texts[key];
      if (value === checkedAlready) continue;
      const strings = list && Array.isArray(value) ? value : [value];
      for (const name of new Set(strings.flatMap((s) => (typeof s === 'string' ? templateNames(s) : [])))) {
        if (name !== TODAY && !cat.variables.has(name)) r.error('unknown-variable', [...path, key], `the ${key} text refers to unknown variable "${name}"${didYouMean(name, known)}`);
      }
    }
  });
}
