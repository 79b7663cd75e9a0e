// What a flow may write in a tool's HTTP effect, as patterns (for the syntax table, so the checker
// and the JSON Schema agree) and as what is wrong with a text that breaks them, said with the fix:
// the url starts with where it goes, `{origin:NAME}` and `{secret:NAME}` are written in capitals
// where the kiosk's server fills them in, and a header is sent exactly as written.

/** A reference the kiosk's server fills in: `{secret:NAME}`, NAME in capitals, digits and `_`. */
const SECRET = String.raw`\{secret:[A-Z0-9_]+\}`;

/** Any character, unless a `{secret:` starts there that is not a whole, well-written reference. */
const NO_BAD_SECRET = String.raw`(?!\{secret:(?![A-Z0-9_]+\}))[\s\S]`;

/** A text in which every `{secret:` is a well-written reference. */
export const SECRET_TEXT = `^(?:${NO_BAD_SECRET})*$`;

/** A url: an http(s) origin or `{origin:NAME}` first, no `{origin:` after, well-written secrets. */
export const URL_TEXT = String.raw`^(?:https?://|\{origin:[A-Z0-9_]+\}(?=[/?]|$))(?:(?!\{origin:)${NO_BAD_SECRET})*$`;

/** A header value: sent as written, so no `{name}` to fill in; well-written secrets. */
export const HEADER_TEXT = String.raw`^(?:(?!\{[A-Za-z_][A-Za-z0-9_]*\})${NO_BAD_SECRET})*$`;

/** What is wrong with a `{secret:` in the text, if anything. */
function secretProblem(text: string): string | undefined {
  for (const m of text.matchAll(/\{secret:([^}]*)\}?/gi)) {
    if (new RegExp(`^${SECRET}$`).test(m[0])) continue;
    const name = m[1]!.trim().toUpperCase().replace(/[^A-Z0-9_]+/g, '_');
    const written = m[0].endsWith('}') ? m[0] : `${m[0]}…`;
    return `"${written}" can never be filled in: a secret is written {secret:NAME}, NAME in capitals, digits and _ (the server reads it from ACTION_SECRET_NAME); write {secret:${name || 'NAME'}}`;
  }
  return undefined;
}

/** What is wrong with a url the pattern refuses. */
export function urlProblem(url: string): string {
  const origin = /^\{origin:([^}]*)\}?/i.exec(url);
  if (origin && !/^\{origin:[A-Z0-9_]+\}/.test(url)) {
    return `"${origin[0]}" can never be filled in: an origin is written {origin:NAME}, NAME in capitals, digits and _ (the operator sets ACTION_ORIGIN_NAME); write {origin:${origin[1]!.trim().toUpperCase().replace(/[^A-Z0-9_]+/g, '_') || 'NAME'}}`;
  }
  if (origin && !/^\{origin:[A-Z0-9_]+\}(?:[/?]|$)/.test(url)) return `after ${origin[0]} the url goes on with "/" or "?" (${origin[0]}/check-ins)`;
  if (!origin && !/^https?:\/\//.test(url)) {
    return 'the url must start with https:// (or http://) and the host, or with {origin:NAME} (the origin the operator sets as ACTION_ORIGIN_NAME), so that the flow says where it goes and no value can choose the host';
  }
  if (/\{origin:/i.test(url.slice(1))) return '{origin:NAME} may only start the url, as {origin:NAME}/path';
  return secretProblem(url) ?? 'this url cannot be sent';
}

/** What is wrong with a header value the pattern refuses. */
export function headerProblem(value: string): string {
  const name = /\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(value);
  if (name) {
    return `headers are sent as written, so "${name[0]}" would go out as these very characters: a value is filled in only in the url and the body; in a header only {secret:NAME} is, by the kiosk's server`;
  }
  return secretProblem(value) ?? 'this header cannot be sent';
}

/** What is wrong with a text of the body the pattern refuses. */
export function bodyTextProblem(text: string): string {
  return secretProblem(text) ?? 'this text cannot be sent';
}
