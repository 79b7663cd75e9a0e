// Where an action may go and what exactly is sent: the url's origin must be one the operator
// allowed (before and after secrets are put in), each secret may go only to the origins the
// operator listed for it, and the request carries the flow's headers,
// the JSON type, `accept` and the action id as `Idempotency-Key`, nothing else.

import type { ActionRequest } from './action-request.ts';
import { ORIGIN_PREFIX, ORIGIN_REFERENCE, SECRET_ORIGINS_SUFFIX, SECRET_PREFIX, type ActionsConfig } from './config.ts';
import { resolveDeep, resolveText } from './secrets.ts';

/** A request ready to send. */
export interface PreparedCall {
  ok: true;
  url: URL;
  /** the url's origin, for the log line */
  origin: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** Why an action is not sent at all. */
export interface RefusedCall {
  ok: false;
  error: 'refused_host' | 'missing_secret' | 'secret_not_allowed';
  message: string;
  /** the origin that was refused, when the url had one */
  origin?: string;
}

/**
 * The request to send for `request`, or why nothing may be sent: an origin the operator did not
 * allow (or none allowed at all), a url that is not plain http(s), or a secret the server lacks.
 */
export function prepareCall(request: ActionRequest, config: ActionsConfig): PreparedCall | RefusedCall {
  const allowed = new Set([...config.allowedOrigins, ...Object.values(config.origins ?? {})]);
  // `{origin:NAME}` at the start of the url is the origin the operator named ACTION_ORIGIN_NAME:
  // looked at first, so that a refusal names the very setting this url needs.
  const named = namedOrigin(request.url, config.origins ?? {});
  if (!named.ok) return named;
  if (allowed.size === 0) {
    return refuse('refused_host', 'No action may run: this kiosk\'s server allows no origin. Set ACTIONS_ALLOWED_ORIGINS to the origins actions may call, e.g. https://clinic.example.');
  }
  // The url as written decides the origin; a secret may fill in its path or query, never its host.
  const written = checkUrl(named.url, allowed);
  if (!written.ok) return written;

  const missing = new Set<string>();
  const used = new Set<string>();
  const urlText = resolveText(named.url, config.secrets, missing, used);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name] = resolveText(value, config.secrets, missing, used);
  const body = request.body === undefined ? undefined : resolveDeep(request.body, config.secrets, missing, used);
  if (missing.size) {
    const names = [...missing].sort();
    const variables = names.map((name) => `ACTION_SECRET_${name}`).join(', ');
    return refuse('missing_secret', `This kiosk's server has no secret ${names.join(', ')}: set ${variables}. Nothing was sent.`);
  }

  const resolved = checkUrl(urlText, allowed);
  if (!resolved.ok) return resolved;
  if (resolved.url.origin !== written.url.origin) {
    return refuse('refused_host', 'A secret in the url changed where it points: secrets may fill in its path or query only.');
  }
  const notAllowed = secretsNotAllowed(used, resolved.url.origin, config.secretOrigins ?? {});
  if (notAllowed) return notAllowed;

  headers['accept'] = 'application/json';
  headers['Idempotency-Key'] = request.actionId;
  const call: PreparedCall = { ok: true, url: resolved.url, origin: resolved.url.origin, headers };
  if (body !== undefined) {
    call.body = Buffer.from(JSON.stringify(body));
    headers['content-type'] = 'application/json';
  }
  return call;
}

/** The first secret the operator has not allowed to go to `origin`, as a refusal; null when all may go. */
function secretsNotAllowed(used: ReadonlySet<string>, origin: string, where: Readonly<Record<string, readonly string[]>>): RefusedCall | null {
  for (const name of [...used].sort()) {
    const allowed = Object.hasOwn(where, name) ? where[name]! : [];
    if (allowed.includes(origin)) continue;
    const rule = allowed.length ? `${SECRET_PREFIX}${name}${SECRET_ORIGINS_SUFFIX} lists only ${allowed.join(', ')}` : `${SECRET_PREFIX}${name}${SECRET_ORIGINS_SUFFIX} is not set`;
    return refuse('secret_not_allowed', `The secret ${name} may not be sent to ${origin} (${rule}). Nothing was sent.`, origin);
  }
  return null;
}

/** A url starting with `{origin:NAME}`, with that origin put in; the reference nowhere else. */
function namedOrigin(url: string, origins: Readonly<Record<string, string>>): { ok: true; url: string } | RefusedCall {
  const m = ORIGIN_REFERENCE.exec(url);
  const rest = m ? url.slice(m[0].length) : url;
  if (/\{origin:/i.test(rest)) return refuse('refused_host', 'An {origin:NAME} reference may only start the url, as {origin:NAME}/path.');
  if (!m) return { ok: true, url };
  const origin = Object.hasOwn(origins, m[1]!) ? origins[m[1]!] : undefined;
  if (origin === undefined) {
    return refuse('refused_host', `This kiosk's server has no origin ${m[1]}: set ${ORIGIN_PREFIX}${m[1]} to the service's origin, e.g. https://clinic.example. Nothing was sent.`);
  }
  if (rest !== '' && !rest.startsWith('/') && !rest.startsWith('?')) return refuse('refused_host', `After {origin:${m[1]}} the url must go on with "/" or "?".`);
  return { ok: true, url: origin + rest };
}

function checkUrl(text: string, allowed: ReadonlySet<string>): { ok: true; url: URL } | RefusedCall {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return refuse('refused_host', 'The action\'s url is not a full http:// or https:// address.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return refuse('refused_host', `The action's url must use http or https, not ${url.protocol.replace(/:$/, '')}.`);
  }
  if (url.username || url.password) {
    return refuse('refused_host', 'The action\'s url holds a user name or password, which is never sent: use a header with {secret:NAME}.', url.origin);
  }
  if (!allowed.has(url.origin)) {
    return refuse('refused_host', `${url.origin} is not among this kiosk's allowed origins (ACTIONS_ALLOWED_ORIGINS); nothing was sent.`, url.origin);
  }
  return { ok: true, url };
}

function refuse(error: RefusedCall['error'], message: string, origin?: string): RefusedCall {
  return origin === undefined ? { ok: false, error, message } : { ok: false, error, message, origin };
}
