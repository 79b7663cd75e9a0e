// A flow from the data of its file, once the file has been read and checked: in its default
// language, able to give its copy in each of its other languages (made when first asked for).
// The kiosk starts from here for the flows it ships with, which the build has read and checked
// (scripts/checked-flows.ts), so its start carries neither the YAML parser nor the checker;
// load-flow.ts reads and checks a file's text and ends here too.

import { buildCatalog, type Catalog } from './catalog.ts';
import type { Diagnostic } from './diagnostics.ts';
import type { Flow } from './flow.ts';
import { keyServes, localizeDocument } from './localize.ts';
import { normalizeFlow } from './normalize.ts';
import { flowShape } from './syntax.ts';

export interface LoadedFlow {
  flow: Flow;
  catalog: Catalog;
  /**
   * The same flow with its texts in `language`, one of its `languages` (the closest by primary
   * subtag, else the default): itself for the language it is in.
   */
  inLanguage(language: string): LoadedFlow;
}

export interface LoadResult {
  /** present only when the file has no error (warnings allowed) */
  loaded?: LoadedFlow;
  /**
   * The flow as far as it could be read, errors or not: for drawing it as it is being written
   * (the studio). Absent when the text is no YAML mapping. Never run a draft.
   */
  draft?: Flow;
  diagnostics: Diagnostic[];
}

/**
 * A flow file read and checked ahead of time (the build does this for the flows it bundles,
 * scripts/checked-flows.ts): the data its YAML holds, and its diagnostics, warnings at most. A
 * kiosk that starts with it reads no YAML and runs no check, which is most of a flow's load.
 */
export interface CheckedFlow {
  file: string;
  data: unknown;
  diagnostics: Diagnostic[];
}

/** The flow of a file checked ahead of time: the same flow loadFlow gives for its text, without reading or checking it again. */
export function loadCheckedFlow(checked: CheckedFlow): LoadResult {
  const flow = inOneLanguage(checked.data, undefined);
  return { loaded: languagesOf(checked.data, { flow, catalog: buildCatalog(flow) }), draft: flow, diagnostics: checked.diagnostics };
}

/** The flow of the document with its texts in `language` (the flow's own when undefined). */
export function inOneLanguage(data: unknown, language: string | undefined): Flow {
  const own = typeof (data as Record<string, unknown>)['language'] === 'string' ? ((data as Record<string, unknown>)['language'] as string) : 'en-US';
  return normalizeFlow(localizeDocument(flowShape, data, language ?? own, own), language);
}

/** The loaded flow in its default language, able to give its copy in each of its others. */
export function languagesOf(data: unknown, base: Omit<LoadedFlow, 'inLanguage'>): LoadedFlow {
  const copies = new Map<string, LoadedFlow>();
  const inLanguage = (language: string): LoadedFlow => {
    const { languages, defaultLanguage } = base.flow;
    const chosen =
      languages.find((tag) => tag.toLowerCase() === language.toLowerCase()) ??
      languages.find((tag) => keyServes(tag.split('-')[0]!, language)) ??
      defaultLanguage;
    if (chosen.toLowerCase() === defaultLanguage.toLowerCase()) return loaded;
    let copy = copies.get(chosen);
    if (!copy) {
      const flow = inOneLanguage(data, chosen);
      copy = { flow, catalog: buildCatalog(flow), inLanguage };
      copies.set(chosen, copy);
    }
    return copy;
  };
  const loaded: LoadedFlow = { ...base, inLanguage };
  return loaded;
}
