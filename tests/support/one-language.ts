// A flow of several languages made into a flow of one: every text map replaced by its text in
// that language, `language` set to it and `languages` left out, as an author would write a flow
// for a place where everyone speaks it (the clinic example as a practice in Munich runs it).

import { parse, stringify } from 'yaml';
import { forEachTextMap, keyServes, localizeDocument } from '../../src/engine/language/localize.ts';
import { flowShape } from '../../src/engine/language/syntax.ts';

/**
 * The flow `yaml` in `tag` alone. Every text map must have a text for `tag`: a text the flow
 * leaves untranslated would otherwise come out in its default language, unnoticed.
 */
export function inOneLanguage(yaml: string, tag: string): string {
  const doc = parse(yaml) as Record<string, unknown>;
  const missing: string[] = [];
  forEachTextMap(flowShape, doc, (texts, path) => {
    if (!Object.keys(texts).some((key) => keyServes(key, tag))) missing.push(path.join('.'));
  });
  if (missing.length > 0) throw new Error(`no ${tag} text at ${missing.join(', ')}`);
  const one = localizeDocument(flowShape, doc, tag, tag) as Record<string, unknown>;
  one['language'] = tag;
  delete one['languages'];
  return stringify(one, { lineWidth: 0 });
}
