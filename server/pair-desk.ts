// What `npm run pair` does its work through: the kiosk's memory opened directly (no server holds
// it, or it is a PostgreSQL server a fleet shares), or the running server that holds its PGlite
// folder, reached at the door it left there (local-door.ts) over its own loopback address.

import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import type { Duplex } from 'node:stream';
import { DOOR_HEADER } from './device-guard.ts';
import type { DoorNote } from './local-door.ts';
import { Pairing, type MadeCode } from './pairing.ts';
import type { Memory } from './storage/memory.ts';

/** The devices and open codes, as the operator reads them (ms since 1970). */
export interface DeskList {
  devices: { name: string; pairedAt: number; lastSeen: number }[];
  codes: { name: string; expiresAt: number }[];
}

/** The operator's three tasks, wherever they are done. */
export interface Desk {
  /** where the work is done, for the operator */
  where: string;
  make(name: string): Promise<MadeCode>;
  list(): Promise<DeskList>;
  /** the device's name as paired, or null when none is called that */
  revoke(name: string): Promise<string | null>;
  close(): Promise<void>;
}

/** The desk on a memory this process opened. */
export function memoryDesk(memory: Memory): Desk {
  const pairing = new Pairing(memory.pairings, memory.pairingLock);
  return {
    where: memory.where,
    make: (name) => pairing.makeCode(name),
    list: async () => ({ devices: await pairing.devices(), codes: await pairing.openCodes() }),
    revoke: (name) => pairing.revoke(name),
    close: () => memory.close(),
  };
}

/** A sentence for the operator when the running server could not be asked. */
export class DoorError extends Error {}

/** The desk of the server that left `note`, with the memory at `where`. */
export function doorDesk(note: DoorNote, where: string): Desk {
  const ask = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const answer = await call(note, method, path, body);
    if (answer.status === 403 && (answer.body as { error?: string }).error === 'operator_locked') {
      throw new DoorError(`the server at ${note.url} did not take the token of the note it left; restart it, or stop it and run this again.`);
    }
    return answer;
  };
  return {
    where: `${where}, through the server running at ${note.url} (process ${note.pid})`,
    async make(name) {
      const { status, body } = await ask('POST', '/api/operator/devices', { name });
      const answer = body as { code?: string; name?: string; expires_at?: string; error?: string; message?: string };
      if (status === 201 && answer.code && answer.name && answer.expires_at) return { ok: true, code: answer.code, name: answer.name, expiresAt: Date.parse(answer.expires_at) };
      if (answer.error === 'name_taken' || answer.error === 'bad_name') return { ok: false, reason: answer.error, message: answer.message ?? '' };
      throw new DoorError(`the server answered ${status}${answer.message ? `: ${answer.message}` : ''}`);
    },
    async list() {
      const { status, body } = await ask('GET', '/api/operator/devices');
      if (status !== 200) throw new DoorError(`the server answered ${status}`);
      const answer = body as { devices: { name: string; paired_at: string; last_seen: string }[]; codes: { name: string; expires_at: string }[] };
      return {
        devices: answer.devices.map((d) => ({ name: d.name, pairedAt: Date.parse(d.paired_at), lastSeen: Date.parse(d.last_seen) })),
        codes: answer.codes.map((c) => ({ name: c.name, expiresAt: Date.parse(c.expires_at) })),
      };
    },
    async revoke(name) {
      const { status, body } = await ask('POST', '/api/operator/devices/revoke', { name });
      if (status === 200) return (body as { name: string }).name;
      if (status === 404) return null;
      throw new DoorError(`the server answered ${status}`);
    },
    close: async () => {},
  };
}

/** One request to the server at the door, its JSON answer read whole. */
function call(note: DoorNote, method: string, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const url = new URL(path, note.url);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers = { accept: 'application/json', [DOOR_HEADER]: note.token, ...(payload ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}) };
  return new Promise((resolve, reject) => {
    const done = (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
        } catch {
          reject(new DoorError(`the server at ${note.url} answered ${res.statusCode} with something that is not JSON`));
        }
      });
    };
    const options = { method, headers, timeout: 15_000 };
    // Over HTTPS the server's certificate is held to the fingerprint in its note (it need not name this address).
    const req = url.protocol === 'https:' ? httpsRequest(url, { ...options, createConnection: pinned(url, note.fingerprint) }, done) : httpRequest(url, options, done);
    req.on('timeout', () => req.destroy(new DoorError(`the server at ${note.url} did not answer within 15 s`)));
    req.on('error', (error) => reject(error instanceof DoorError ? error : new DoorError(`the server at ${note.url} cannot be reached (${error.message})`)));
    req.end(payload);
  });
}

/** A TLS connection to `url` that goes on only when the server's certificate has `fingerprint`. */
function pinned(url: URL, fingerprint: string | undefined) {
  return (_options: unknown, ready: (error: Error | null, socket: Duplex) => void): undefined => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const socket: TLSSocket = tlsConnect({ host, port: Number(url.port), rejectUnauthorized: false }, () => {
      if (fingerprint !== undefined && socket.getPeerCertificate().fingerprint256 === fingerprint) return ready(null, socket);
      socket.destroy();
      ready(new DoorError(`the server at ${url.origin} does not have the certificate its note names; is another program on that port?`), socket);
    });
    socket.once('error', (error) => ready(error, socket));
    return undefined;
  };
}
