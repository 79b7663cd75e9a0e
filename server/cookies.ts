// The two cookies the kiosk's server sets: the device's credential (`vk-device`, for every /api/
// route) and the operator panel's session (`vk-operator`, for /api/operator/ only). Neither can
// be read by the page's scripts (HttpOnly) or is sent with a request another site starts
// (SameSite=Strict). Over HTTPS they are Secure, with the prefix that makes the browser hold them
// to that: `__Host-` (this host only, path /) and `__Secure-`.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';

/** One of the server's cookies: its plain name and the path it is sent on. */
export interface CookieKind {
  name: string;
  path: string;
}

export const DEVICE_COOKIE: CookieKind = { name: 'vk-device', path: '/' };
export const OPERATOR_COOKIE: CookieKind = { name: 'vk-operator', path: '/api/operator' };

/** Browsers keep a cookie 400 days at most; the device's is sent again as it is used. */
export const DEVICE_COOKIE_SECONDS = 400 * 24 * 3600;

/** The name `kind` goes by over HTTPS. */
function secureName(kind: CookieKind): string {
  return `${kind.path === '/' ? '__Host-' : '__Secure-'}${kind.name}`;
}

/**
 * Whether the browser reached this server over HTTPS: its own TLS, or a TLS proxy in front that
 * says so (X-Forwarded-Proto), or the page's origin. A request that only claims it gets a Secure
 * cookie over plain HTTP, which its browser drops: it harms no one but itself.
 */
export function overHttps(req: IncomingMessage): boolean {
  if ((req.socket as Partial<TLSSocket>).encrypted === true) return true;
  if (String(req.headers['x-forwarded-proto'] ?? '').split(',', 1)[0]!.trim().toLowerCase() === 'https') return true;
  return (req.headers.origin ?? '').toLowerCase().startsWith('https://');
}

/** The value of `kind` the request carries (under either name), or undefined. */
export function readCookie(req: IncomingMessage, kind: CookieKind): string | undefined {
  const names = [secureName(kind), kind.name];
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const name = part.slice(0, at).trim();
    if (names.includes(name)) return part.slice(at + 1).trim();
  }
  return undefined;
}

/** Sets `kind` to `value` for `seconds` (0: removes it), beside any other cookie the answer sets. */
export function setCookie(req: IncomingMessage, res: ServerResponse, kind: CookieKind, value: string, seconds: number): void {
  const secure = overHttps(req);
  const cookie = [`${secure ? secureName(kind) : kind.name}=${value}`, `Path=${kind.path}`, `Max-Age=${seconds}`, 'HttpOnly', ...(secure ? ['Secure'] : []), 'SameSite=Strict'].join('; ');
  const before = res.getHeader('set-cookie');
  res.setHeader('set-cookie', [...(Array.isArray(before) ? before : before === undefined ? [] : [String(before)]), cookie]);
}
