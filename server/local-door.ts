// The server's door for `npm run pair` on its own machine. PGlite's folder is the running server's
// alone (storage/pglite.ts), so while it runs the command asks the server to make, list or revoke:
// the server leaves a note in the folder (readable by its own user only) saying where it listens
// and a token it made at start, and takes that token, from this machine only, in place of the
// operator panel's PIN. The note goes when the server stops; a note left by a server that died
// names a process that is no longer there.

import { X509Certificate } from 'node:crypto';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The note's file name in the data folder. */
export const DOOR_FILE = 'server-door.json';

/** What the note says. */
export interface DoorNote {
  /** the server's process */
  pid: number;
  /** an address of this machine the server answers on (loopback when it listens on every address) */
  url: string;
  /** sent as the x-kiosk-door header */
  token: string;
  /** the SHA-256 fingerprint of the server's TLS certificate, which the command holds it to (it may not name this address) */
  fingerprint?: string;
}

/** Where the command reaches a server listening on `host`:`port`: a loopback address when it listens on every address. */
export function doorUrl(host: string, port: number, tls: boolean): string {
  const reach = host === '0.0.0.0' ? '127.0.0.1' : host === '::' || host === '' ? '::1' : host;
  return `${tls ? 'https' : 'http'}://${reach.includes(':') ? `[${reach}]` : reach}:${port}`;
}

/** The fingerprint of the PEM certificate `cert`, as X509Certificate spells it. */
export function certificateFingerprint(cert: Buffer): string {
  return new X509Certificate(cert).fingerprint256;
}

/** Leaves the note in `dataDir`; resolves with what takes it away again. */
export function openDoor(dataDir: string, note: DoorNote): () => void {
  const file = join(dataDir, DOOR_FILE);
  writeFileSync(file, `${JSON.stringify(note)}\n`, { mode: 0o600 });
  // A file that was there already keeps its mode through writeFileSync.
  chmodSync(file, 0o600);
  return () => rmSync(file, { force: true });
}

/** The note in `dataDir`, or undefined when there is none (or it is not one). */
export function readDoor(dataDir: string): DoorNote | undefined {
  let note: Partial<DoorNote>;
  try {
    note = JSON.parse(readFileSync(join(dataDir, DOOR_FILE), 'utf8')) as Partial<DoorNote>;
  } catch {
    return undefined;
  }
  if (typeof note.pid !== 'number' || typeof note.url !== 'string' || typeof note.token !== 'string') return undefined;
  return { pid: note.pid, url: note.url, token: note.token, ...(typeof note.fingerprint === 'string' ? { fingerprint: note.fingerprint } : {}) };
}
