// Who may use /api/: only the kiosk's own page. A request must name a host the server serves
// (an IP address, localhost, or a name in ALLOWED_HOSTS): a page whose own name was made to
// point at the kiosk (DNS rebinding) names another. And a browser request from another site
// (its Origin, or Sec-Fetch-Site) is refused before anything is read or spent.

import type { IncomingMessage } from 'node:http';
import { isIPv4, isIPv6 } from 'node:net';

/** Why a request was refused (a 403), in the words the page and the operator read. */
export interface Refusal {
  type: 'host_not_allowed' | 'cross_site';
  message: string;
}

/** A Host header: a name or IPv4 address, or an IPv6 address in brackets, with an optional port. */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/;

/** The name (or bracketed IPv6 address) in the request's Host header, lower-cased; undefined when it is no host. */
export function hostName(req: IncomingMessage): string | undefined {
  return HOST_HEADER.exec((req.headers.host ?? '').trim().toLowerCase())?.[1];
}

/** The refusal of `req`, or undefined when it comes from the kiosk's own page (or from no browser at all). */
export function refuseForeign(req: IncomingMessage, allowedHosts: readonly string[]): Refusal | undefined {
  const host = (req.headers.host ?? '').trim().toLowerCase();
  const name = hostName(req);
  if (name === undefined || !servedName(name, allowedHosts)) {
    const shown = name === undefined ? 'this request' : `the name "${name}"`;
    return {
      type: 'host_not_allowed',
      message: `This kiosk's server does not answer to ${shown}; add the names it is reached by to ALLOWED_HOSTS (IP addresses and localhost always work).`,
    };
  }
  const site = req.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return crossSite(`the browser says it comes from a ${site === 'cross-site' ? 'page on another site' : 'page on another origin of this site'}`);
  const origin = req.headers.origin;
  if (origin !== undefined && !sameOrigin(origin, host)) return crossSite('it comes from a page on another origin');
  return undefined;
}

/** An IP literal (a rebinding attack needs a name), localhost, or a name the operator listed. */
function servedName(name: string, allowedHosts: readonly string[]): boolean {
  if (name.startsWith('[')) return isIPv6(name.slice(1, -1));
  return isIPv4(name) || name === 'localhost' || allowedHosts.includes(name);
}

/**
 * Whether the Origin header names the same host and port as the Host header. The scheme is not
 * compared: behind a TLS proxy the page is https while this server sees plain http, and no other
 * page can be served on this very host and port.
 */
function sameOrigin(origin: string, host: string): boolean {
  try {
    const from = new URL(origin);
    if (from.protocol !== 'http:' && from.protocol !== 'https:') return false;
    // Read the Host with the origin's scheme, so that its default port compares equal to none.
    return new URL(`${from.protocol}//${host}`).host === from.host;
  } catch {
    return false; // `null` (a sandboxed frame, a file), or nonsense
  }
}

function crossSite(why: string): Refusal {
  return { type: 'cross_site', message: `The kiosk's /api/ serves its own page only, and ${why}.` };
}
