// What a flow writes in a tool's HTTP effect that can never work as meant, said with the fix: a
// url that does not start with where it goes, `{origin:NAME}` and `{secret:NAME}` not written in
// capitals where the kiosk's server fills them in, and a `{name}` in a header, which is sent as
// written. These are warnings: the server refuses such a request, or sends the text as it is, so
// nothing is sent where the flow did not mean it (and its own refusals stay testable).

/** A reference the kiosk's server fills in, whole and well written. */
const SECRET = /^\{secret:[A-Z0-9_]+\}$/;

/** `{secret:clinic token}` written as the server reads it: `{secret:CLINIC_TOKEN}`. */
const asName = (raw: string) => raw.trim().toUpperCase().replace(/[^A-Z0-9_]+/g, '_') || 'NAME';

/** What is wrong with a `{secret:` in the text, if anything. */
export function secretProblem(text: string): string | undefined {
  for (const m of text.matchAll(/\{secret:([^}]*)\}?/gi)) {
    if (SECRET.test(m[0])) continue;
    const written = m[0].endsWith('}') ? m[0] : `${m[0]}…`;
    return `"${written}" can never be filled in: a secret is written {secret:NAME}, NAME in capitals, digits and _ (the server reads it from ACTION_SECRET_NAME); write {secret:${asName(m[1]!)}}`;
  }
  return undefined;
}

/** What is wrong with a url, if anything. */
export function urlProblem(url: string): string | undefined {
  const origin = /^\{origin:([^}]*)\}?/i.exec(url);
  if (origin && !/^\{origin:[A-Z0-9_]+\}/.test(url)) {
    return `"${origin[0]}" can never be filled in: an origin is written {origin:NAME}, NAME in capitals, digits and _ (the operator sets ACTION_ORIGIN_NAME); write {origin:${asName(origin[1]!)}}`;
  }
  if (origin && !/^\{origin:[A-Z0-9_]+\}(?:[/?]|$)/.test(url)) return `after ${origin[0]} the url goes on with "/" or "?" (${origin[0]}/check-ins); the server refuses it otherwise`;
  if (!origin && !/^https?:\/\//i.test(url)) {
    return "the url must start with https:// (or http://) and the host, or with {origin:NAME} (the origin the operator sets as ACTION_ORIGIN_NAME): the kiosk's server refuses any other, so that the flow says where it goes";
  }
  if (/\{origin:/i.test(url.slice(1))) return '{origin:NAME} may only start the url, as {origin:NAME}/path: the server refuses it anywhere else';
  return secretProblem(url);
}

/** What is wrong with a header value, if anything. */
export function headerProblem(value: string): string | undefined {
  const name = /\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(value);
  if (name) {
    return `headers are sent as written, so "${name[0]}" would go out as these very characters: a value is filled in only in the url and the body; in a header only {secret:NAME} is, by the kiosk's server`;
  }
  return secretProblem(value);
}
