// The operator's side of pairing: make a code for a device, list the paired devices with when each
// was last seen, revoke one. Open to the operator panel once the PIN unlocked it (a session in a
// cookie, kept in the memory so that every server of a fleet knows it, ended when the panel
// closes or is left alone), and to `npm run pair` on the server's own machine (the door's token,
// local-door.ts).
//
//   GET  /api/operator/devices          { devices: [{ name, paired_at, last_seen }], codes: [{ name, expires_at }] }
//   POST /api/operator/devices          { name }  ->  201 { code, name, expires_at } | 409 name_taken
//   POST /api/operator/devices/revoke   { name }  ->  200 { ok, name } | 404 unknown_device
//   POST /api/operator/lock             ends the panel's session
//
// Without a session or the door: 403 operator_locked.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonRequest, parseJson, readBody } from './body.ts';
import { OPERATOR_COOKIE, readCookie, setCookie } from './cookies.ts';
import { doorOpens } from './device-guard.ts';
import { hashToken, isToken, newToken } from './pairing-codes.ts';
import type { Pairing } from './pairing.ts';
import { sendJson, sendRefusal } from './respond.ts';
import type { PairingMemory } from './storage/pairings.ts';

/** How long an unlocked panel's session holds after its last use (the panel closes itself after 2 minutes alone). */
export const SESSION_MS = 10 * 60_000;

/** The largest request read: a device's name and the JSON around it. */
const BODY_LIMIT = 1024;

/** The operator panel's sessions, kept in the memory. */
export class OperatorSessions {
  constructor(
    private readonly memory: PairingMemory,
    private readonly now: () => number,
  ) {}

  /** Opens a session for the panel that was just unlocked (its cookie set on `res`). */
  async open(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const token = newToken();
    const now = this.now();
    await this.memory.openSession(hashToken(token), now, now + SESSION_MS);
    setCookie(req, res, OPERATOR_COOKIE, token, SESSION_MS / 1000);
  }

  /** Whether `req` carries an open session (which then holds a while longer). */
  async holds(req: IncomingMessage): Promise<boolean> {
    const token = readCookie(req, OPERATOR_COOKIE);
    if (token === undefined || !isToken(token)) return false;
    const now = this.now();
    return this.memory.useSession(hashToken(token), now, now + SESSION_MS);
  }

  /** Ends the session `req` carries, and its cookie. */
  async close(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const token = readCookie(req, OPERATOR_COOKIE);
    if (token !== undefined && isToken(token)) await this.memory.closeSession(hashToken(token));
    setCookie(req, res, OPERATOR_COOKIE, '', 0);
  }
}

/** Reads `{ name }`; answers the refusal itself and resolves with undefined when it cannot. */
async function readNamed(req: IncomingMessage, res: ServerResponse): Promise<{ name?: unknown } | undefined> {
  if (!isJsonRequest(req)) {
    sendRefusal(res, 415, 'not_json', 'Send the device as application/json: {"name": "Lobby iPad"}.');
    return undefined;
  }
  const body = await readBody(req, BODY_LIMIT);
  if (body === 'aborted' || res.destroyed) return undefined;
  if (body === 'too-large') {
    sendRefusal(res, 413, 'request_too_large', "A device's request is its name and nothing more.");
    return undefined;
  }
  const parsed = parseJson(body);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) {
    sendRefusal(res, 400, 'invalid_request', parsed.ok ? 'Send the device as {"name": "Lobby iPad"}.' : parsed.message);
    return undefined;
  }
  return parsed.value as { name?: unknown };
}

/** The routes under /api/operator/ that manage devices; `door` is the token `npm run pair` brings. */
export function createDeviceRoutes(pairing: Pairing, sessions: OperatorSessions, log: (line: string) => void, door: string | undefined) {
  const iso = (ms: number) => new Date(ms).toISOString();
  const list = async (res: ServerResponse) => {
    const [devices, codes] = await Promise.all([pairing.devices(), pairing.openCodes()]);
    sendJson(res, 200, {
      devices: devices.map((d) => ({ name: d.name, paired_at: iso(d.pairedAt), last_seen: iso(d.lastSeen) })),
      codes: codes.map((c) => ({ name: c.name, expires_at: iso(c.expiresAt) })),
    });
  };
  const make = async (req: IncomingMessage, res: ServerResponse) => {
    const request = await readNamed(req, res);
    if (!request) return;
    const made = await pairing.makeCode(request.name);
    if (!made.ok) return sendRefusal(res, made.reason === 'name_taken' ? 409 : 400, made.reason, made.message);
    log(`[pairing] a code was made for "${made.name}"`);
    sendJson(res, 201, { code: made.code, name: made.name, expires_at: iso(made.expiresAt) });
  };
  const revoke = async (req: IncomingMessage, res: ServerResponse) => {
    const request = await readNamed(req, res);
    if (!request) return;
    const name = typeof request.name === 'string' ? await pairing.revoke(request.name) : null;
    if (name === null) return sendRefusal(res, 404, 'unknown_device', `No paired device is called ${JSON.stringify(request.name)}.`);
    log(`[pairing] "${name}" was revoked`);
    sendJson(res, 200, { ok: true, name });
  };

  return {
    /** answers a request for `/api/operator/devices…` or `/api/operator/lock` */
    async handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
      const allowed = { '/api/operator/devices': ['GET', 'POST'], '/api/operator/devices/revoke': ['POST'], '/api/operator/lock': ['POST'] }[path];
      if (!allowed) return sendRefusal(res, 404, 'not_found', 'There is no such operator route on this kiosk.');
      if (!allowed.includes(req.method ?? '')) return sendRefusal(res, 405, 'method_not_allowed', `Use ${allowed.join(' or ')} here.`, { allow: allowed.join(', ') });
      if (path === '/api/operator/lock') {
        await sessions.close(req, res);
        return sendJson(res, 200, { ok: true });
      }
      if (!doorOpens(req, door) && !(await sessions.holds(req))) {
        return sendRefusal(res, 403, 'operator_locked', 'Unlock the operator panel with the PIN first (or run `npm run pair` on the server).');
      }
      if (path === '/api/operator/devices/revoke') return revoke(req, res);
      return req.method === 'GET' ? list(res) : make(req, res);
    },
  };
}
