// Where the kiosk gets its flow: an example bundled with the app (available offline), or a
// YAML file at an address given as `?flow=`, loaded through the kiosk's server (which runs its
// actions only from its own copy), whose last good copy is kept for the days it does not answer. Loading never throws: a failure becomes a diagnostic the operator
// screen shows. It is the kiosk's FlowSource (src/ports/flow-source.ts): `flowFiles`.

import type { Diagnostic } from '../engine/language/diagnostics.ts';
import { loadCheckedFlow, type CheckedFlow, type LoadResult } from '../engine/language/loaded-flow.ts';
import { cacheStorageCopies, shownTime, type FlowCopies } from '../pwa/flow-copies.ts';
import { own } from '../engine/language/records.ts';
import type { FlowLoad, FlowSource } from '../ports/flow-source.ts';

export type { FlowLoad } from '../ports/flow-source.ts';

/** The bundled flows, by name: read and checked when the app was built (scripts/checked-flows.ts). */
const bundled: Record<string, CheckedFlow> = Object.fromEntries(
  Object.entries(import.meta.glob('../../flows/*.yaml', { query: '?checked', import: 'default', eager: true }) as Record<string, CheckedFlow>).map(
    ([path, checked]) => [path.replace(/^.*\//, '').replace(/\.yaml$/, ''), checked],
  ),
);

/**
 * Reads and checks the text of a flow at an address. The YAML parser and the checker are a
 * chunk of their own, fetched (from the offline cache, which holds it) only by a kiosk that runs
 * such a flow: a kiosk on a bundled flow starts without them.
 */
async function readFlowText(text: string, file: string): Promise<LoadResult> {
  const { loadFlow } = await import('../engine/language/load-flow.ts');
  return loadFlow(text, file);
}

/** The flow the kiosk runs when none is named. */
export const DEFAULT_FLOW = 'onboarding';

/** Names of the flows that ship with the app. */
export function bundledFlowNames(): string[] {
  return Object.keys(bundled).sort();
}

/** A flow file that could not be had at all, and why (`transient`: its address did not answer). */
function failure(source: string, message: string, transient = false): FlowLoad {
  const d: Diagnostic = { file: source, line: 1, col: 1, severity: 'error', code: 'not-a-flow', message };
  return { source, diagnostics: [d], unloaded: transient ? 'unreachable' : 'not_found' };
}

/** How long a flow URL may take to answer before the operator is told (`?flow_timeout_seconds=`). */
export const FLOW_TIMEOUT_SECONDS = 15;

/** Where the page asks the kiosk's server for a flow file at an address. */
export const FLOWS_API = '/api/flows';

/** What the kiosk's server gave for a flow address: its text and version, or why not and whether trying later might work. */
type Fetched = { text: string; version?: string; kept?: { savedAt: Date; problem: string } } | { failed: string; transient: boolean };

/** The server's answer, as far as the page reads it. */
interface FlowsAnswer {
  ok?: unknown;
  text?: unknown;
  version?: unknown;
  kept?: { saved_at?: unknown; problem?: unknown };
  message?: unknown;
}

/**
 * Asks the kiosk's server for the flow at `src` (`/api/flows`): the server loads it from its
 * own files or an origin the operator allowed (FLOW_ALLOWED_ORIGINS), keeps each good version
 * for its actions, and stands in with its last good copy while the address fails.
 */
async function fetchFlow(src: string, timeout: number, fetcher: typeof fetch): Promise<Fetched> {
  let response: Response;
  try {
    const query = new URLSearchParams({ src, timeout_seconds: String(timeout) });
    response = await fetcher(`${FLOWS_API}?${query}`, { signal: AbortSignal.timeout((timeout + 5) * 1000), headers: { accept: 'application/json' } });
  } catch (e) {
    const why = (e as Error).name === 'TimeoutError' ? `no answer within ${timeout} second${timeout === 1 ? '' : 's'}` : (e as Error).message;
    return { failed: `could not load the flow: the kiosk's server did not answer (${why})`, transient: true };
  }
  let answer: FlowsAnswer | null = null;
  try {
    answer = (await response.json()) as FlowsAnswer;
  } catch {
    // not the kiosk's server (a plain web server without /api/), or a broken answer
  }
  if (response.ok && answer?.ok === true && typeof answer.text === 'string') {
    const savedAt = new Date(String(answer.kept?.saved_at));
    const kept = answer.kept && !Number.isNaN(savedAt.getTime()) ? { savedAt, problem: String(answer.kept.problem ?? '') } : undefined;
    return { text: answer.text, ...(typeof answer.version === 'string' ? { version: answer.version } : {}), ...(kept ? { kept } : {}) };
  }
  if (!answer) return { failed: `could not load the flow: the kiosk's server answered ${response.status} without saying why (is this page served by the kiosk's own server?)`, transient: response.status >= 500 };
  const message = typeof answer.message === 'string' ? answer.message.replace(/^Could not load the flow: /, '') : `the kiosk's server answered ${response.status}`;
  return { failed: `could not load the flow: ${message.replace(/\.$/, '')}`, transient: response.status === 502 || response.status === 503 || response.status === 504 };
}

/** "There is no bundled flow named …" for a plain name that is not one of them. */
function notBundled(name: string): string {
  return `there is no bundled flow named "${name}" (the bundled flows: ${bundledFlowNames().join(', ')}); give one of them, or the address of a flow file`;
}

/** A warning that the flow runs from a kept copy, and why. */
function fromCopyNote(source: string, problem: string, savedAt: Date): Diagnostic {
  const message = `could not load the flow: ${problem}; running the last good copy, saved ${shownTime(savedAt)}`;
  console.warn(`kiosk: ${source}: ${message}`);
  return { file: source, line: 1, col: 1, severity: 'warning', code: 'not-a-flow', message };
}

/**
 * Loads the flow named by `?flow=` (a bundled name, or an address), or the default. A flow from
 * an address comes through the kiosk's server (`/api/flows`), which keeps its last good copy;
 * the page keeps one too, for when the server itself cannot be reached.
 */
export async function loadFlowFor(search: string, fetcher: typeof fetch = fetch, copies: FlowCopies | null = cacheStorageCopies()): Promise<FlowLoad> {
  const requested = new URLSearchParams(search).get('flow')?.trim() || DEFAULT_FLOW;
  const name = requested.replace(/\.yaml$/, '').replace(/^.*\//, '');
  if (bundled[name] !== undefined && !/[/:]/.test(requested.replace(/\.yaml$/, ''))) {
    return { source: `flows/${name}.yaml`, ...loadCheckedFlow(bundled[name]!) };
  }
  if (/^[\w-]+$/.test(requested)) return failure(requested, `could not load the flow: ${notBundled(requested)}`);
  const seconds = Number(new URLSearchParams(search).get('flow_timeout_seconds'));
  const timeout = Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 60) : FLOW_TIMEOUT_SECONDS;
  const fetched = await fetchFlow(requested, timeout, fetcher);
  if ('text' in fetched) {
    const result = await readFlowText(fetched.text, requested);
    if (result.loaded && !fetched.kept) await copies?.keep(requested, fetched.text, fetched.version);
    const loaded: FlowLoad = { source: requested, ...result, ...(fetched.version ? { version: fetched.version } : {}) };
    if (fetched.kept) loaded.diagnostics = [fromCopyNote(requested, fetched.kept.problem.replace(/\.$/, ''), fetched.kept.savedAt), ...result.diagnostics];
    return loaded;
  }
  const copy = fetched.transient ? await copies?.find(requested) : null;
  const fromCopy = copy ? await readFlowText(copy.text, requested) : null;
  if (!copy || !fromCopy?.loaded) return failure(requested, fetched.failed, fetched.transient);
  const note = fromCopyNote(requested, fetched.failed.replace(/^could not load the flow: /, ''), copy.savedAt);
  return { source: requested, ...fromCopy, ...(copy.version ? { version: copy.version } : {}), diagnostics: [note, ...fromCopy.diagnostics] };
}

/** The kiosk's flow source: the bundled flows, and flows at addresses with their kept copies. */
export const flowFiles: FlowSource = {
  load: (search) => loadFlowFor(search),
  bundledNames: bundledFlowNames,
  defaultName: DEFAULT_FLOW,
};
