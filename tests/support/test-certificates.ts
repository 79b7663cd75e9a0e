// Certificates for the HTTPS tests, made as an operator makes them (scripts/make-certificate.sh):
// a local certificate authority and a server certificate it signed, for the names given, in a
// temporary folder; and a home folder whose NSS database trusts that authority, as Chromium on
// Linux reads it (certutil, from Debian's libnss3-tools), so that a browser trusts the kiosk for
// real (a service worker, the microphone) instead of ignoring certificate errors.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificates {
  dir: string;
  /** the authority's certificate, which a browser or client is made to trust */
  ca: Buffer;
  cert: Buffer;
  key: Buffer;
  certPath: string;
  keyPath: string;
  caPath: string;
}

/** A fresh authority and a server certificate for `names` (names and addresses); the caller removes `dir`. */
export function testCertificates(names: readonly string[], dir: string = mkdtempSync(join(tmpdir(), 'kiosk-tls-'))): TestCertificates {
  execFileSync('sh', [new URL('../../scripts/make-certificate.sh', import.meta.url).pathname, dir, ...names], { stdio: 'pipe' });
  const at = (file: string) => join(dir, file);
  return { dir, ca: readFileSync(at('ca.crt')), cert: readFileSync(at('server.crt')), key: readFileSync(at('server.key')), certPath: at('server.crt'), keyPath: at('server.key'), caPath: at('ca.crt') };
}

/**
 * A fresh home folder whose NSS database (~/.pki/nssdb, which Chromium on Linux reads) trusts the
 * authority in `caPath` to identify web sites; the caller removes it.
 */
export function homeTrusting(caPath: string): string {
  const home = mkdtempSync(join(tmpdir(), 'kiosk-browser-home-'));
  const db = join(home, '.pki', 'nssdb');
  mkdirSync(db, { recursive: true });
  const certutil = (...args: string[]) => {
    try {
      execFileSync('certutil', ['-d', `sql:${db}`, ...args], { stdio: 'pipe' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('certutil is missing: apt-get install -y libnss3-tools (npm run test:chromium installs it)');
      throw error;
    }
  };
  certutil('-N', '--empty-password');
  certutil('-A', '-t', 'C,,', '-n', 'voice-kiosk test authority', '-i', caPath);
  return home;
}
