// One entry point from text to a runnable flow: YAML, structure, meaning. Never throws on bad
// input; returns every diagnostic of the file, sorted by position, and a flow only when there
// is no error. A flow of several languages is checked once, in its default language and across
// its text maps (check-languages.ts); its copy in another language is made when first asked for.

import { buildCatalog, type Catalog } from './catalog.ts';
import { checkLanguages } from './check-languages.ts';
import { hasErrors, sortDiagnostics, type Diagnostic } from './diagnostics.ts';
import type { Flow } from './flow.ts';
import { keyServes, localizeDocument } from './localize.ts';
import { normalizeFlow } from './normalize.ts';
import { checkSemantics } from './semantic-check.ts';
import { readFlowSource, Reporter } from './source.ts';
import { checkStructure } from './structure-check.ts';
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

export function loadFlow(text: string, file = 'flow.yaml'): LoadResult {
  const src = readFlowSource(text, file);
  if (src.diagnostics.length > 0) return { diagnostics: sortDiagnostics(src.diagnostics) };
  const r = new Reporter(src);
  if (typeof src.data !== 'object' || src.data === null || Array.isArray(src.data)) {
    r.error('not-a-flow', [], 'a flow file must be a mapping with at least "id" and "states"');
    return { diagnostics: r.diagnostics };
  }
  checkStructure(r, flowShape, src.data, []);
  const flow = inOneLanguage(src.data, undefined);
  const catalog = buildCatalog(flow);
  // A flow without states is reported by the syntax table; nothing else can be said of it.
  if (flow.stateOrder.length > 0) {
    checkSemantics(r, flow, catalog);
    checkLanguages(r, flow, catalog);
  }
  const diagnostics = sortDiagnostics(r.diagnostics);
  return hasErrors(diagnostics) ? { draft: flow, diagnostics } : { loaded: languagesOf(src.data, { flow, catalog }), draft: flow, diagnostics };
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

/** Reads and checks a flow file ahead of time: its CheckedFlow, or every diagnostic when it has an error. */
export function checkFlowAhead(text: string, file: string): { checked: CheckedFlow } | { errors: Diagnostic[] } {
  const result = loadFlow(text, file);
  if (!result.loaded) return { errors: result.diagnostics };
  return { checked: { file, data: readFlowSource(text, file).data, diagnostics: result.diagnostics } };
}

/** The flow of a file checked ahead of time: the same flow loadFlow gives for its text, without reading or checking it again. */
export function loadCheckedFlow(checked: CheckedFlow): LoadResult {
  const flow = inOneLanguage(checked.data, undefined);
  return { loaded: languagesOf(checked.data, { flow, catalog: buildCatalog(flow) }), draft: flow, diagnostics: checked.diagnostics };
}

/** The flow of the document with its texts in `language` (the flow's own when undefined). */
function inOneLanguage(data: unknown, language: string | undefined): Flow {
  const own = typeof (data as Record<string, unknown>)['language'] === 'string' ? ((data as Record<string, unknown>)['language'] as string) : 'en-US';
  return normalizeFlow(localizeDocument(flowShape, data, language ?? own, own), language);
}

/** The loaded flow in its default language, able to give its copy in each of its others. */
function languagesOf(data: unknown, base: Omit<LoadedFlow, 'inLanguage'>): LoadedFlow {
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
