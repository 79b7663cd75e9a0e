// One entry point from text to a runnable flow: YAML, structure, meaning. Never throws on bad
// input; returns every diagnostic of the file, sorted by position, and a flow only when there
// is no error.

import { buildCatalog, type Catalog } from './catalog.ts';
import { hasErrors, sortDiagnostics, type Diagnostic } from './diagnostics.ts';
import type { Flow } from './flow.ts';
import { normalizeFlow } from './normalize.ts';
import { checkSemantics } from './semantic-check.ts';
import { readFlowSource, Reporter } from './source.ts';
import { checkStructure } from './structure-check.ts';
import { flowShape } from './syntax.ts';

export interface LoadedFlow {
  flow: Flow;
  catalog: Catalog;
}

export interface LoadResult {
  /** present only when the file has no error (warnings allowed) */
  loaded?: LoadedFlow;
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
  const flow = normalizeFlow(src.data);
  const catalog = buildCatalog(flow);
  const states = (src.data as Record<string, unknown>)['states'];
  if (flow.stateOrder.length > 0) checkSemantics(r, flow, catalog);
  else if (states !== null && typeof states === 'object' && !Array.isArray(states)) {
    r.error('missing-key', ['states'], 'a flow needs at least one state');
  }
  const diagnostics = sortDiagnostics(r.diagnostics);
  return hasErrors(diagnostics) ? { diagnostics } : { loaded: { flow, catalog }, diagnostics };
}
