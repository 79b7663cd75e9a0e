// One entry point from text to a runnable flow: YAML, structure, meaning. Never throws on bad
// input; returns every diagnostic of the file, sorted by position, and a flow only when there
// is no error. A flow of several languages is checked once, in its default language and across
// its text maps (check-languages.ts); its copy in another language is made when first asked for.

import { buildCatalog } from './catalog.ts';
import { checkLanguages } from './check-languages.ts';
import { hasErrors, sortDiagnostics, type Diagnostic } from './diagnostics.ts';
import { inOneLanguage, languagesOf, type CheckedFlow, type LoadResult } from './loaded-flow.ts';
import { checkSemantics } from './semantic-check.ts';
import { readFlowSource, Reporter } from './source.ts';
import { checkStructure } from './structure-check.ts';
import { flowShape } from './syntax.ts';

export type { CheckedFlow, LoadedFlow, LoadResult } from './loaded-flow.ts';

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

/** Reads and checks a flow file ahead of time: its CheckedFlow, or every diagnostic when it has an error. */
export function checkFlowAhead(text: string, file: string): { checked: CheckedFlow } | { errors: Diagnostic[] } {
  const result = loadFlow(text, file);
  if (!result.loaded) return { errors: result.diagnostics };
  return { checked: { file, data: readFlowSource(text, file).data, diagnostics: result.diagnostics } };
}
