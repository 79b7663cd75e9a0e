// A flow's address in one canonical form, and where it points as the server sees it. Every
// spelling of an address is compared as WHATWG URL parsing writes it (scheme and host in lower
// case, an IPv4 address in dotted form however it was written, 0x7f000001 or 2130706433, no
// default port, no leading zeros in a port) without its fragment; a path of the server's own is
// compared decoded, with its dot segments resolved and its query dropped (the file is the same).
// Both /api/flows and /api/actions read addresses through here.

/** What a copy kept of one of the server's own files says it came from (see FlowPlace). */
export const OWN_FILES = 'own';

/** Where a flow address points: one of the server's own files, an allowed origin, or nowhere it loads flows from. */
export type FlowPlace =
  | { own: string; source: string }
  | { remote: URL; source: string }
  | { refused: string; status: number; error: 'invalid_request' }
  | { refused: string; status: number; error: 'flow_origin_not_allowed'; origin: string };

/** The canonical form of `src`: a path of the server's own, or an http(s) URL without its fragment; undefined for anything else. */
export function canonicalAddress(src: string): string | undefined {
  if (isOwnPath(src)) return ownPath(src) ?? undefined;
  const url = parse(src);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
  url.hash = '';
  return url.href;
}

/** What a copy of the flow at canonical address `source` came from: the server's own files, or the address's origin. */
export function placeFrom(source: string): string {
  return isOwnPath(source) ? OWN_FILES : (parse(source)?.origin ?? source);
}

/**
 * Where `src` points for a request that named `host` (its Host header): a path, or an address
 * on the server's own host, is one of its own files; any other address must be at one of
 * `origins` (FLOW_ALLOWED_ORIGINS).
 */
export function placeOf(src: string, host: string | undefined, origins: readonly string[]): FlowPlace {
  if (isOwnPath(src)) {
    const path = ownPath(src);
    return path === null ? invalid(`"${src.slice(0, 80)}" is not a path the server can read.`) : { own: path, source: path };
  }
  const url = parse(src);
  if (!url) return invalid(`"${src.slice(0, 80)}" is neither a bundled flow nor an address (http://… or a path starting with /).`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return invalid('A flow address must start with http:// or https://.');
  if (url.username || url.password) return invalid('A flow address must not hold a user name or password.');
  url.hash = '';
  if (host && url.host === hostAs(url, host)) return { own: ownPath(url.pathname) ?? url.pathname, source: url.href };
  if (!origins.includes(url.origin)) {
    return {
      refused: `This kiosk's server loads flows only from its own address and the origins in FLOW_ALLOWED_ORIGINS; ${url.origin} is not among them.`,
      status: 403,
      error: 'flow_origin_not_allowed',
      origin: url.origin,
    };
  }
  return { remote: url, source: url.href };
}

function isOwnPath(src: string): boolean {
  return src.startsWith('/') && !src.startsWith('//');
}

/** A path of the server's own, decoded and with its dot segments resolved (query and fragment dropped); null when it does not decode. */
function ownPath(src: string): string | null {
  try {
    return decodeURIComponent(new URL(src, 'http://kiosk.invalid').pathname);
  } catch {
    return null;
  }
}

/** The Host header as `url`'s scheme writes a host (its default port dropped), or '' when it does not parse. */
function hostAs(url: URL, host: string): string {
  return parse(`${url.protocol}//${host.trim()}`)?.host ?? '';
}

function parse(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function invalid(message: string): FlowPlace {
  return { refused: message, status: 400, error: 'invalid_request' };
}
