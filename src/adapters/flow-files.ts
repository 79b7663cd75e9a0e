// Where the kiosk gets its flow: an example bundled with the app (available offline), or a
// YAML file fetched from a URL given as `?flow=`, whose last good copy is kept for the days its
// address does not answer. Loading never throws: a failure becomes a diagnostic the operator
// screen shows. It is the kiosk's FlowSource (src/ports/flow-source.ts): `flowFiles`.

import type { Diagnostic } from '../engine/language/diagnostics.ts';
import { loadFlow } from '../engine/language/load-flow.ts';
import { cacheStorageCopies, shownTime, type FlowCopies } from '../pwa/flow-copies.ts';
import { own } from '../engine/language/records.ts';
import type { FlowLoad, FlowSource } from '../ports/flow-source.ts';

export type { FlowLoad } from '../ports/flow-source.ts';

const bundled: Record<string, string> = Object.fromEntries(
  Object.entries(import.meta.glob('../../flows/*.yaml', { query: '?raw', import: 'default', eager: true }) as Record<string, string>).map(
    ([path, text]) => [path.replace(/^.*\//, '').replace(/\.yaml$/, ''), text],
  ),
);

/** The flow the kiosk runs when none is named. */
export const DEFAULT_FLOW = 'onboarding';

/** Names of the flows that ship with the app. */
export function bundledFlowNames(): string[] {
  return Object.keys(bundled).sort();
}

function failure(source: string, message: string): FlowLoad {
  const d: Diagnostic = { file: source, line: 1, col: 1, severity: 'error', code: 'not-a-flow', message };
  return { source, diagnostics: [d] };
}

/** How long a flow URL may take to answer before the operator is told (`?flow_timeout_seconds=`). */
export const FLOW_TIMEOUT_SECONDS = 15;

/** Why a fetch of a flow on another site failed, as far as a page can tell (it is not told). */
function unreachable(url: string, error: unknown): string {
  const elsewhere = (() => {
    try {
      const page = (globalThis as { location?: { href: string; origin: string } }).location;
      return page !== undefined && new URL(url, page.href).origin !== page.origin;
    } catch {
      return false;
    }
  })();
  const why =
    'the server did not answer' +
    (elsewhere
      ? ', or it does not let this page read the file: a flow on another site must be sent with the header Access-Control-Allow-Origin (CORS)'
      : '');
  return `could not load the flow: ${why} (${(error as Error).message})`;
}

/** What a fetch of a flow gave: its text, or why not and whether trying later might work. */
type Fetched = { text: string } | { failed: string; transient: boolean };

/** Statuses that say "not now" rather than "not here": the kept copy stands in. */
function transientStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

async function fetchFlow(url: string, timeout: number, fetcher: typeof fetch): Promise<Fetched> {
  try {
    const response = await fetcher(url, { signal: AbortSignal.timeout(timeout * 1000) });
    if (!response.ok) {
      return { failed: `could not load the flow: the server answered ${response.status} ${response.statusText}`.trim(), transient: transientStatus(response.status) };
    }
    // Web servers that answer every path with the app's page (as single-page hosts do) say 200.
    if ((response.headers.get('content-type') ?? '').includes('text/html')) {
      return { failed: 'could not load the flow: the address gave a web page, not a flow file (is the path right?)', transient: false };
    }
    return { text: await response.text() };
  } catch (e) {
    if ((e as Error).name === 'TimeoutError') {
      return { failed: `could not load the flow: the server did not answer within ${timeout} second${timeout === 1 ? '' : 's'}`, transient: true };
    }
    return { failed: unreachable(url, e), transient: true };
  }
}

/**
 * Loads the flow named by `?flow=` (a bundled name, or a URL), or the default. A flow from a URL
 * that loads without errors is kept in `copies`; when its address fails for a while (no network,
 * a time-out, a 5xx), the kept copy runs and a warning says so.
 */
export async function loadFlowFor(search: string, fetcher: typeof fetch = fetch, copies: FlowCopies | null = cacheStorageCopies()): Promise<FlowLoad> {
  const requested = new URLSearchParams(search).get('flow')?.trim() || DEFAULT_FLOW;
  const name = requested.replace(/\.yaml$/, '').replace(/^.*\//, '');
  if (bundled[name] !== undefined && !/[/:]/.test(requested.replace(/\.yaml$/, ''))) {
    return { source: `flows/${name}.yaml`, ...loadFlow(bundled[name]!, `flows/${name}.yaml`) };
  }
  const seconds = Number(new URLSearchParams(search).get('flow_timeout_seconds'));
  const timeout = Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 600) : FLOW_TIMEOUT_SECONDS;
  const fetched = await fetchFlow(requested, timeout, fetcher);
  if ('text' in fetched) {
    const result = loadFlow(fetched.text, requested);
    if (result.loaded) await copies?.keep(requested, fetched.text);
    return { source: requested, ...result };
  }
  const copy = fetched.transient ? await copies?.find(requested) : null;
  const fromCopy = copy ? loadFlow(copy.text, requested) : null;
  if (!copy || !fromCopy?.loaded) return failure(requested, fetched.failed);
  const note: Diagnostic = {
    file: requested,
    line: 1,
    col: 1,
    severity: 'warning',
    code: 'not-a-flow',
    message: `${fetched.failed}; running the last good copy, saved ${shownTime(copy.savedAt)}`,
  };
  console.warn(`kiosk: ${requested}: ${note.message}`);
  return { source: requested, ...fromCopy, diagnostics: [note, ...fromCopy.diagnostics] };
}

/** The kiosk's flow source: the bundled flows, and flows at addresses with their kept copies. */
export const flowFiles: FlowSource = {
  load: (search) => loadFlowFor(search),
  bundledNames: bundledFlowNames,
  defaultName: DEFAULT_FLOW,
};
