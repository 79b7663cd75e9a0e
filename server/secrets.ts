// Secret references in a flow's action: `{secret:NAME}` in a header value, the url or a text of
// the body stands for the environment variable ACTION_SECRET_NAME, put in on the server only.
// Also the scrubber that takes every configured secret back out of what the page or a log gets.

import { scrubSecret } from './upstream-error.ts';

/** A reference as a flow writes it; the name is upper-case letters, digits and `_`. */
const REFERENCE = /\{secret:([A-Z0-9_]+)\}/g;

/** What stands in for a secret that turned up where the page or a log would see it. */
export const REDACTED = '[redacted]';

/**
 * `text` with every reference replaced by its secret. Names the server has no secret for are
 * added to `missing` (and left as written: the caller sends nothing when `missing` is not empty).
 */
export function resolveText(text: string, secrets: Readonly<Record<string, string>>, missing: Set<string>): string {
  return text.replace(REFERENCE, (whole, name: string) => {
    if (Object.hasOwn(secrets, name)) return secrets[name]!;
    missing.add(name);
    return whole;
  });
}

/** A JSON value with `resolveText` applied to each of its texts (object keys are left alone). */
export function resolveDeep(value: unknown, secrets: Readonly<Record<string, string>>, missing: Set<string>): unknown {
  if (typeof value === 'string') return resolveText(value, secrets, missing);
  if (Array.isArray(value)) return value.map((item) => resolveDeep(item, secrets, missing));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveDeep(item, secrets, missing)]));
  }
  return value;
}

/** Takes the configured secrets out of answers (the target's data, error messages) and log lines. */
export class Scrubber {
  /** each secret and its percent-encoded spelling (as an echoed url would hold it), longest first */
  private readonly forms: string[];
  private readonly values: string[];

  constructor(secrets: Readonly<Record<string, string>>) {
    this.values = Object.values(secrets);
    const forms = new Set<string>();
    for (const secret of this.values) {
      forms.add(secret);
      forms.add(encodeURIComponent(secret));
    }
    this.forms = [...forms].sort((a, b) => b.length - a.length);
  }

  /** `text` with every whole occurrence of a secret replaced (for data, where a near match is ordinary text). */
  text(text: string): string {
    let out = text;
    for (const form of this.forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
    return out;
  }

  /**
   * `text` for a message taken from a target's error body: besides whole secrets, any word sharing
   * four characters in a row with one, or masked with `***`, goes too (services echo keys partly).
   */
  message(text: string): string {
    let out = this.text(text);
    for (const secret of this.values) out = scrubSecret(out, secret);
    return out;
  }

  /** A JSON value with `text` applied to every text in it, keys included. */
  deep(value: unknown): unknown {
    if (this.forms.length === 0) return value;
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.deep(item));
    if (value !== null && typeof value === 'object') {
      // fromEntries defines own properties, so a `__proto__` key from JSON.parse stays a plain key.
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [this.text(key), this.deep(item)]));
    }
    return value;
  }
}
