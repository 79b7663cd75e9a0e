// `GET /api/flows?src=<address>`: the page's way to a flow file that is not bundled. The server
// loads it itself, from its own files (a path, or its own address) or from an origin in
// FLOW_ALLOWED_ORIGINS, keeps each version that loads (its actions run only from such a copy),
// and answers `{ ok, text, version }`; while the address fails for a while, the last good copy
// serves, with `kept: { saved_at, problem }`. No CORS is needed on the flow's host. Addresses are
// read in their canonical form (flow-address.ts), so every spelling of one is the same address.

import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { OWN_FILES, placeOf, type FlowPlace } from './flow-address.ts';
import { fetchFlow, type FlowFetch } from './flow-fetch.ts';
import { folderFileOf, type FlowFolder } from './flow-folder.ts';
import type { FlowLibrary } from './flow-library.ts';
import { sendJson, sendRefusal } from './respond.ts';

export interface FlowsRouteOptions {
  library: FlowLibrary;
  /** origins flows may come from besides the server's own (FLOW_ALLOWED_ORIGINS) */
  origins: readonly string[];
  /** the folder the server's own files are served from (`dist/`), for flows at its own address */
  root?: string;
  /** the kiosks' flow folder (FLOW_FOLDER): its flows are at `/flows/NAME.yaml`, served only without errors */
  folder?: FlowFolder | null;
  /** the longest a fetch may take (default 15 s; the page may ask for less, or up to 60 s) */
  timeoutMs?: number;
}

const MAX_TIMEOUT_MS = 60_000;

export function createFlowsRoute(options: FlowsRouteOptions) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.method !== 'GET') return sendRefusal(res, 405, 'method_not_allowed', 'Use GET here.', { allow: 'GET' });
    const query = new URL(req.url ?? '/', 'http://kiosk.invalid').searchParams;
    const src = query.get('src')?.trim() ?? '';
    if (!src || src.length > 2048) return sendRefusal(res, 400, 'invalid_request', 'Give the flow file as ?src=<address> (at most 2048 characters).');
    const place = placeOf(src, req.headers.host, options.origins);
    if ('refused' in place) return sendRefusal(res, place.status, place.error, place.refused);
    const asked = Number(query.get('timeout_seconds'));
    const timeoutMs = Number.isFinite(asked) && asked > 0 ? Math.min(asked * 1000, MAX_TIMEOUT_MS) : (options.timeoutMs ?? 15_000);
    const got = 'own' in place ? await ownFile(place.own, options.root, options.folder ?? null) : await fetchFlow(place.remote, timeoutMs);
    answer(res, options.library, place, got);
  };
}

/** The page's answer for what was got from `place`: the text and its version (kept), or the last good copy while the address fails, or why not. */
function answer(res: ServerResponse, library: FlowLibrary, place: Exclude<FlowPlace, { refused: string }>, got: FlowFetch): void {
  const src = place.source;
  if ('text' in got) {
    const version = library.keep(src, got.text, { from: 'own' in place ? OWN_FILES : place.remote.origin });
    return sendJson(res, 200, { ok: true, text: got.text, ...(version ? { version } : {}) });
  }
  const copy = got.transient ? library.lastCopy(src) : undefined;
  if (copy) {
    return sendJson(res, 200, { ok: true, text: copy.text, version: copy.version, kept: { saved_at: copy.savedAt.toISOString(), problem: got.failed } });
  }
  const status = got.status === 'timeout' ? 504 : got.status === 'unreachable' ? 502 : 404;
  sendRefusal(res, status, `flow_${got.status}`, `Could not load the flow: ${got.failed}.`);
}

/** A flow file among the server's own files: in the kiosks' flow folder (`/flows/NAME.yaml`), or inside `root`, ending in .yaml or .yml. */
async function ownFile(path: string, root: string | undefined, folder: FlowFolder | null): Promise<FlowFetch> {
  const missing: FlowFetch = { failed: `there is no flow file at ${path.slice(0, 200)} on this kiosk's server`, transient: false, status: 'refused' };
  const inFolder = folder ? folderFileOf(path) : undefined;
  if (folder && inFolder) {
    const read = folder.read(inFolder);
    if ('text' in read) return { text: read.text };
    // A file changed by hand into one with errors is not served: the kiosk keeps its last good copy.
    if ('invalid' in read) return { failed: `the flow file ${path.slice(0, 200)} has errors (${read.invalid[0]!.line}:${read.invalid[0]!.col}: ${read.invalid[0]!.message})`, transient: true, status: 'refused' };
  }
  if (!root) return missing;
  // `path` is decoded, its dot segments resolved (flow-address.ts); it must still lie inside root.
  const base = resolve(root);
  const file = resolve(base, `.${path}`);
  if (!file.startsWith(base + sep) || !['.yaml', '.yml'].includes(extname(file).toLowerCase())) return missing;
  try {
    return { text: await readFile(file, 'utf8') };
  } catch {
    return missing;
  }
}
