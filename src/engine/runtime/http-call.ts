// A tool's HTTP effect turned into the request that is sent: the flow's method, url, body and
// headers with the visit's values filled in. The engine builds it for its `action_run`; the
// kiosk's server builds it again from its own copy of the flow, with the values the page sends,
// so what leaves the kiosk is always what the flow declares and never what a page says.

import type { HttpEffect } from '../language/flow.ts';
import { displayValue, interpolate, interpolateDeep, templateNames } from '../language/interpolate.ts';
import { own } from '../language/records.ts';

/** The request an HTTP effect makes, before the server puts secrets and origins in. */
export interface HttpCall {
  method: string;
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** the tool's own time-out (`http.timeout_seconds`), when it gives one */
  timeout_seconds?: number;
}

/** A reference the kiosk's server would replace with a secret: `{secret:NAME}`. */
const SECRET_REFERENCE = /\{secret:[A-Z0-9_]+\}/g;

const references = (text: string) => text.match(SECRET_REFERENCE)?.length ?? 0;

/** Every text of the effect a value can be filled into: the url and the body's texts. */
function templates(http: HttpEffect): string[] {
  const texts: string[] = [http.url];
  const collect = (v: unknown): void => {
    if (typeof v === 'string') texts.push(v);
    else if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === 'object') Object.values(v).forEach(collect);
  };
  collect(http.body);
  return texts;
}

/** The names the effect fills in: of its url and the texts of its body. */
export function effectNames(http: HttpEffect): Set<string> {
  return new Set(templates(http).flatMap(templateNames));
}

/**
 * The values the effect uses, and no others: what the page sends the server for it. A value the
 * visit does not have is left out (it fills in as empty, or null in a body, on either side).
 */
export function valuesFor(http: HttpEffect, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const used: Record<string, unknown> = Object.create(null);
  for (const name of effectNames(http)) {
    const value = own(values, name);
    if (value !== undefined) used[name] = value;
  }
  return { ...used };
}

/**
 * Why the effect may not be sent with these values, or null. A value (from the visitor, the LLM
 * or an answer) that holds `{secret:` could make the server put a secret where the flow's author
 * never wrote one, so it is refused whatever its case; so is a text whose values and template
 * together form a reference the template alone did not have, and a value that would be a `.` or
 * `..` segment of the url's path.
 */
export function refusedValues(http: HttpEffect, values: Readonly<Record<string, unknown>>): string | null {
  // Percent-encoding keeps a value one segment of the url's path, but `.` and `..` are segments
  // the url's parser resolves (so `/patients/{pid}/visits` with `..` would reach `/visits`).
  const path = http.url.split(/[?#]/, 1)[0]!;
  for (const name of templateNames(path)) {
    const value = displayValue(own(values, name));
    if (value === '.' || value === '..') return `the value of "${name}" is "${value}", which would change the path the url points to`;
  }
  for (const text of templates(http)) {
    for (const name of templateNames(text)) {
      if (/\{secret:/i.test(displayValue(own(values, name)))) return `the value of "${name}" holds a secret reference ({secret:…}), which a value may never carry`;
    }
    if (references(interpolate(text, values)) > references(text)) return "the values put together with the flow's text form a secret reference ({secret:…})";
  }
  return null;
}

/** The request the effect makes with `values`, or why it may not be made. */
export function httpCall(http: HttpEffect, values: Readonly<Record<string, unknown>>): HttpCall | { refused: string } {
  const refused = refusedValues(http, values);
  if (refused) return { refused };
  // Each value filled into the url is percent-encoded, so it stays one path segment or one query
  // value whatever it holds (`/`, `?`, `#`, `&`, `=`); the template's own text is kept as written.
  const inUrl: Record<string, string> = Object.create(null);
  for (const [name, value] of Object.entries(values)) inUrl[name] = encodeURIComponent(displayValue(value));
  return {
    method: http.method,
    url: interpolate(http.url, inUrl),
    ...(http.body !== undefined ? { body: interpolateDeep(http.body, values) } : {}),
    ...(http.headers ? { headers: { ...http.headers } } : {}),
    ...(http.timeoutSeconds !== undefined ? { timeout_seconds: http.timeoutSeconds } : {}),
  };
}
