// HTTPS built in: TLS_CERT and TLS_KEY name PEM files (the certificate, with any intermediate ones
// after it, and its private key without a passphrase), and the server speaks HTTPS with them, its
// WebSocket too. A browser gives the microphone to a secure context only, so a tablet on the
// network needs this (or a TLS proxy in front, docs/deploying.md). Each problem is one line naming
// the setting: a file missing or unreadable, not PEM, a key that is not the certificate's.

import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createSecureContext } from 'node:tls';
import { ConfigError } from './config.ts';

/** The certificate and key the server is started with. */
export interface TlsFiles {
  cert: Buffer;
  key: Buffer;
  /** when the certificate runs out (ms since 1970) */
  validTo: number;
  /** the names and addresses the certificate is for, as its subjectAltName lists them */
  names: string[];
}

type Env = Record<string, string | undefined>;

/**
 * The certificate and key TLS_CERT and TLS_KEY name (relative paths from `base`), or null when
 * neither is set. Throws a ConfigError naming the setting when they cannot be used.
 */
export function readTls(env: Env, base: string = process.cwd()): TlsFiles | null {
  const certPath = env['TLS_CERT']?.trim();
  const keyPath = env['TLS_KEY']?.trim();
  if (!certPath && !keyPath) return null;
  if (!certPath || !keyPath) {
    const [set, unset] = certPath ? ['TLS_CERT', 'TLS_KEY'] : ['TLS_KEY', 'TLS_CERT'];
    throw new ConfigError(`${set} is set but ${unset} is not: set both (the certificate and its private key, PEM files) for HTTPS, or neither for plain HTTP.`);
  }
  const cert = readPem('TLS_CERT', resolve(base, certPath));
  const key = readPem('TLS_KEY', resolve(base, keyPath));
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch (error) {
    throw new ConfigError(`TLS_CERT: ${resolve(base, certPath)} is not a PEM certificate (${reason(error)}).`);
  }
  const text = key.toString('latin1');
  if (text.includes('-----BEGIN ENCRYPTED PRIVATE KEY-----') || text.includes('Proc-Type: 4,ENCRYPTED')) {
    throw new ConfigError(`TLS_KEY: ${resolve(base, keyPath)} is encrypted: give the key without a passphrase (openssl pkey -in KEY -out PLAIN.key asks for it once).`);
  }
  try {
    createPrivateKey(key);
  } catch (error) {
    throw new ConfigError(`TLS_KEY: ${resolve(base, keyPath)} is not a usable PEM private key (${reason(error)}).`);
  }
  try {
    createSecureContext({ cert, key });
  } catch (error) {
    throw new ConfigError(`TLS_KEY: ${resolve(base, keyPath)} is not the private key of the certificate in TLS_CERT (${reason(error)}).`);
  }
  const names = (x509.subjectAltName ?? '').split(', ').map((entry) => entry.replace(/^(DNS|IP Address):/, '')).filter(Boolean);
  return { cert, key, validTo: Date.parse(x509.validTo), names };
}

/**
 * Problems that do not stop the server: a certificate out of date or about to be, and names in
 * ALLOWED_HOSTS it is not for (a browser reaching the kiosk by such a name refuses the page).
 */
export function tlsWarnings(tls: TlsFiles, allowedHosts: readonly string[], now: number = Date.now()): string[] {
  const warnings: string[] = [];
  const day = new Date(tls.validTo).toISOString().slice(0, 10);
  const days = Math.floor((tls.validTo - now) / 86_400_000);
  if (tls.validTo <= now) warnings.push(`TLS_CERT: the certificate ran out on ${day}; browsers refuse it until it is renewed.`);
  else if (days < 14) warnings.push(`TLS_CERT: the certificate runs out in ${days} ${days === 1 ? 'day' : 'days'} (${day}); renew it.`);
  const missing = allowedHosts.filter((host) => !tls.names.some((name) => covers(name.toLowerCase(), host)));
  if (missing.length) warnings.push(`TLS_CERT: the certificate is not for ${missing.join(', ')} (in ALLOWED_HOSTS); it names ${tls.names.join(', ') || 'nothing'}.`);
  return warnings;
}

/** Whether the certificate's name `name` (maybe `*.example`) covers the host name `host`. */
function covers(name: string, host: string): boolean {
  if (name.startsWith('*.')) return host.endsWith(name.slice(1)) && !host.slice(0, -(name.length - 1)).includes('.');
  return name === host;
}

function readPem(setting: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'there is no such file' : code === 'EACCES' ? 'this user may not read it' : code === 'EISDIR' ? 'it is a folder' : reason(error);
    throw new ConfigError(`${setting}: cannot read ${path} (${why}).`);
  }
}

function reason(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
}
