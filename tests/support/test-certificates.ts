// Certificates for the HTTPS tests, made as an operator makes them (scripts/make-certificate.sh):
// a local certificate authority and a server certificate it signed, for the names given, in a
// temporary folder.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
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
