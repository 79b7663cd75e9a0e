// The flow studio's routes on the kiosk's server: what the studio may do here, and the kiosks'
// flow folder (flow-folder.ts). Like every /api/ route, these serve only a paired device or the
// server's own machine (device-guard.ts, before the request reaches them). Reading is for any such
// page; writing is the operator's, as the operator panel's routes are: from the server's own
// machine, or from a paired device with the operator PIN (checked by the operator route's gate,
// so wrong tries count towards the same lock as the panel's).
//
//   GET /api/studio                 { folder, flows, from_this_machine, pin_set }
//   GET /api/studio/flows/NAME.yaml { ok, name, text }  | 404 | 422 flow_invalid
//   PUT /api/studio/flows/NAME.yaml { text, pin? }  ->  200 { ok, saved } | 403 | 404 no_folder
//                                   | 422 flow_invalid { diagnostics } | 429 locked

import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_FLOW_CHARS } from '../src/engine/language/limits.ts';
import { isJsonRequest, parseJson, readBody } from './body.ts';
import { isLocalRequest } from './device-guard.ts';
import type { FlowFolder } from './flow-folder.ts';
import type { OperatorGate } from './operator.ts';
import { sendJson, sendLocked, sendRefusal } from './respond.ts';

const FLOWS = '/api/studio/flows/';
/** A flow's text as UTF-8 (up to four bytes a character) and the JSON around it. */
const BODY_LIMIT = MAX_FLOW_CHARS * 4 + 4096;

export interface StudioRouteOptions {
  /** the kiosks' flow folder; null: the studio saves to files only */
  folder: FlowFolder | null;
  /** the operator PIN's check and lock */
  gate: OperatorGate;
  log: (line: string) => void;
}

export function createStudioRoute(options: StudioRouteOptions) {
  const { folder, gate, log } = options;
  const noFolder = (res: ServerResponse) =>
    sendRefusal(res, 404, 'no_folder', "This kiosk's server has no flow folder for the kiosks (set FLOW_FOLDER); save the flow to a file instead.");

  /** May this request (from a paired device or this machine) write? On the server's own machine, or with the right PIN; else the refusal is sent. */
  async function operatorMay(req: IncomingMessage, res: ServerResponse, pin: unknown): Promise<boolean> {
    if (isLocalRequest(req)) return true;
    if (!gate.pinSet) {
      sendRefusal(res, 403, 'operator_only', "Flows are saved for the kiosks from the server's own machine, or with the operator PIN (OPERATOR_PIN), which this kiosk has none of.");
      return false;
    }
    if (typeof pin !== 'string' || pin === '') {
      sendRefusal(res, 403, 'pin_required', 'Saving a flow for the kiosks from another machine needs the operator PIN.');
      return false;
    }
    const result = await gate.unlock(pin);
    if (result.ok) return true;
    if (result.reason === 'locked') {
      sendLocked(res, result.retryAfterSeconds, 'Too many wrong PINs: saving for the kiosks is locked for a while.');
    } else {
      log('[studio] wrong operator PIN for saving a flow');
      sendJson(res, 403, { ok: false, error: 'wrong_pin', message: 'That PIN is not right.', ...(result.reason === 'wrong_pin' ? { tries_left: result.triesLeft } : {}) });
    }
    return false;
  }

  async function save(req: IncomingMessage, res: ServerResponse, name: string): Promise<void> {
    if (!isJsonRequest(req)) return sendRefusal(res, 415, 'not_json', 'Send the flow as application/json: {"text": "…"}.');
    const body = await readBody(req, BODY_LIMIT);
    if (body === 'aborted' || res.destroyed) return;
    if (body === 'too-large') return sendRefusal(res, 413, 'request_too_large', `A flow file may have at most ${MAX_FLOW_CHARS} characters.`);
    const parsed = parseJson(body);
    if (!parsed.ok) return sendRefusal(res, 400, 'invalid_request', parsed.message);
    const request = parsed.value as { text?: unknown; pin?: unknown } | null;
    if (typeof request?.text !== 'string') return sendRefusal(res, 400, 'invalid_request', 'Send the flow as {"text": "…"}.');
    if (!(await operatorMay(req, res, request.pin))) return;
    if (!folder) return noFolder(res);
    const written = folder.write(name, request.text);
    if ('badName' in written) return sendRefusal(res, 400, 'bad_name', 'A flow for the kiosks is named with letters, digits, - and _, ending in .yaml.');
    if ('invalid' in written) {
      const count = written.invalid.length;
      return sendJson(res, 422, { ok: false, error: 'flow_invalid', message: `The flow has ${count} error${count === 1 ? '' : 's'}: it is not saved for the kiosks.`, diagnostics: written.invalid });
    }
    log(`[studio] saved ${written.saved} for the kiosks`);
    sendJson(res, 200, { ok: true, saved: written.saved });
  }

  return (req: IncomingMessage, res: ServerResponse, path: string): void | Promise<void> => {
    if (path === '/api/studio') {
      if (req.method !== 'GET') return sendRefusal(res, 405, 'method_not_allowed', 'Use GET here.', { allow: 'GET' });
      return sendJson(res, 200, { folder: folder !== null, flows: folder?.list() ?? [], from_this_machine: isLocalRequest(req), pin_set: gate.pinSet });
    }
    if (!path.startsWith(FLOWS)) return sendRefusal(res, 404, 'not_found', 'There is no such studio route on this kiosk.');
    const name = path.slice(FLOWS.length);
    if (req.method === 'PUT') return save(req, res, name);
    if (req.method !== 'GET') return sendRefusal(res, 405, 'method_not_allowed', 'Use GET or PUT here.', { allow: 'GET, PUT' });
    if (!folder) return noFolder(res);
    const read = folder.read(name);
    if ('text' in read) return sendJson(res, 200, { ok: true, name, text: read.text });
    if ('invalid' in read) return sendJson(res, 422, { ok: false, error: 'flow_invalid', message: 'This flow file has errors (it was changed outside the studio).', diagnostics: read.invalid });
    return sendRefusal(res, 404, 'not_found', `There is no flow ${name.slice(0, 80)} in the kiosks' flow folder.`);
  };
}
