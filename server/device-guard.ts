// Who may use /api/ beyond the pairing screen's own route: a device the operator paired (it holds
// the credential cookie), or a browser on the server's own machine opened at its loopback name
// (`npm start` and go). Anything else gets 401 with a reason the page turns into its pairing
// screen, before its request is read, run or forwarded. A request relayed by a proxy (on this
// machine or not) is never the server's own machine's: it names the proxy's host, or says it was
// forwarded.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP, isIPv4 } from 'node:net';
import { networkInterfaces } from 'node:os';
import { DEVICE_COOKIE, DEVICE_COOKIE_SECONDS, readCookie, setCookie } from './cookies.ts';
import { Pairing, type PairingOptions } from './pairing.ts';
import { hostName } from './request-guard.ts';
import { oneLine } from './storage/database.ts';
import type { Memory } from './storage/memory.ts';

/** Why a request was refused: it needs pairing (401), or the memory that knows could not be asked (503). */
export interface DeviceRefusal {
  status: 401 | 503;
  type: 'not_paired' | 'device_revoked' | 'memory_unavailable';
  message: string;
}

/** The names a browser on the server's own machine reaches it by. */
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Headers a proxy adds to a request it relays. */
const FORWARDED = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-real-ip'];

/** Whether `address` (a socket's remote address) is this machine's loopback: 127.0.0.0/8 or ::1, also as IPv4-mapped IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address;
  if (isIPv4(v4)) return v4.startsWith('127.');
  return address === '::1';
}

/**
 * Whether `req` comes from a browser (or a tool) on the server's own machine that reached it by a
 * loopback name: the connection is from loopback, the Host is localhost, 127.0.0.1 or [::1], and
 * no proxy says it relayed the request.
 */
export function isLocalRequest(req: IncomingMessage): boolean {
  if (!isLoopbackAddress(req.socket.remoteAddress)) return false;
  const name = hostName(req);
  if (name === undefined || !LOOPBACK_NAMES.has(name)) return false;
  return !forwarded(req);
}

/** Whether a proxy says it relayed `req`. */
function forwarded(req: IncomingMessage): boolean {
  return FORWARDED.some((header) => req.headers[header] !== undefined);
}

/** The header `npm run pair` sends the door's token in (local-door.ts). */
export const DOOR_HEADER = 'x-kiosk-door';

/** Whether the connection of `req` comes from this machine: loopback, or one of its own addresses. */
function fromThisMachine(req: IncomingMessage): boolean {
  const address = req.socket.remoteAddress;
  if (isLoopbackAddress(address)) return true;
  const own = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
  return address !== undefined && own.includes(address.replace(/^::ffff:(?=\d+\.)/, ''));
}

/**
 * Whether `req` is `npm run pair` on this machine, holding the door's token `door`: it connects
 * from this machine to one of its addresses (never a name, which a proxy would pass on), and no
 * proxy relayed it.
 */
export function doorOpens(req: IncomingMessage, door: string | undefined): boolean {
  const given = req.headers[DOOR_HEADER];
  if (door === undefined || typeof given !== 'string' || !fromThisMachine(req) || forwarded(req)) return false;
  const name = hostName(req);
  if (name === undefined || (name !== 'localhost' && !isIP(name.replace(/^\[|\]$/g, '')))) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(door));
}

/** The check of one server's requests. */
export interface DeviceGuard {
  /**
   * Undefined when `req` may go on (a paired device's cookie is renewed on `res` now and then),
   * else why not. Reads nothing of the body.
   */
  check(req: IncomingMessage, res?: ServerResponse): Promise<DeviceRefusal | undefined>;
}

export const NOT_PAIRED = "This device is not paired with the kiosk's server: staff pair it with a code from `npm run pair` on the server, or from the operator panel of a paired kiosk.";
export const REVOKED = "This device's pairing with the kiosk's server was revoked: staff pair it again with a new code.";

/** The guard over `pairing`, which lets `npm run pair` in by the `door`; `log` gets one line when the memory fails. */
export function createDeviceGuard(pairing: Pairing, log: (line: string) => void, door?: string): DeviceGuard {
  return {
    async check(req, res) {
      if (isLocalRequest(req) || doorOpens(req, door)) return undefined;
      const token = readCookie(req, DEVICE_COOKIE);
      let found;
      try {
        found = await pairing.device(token);
      } catch (error) {
        log(`[pairing] the kiosk's memory failed (${oneLine(error)}) (503)`);
        // A check that could not be made is never a yes.
        return { status: 503, type: 'memory_unavailable', message: "The kiosk's server cannot reach its memory just now; try again later." };
      }
      if (found.kind === 'revoked') return { status: 401, type: 'device_revoked', message: REVOKED };
      if (found.kind === 'unknown') return { status: 401, type: 'not_paired', message: NOT_PAIRED };
      if (found.renew && res && token !== undefined) setCookie(req, res, DEVICE_COOKIE, token, DEVICE_COOKIE_SECONDS);
      return undefined;
    },
  };
}

/** The guard of a server on `memory`: one for its /api/ routes and its socket alike. */
export function deviceGuardOn(memory: Pick<Memory, 'pairings' | 'pairingLock'>, options: PairingOptions, log: (line: string) => void, door?: string): DeviceGuard {
  return createDeviceGuard(new Pairing(memory.pairings, memory.pairingLock, options), log, door);
}
