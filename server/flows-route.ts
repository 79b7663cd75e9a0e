// `GET /api/flows?src=<address>`: the page's way to a flow file that is not bundled. The server
// loads it itself, from its own files (a path, or its own address) or from an origin in
// FLOW_ALLOWED_ORIGINS, keeps each version that loads (its actions run only from such a copy),
// and answers `{ ok, text, version }`; while the address fails for a while, the last good copy
// serves, with `kept: { saved_at, problem }`. No CORS is needed on the flow's host.

import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
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

/** Where a flow address points, as the server sees it. */
type Place = { own: string } | { remote: URL } | { refused: string; status: number; error: string };

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
    answer(res, options.library, src, got);
  };
}

function answer(res: ServerResponse, library: FlowLibrary, src: string, got: FlowFetch): void {
  if ('text' in got) {
    const version = library.keep(src, got.text);
    return sendJson(res, 200, { ok: true, text: got.text, ...(version ? { version } : {}) });
  }
  const copy = got.transient ? library.lastCopy(src) : undefined;
  if (copy) {
    return sendJson(res, 200, { ok: true, text: copy.text, version: copy.version, kept: { saved_at: copy.savedAt.toISOString(), problem: got.failed } });
  }
  const status = got.status === 'timeout' ? 504 : got.status === 'unreachable' ? 502 : 404;
  sendRefusal(res, status, `flow_${got.status}`, `Could not load the flow: ${got.failed}.`);
}

/** Whether `src` is one of the server's own files, at an allowed origin, or refused (and why). */
function placeOf(src: string, host: string | undefined, origins: readonly string[]): Place {
  if (src.startsWith('/') && !src.startsWith('//')) return { own: src };
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return { refused: `"${src.slice(0, 80)}" is neither a bundled flow nor an address (http://… or a path starting with /).`, status: 400, error: 'invalid_request' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { refused: 'A flow address must start with http:// or https://.', status: 400, error: 'invalid_request' };
  if (url.username || url.password) return { refused: 'A flow address must not hold a user name or password.', status: 400, error: 'invalid_request' };
  if (host && url.host === host.toLowerCase()) return { own: url.pathname };
  if (!origins.includes(url.origin)) {
    return {
      refused: `This kiosk's server loads flows only from its own address and the origins in FLOW_ALLOWED_ORIGINS; ${url.origin} is not among them.`,
      status: 403,
      error: 'flow_origin_not_allowed',
    };
  }
  return { remote: url };
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
  let pathname: string;
  try {
    pathname = decodeURIComponent(path.split(/[?#]/, 1)[0]!);
  } catch {
    return missing;
  }
  const base = resolve(root);
  const file = resolve(base, `.${pathname}`);
  if (!file.startsWith(base + sep) || !['.yaml', '.yml'].includes(extname(file).toLowerCase())) return missing;
  try {
    return { text: await readFile(file, 'utf8') };
  } catch {
    return missing;
  }
}
