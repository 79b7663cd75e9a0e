// Secret references in a flow's action: `{secret:NAME}` in a header value, the url or a text of
// the body stands for the environment variable ACTION_SECRET_NAME, put in on the server only.
// Also the scrubber that takes every configured secret back out of what the page or a log gets.

/** A reference as a flow writes it; the name is upper-case letters, digits and `_`. */
const REFERENCE = /\{secret:([A-Z0-9_]+)\}/g;

/** What stands in for a secret that turned up where the page or a log would see it. */
export const REDACTED = '[redacted]';

/**
 * `text` with every reference replaced by its secret. Names the server has no secret for are
 * added to `missing` (and left as written: the caller sends nothing when `missing` is not empty).
 */
export function resolveText(text: string, secrets: Readonly<Record<string, string>>, missing: Set<string>, used?: Set<string>): string {
  return text.replace(REFERENCE, (whole, name: string) => {
    used?.add(name);
    if (Object.hasOwn(secrets, name)) return secrets[name]!;
    missing.add(name);
    return whole;
  });
}

/** A JSON value with `resolveText` applied to each of its texts (object keys are left alone). */
export function resolveDeep(value: unknown, secrets: Readonly<Record<string, string>>, missing: Set<string>, used?: Set<string>): unknown {
  if (typeof value === 'string') return resolveText(value, secrets, missing, used);
  if (Array.isArray(value)) return value.map((item) => resolveDeep(item, secrets, missing, used));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveDeep(item, secrets, missing, used)]));
  }
  return value;
}

/** Takes the configured secrets out of answers (the target's data, error messages) and log lines. */
export class Scrubber {
  private readonly spellings: SecretSpellings[];

  constructor(secrets: Readonly<Record<string, string>>) {
    this.spellings = Object.values(secrets).map(spellingsOf);
  }

  /**
   * `text` with every secret taken out: in any letter case, percent-encoded, in hex, in base64 or
   * base64url (also inside a longer encoded text, as in a Basic header), and a long enough piece of
   * it (half of it, at least 10 characters: a token cut short). Nothing else is touched.
   */
  text(text: string): string {
    let out = text;
    for (const s of this.spellings) {
      out = out.replace(s.whole, REDACTED);
      out = redactPieces(out, s);
    }
    return out;
  }

  /** A JSON value with `text` applied to every text in it, keys included. */
  deep(value: unknown): unknown {
    return this.spellings.length === 0 ? value : mapTexts(value, (text) => this.text(text));
  }
}

/** A JSON value with `change` applied to every text in it, keys included. */
export function mapTexts(value: unknown, change: (text: string) => string): unknown {
  if (typeof value === 'string') return change(value);
  if (Array.isArray(value)) return value.map((item) => mapTexts(item, change));
  if (value !== null && typeof value === 'object') {
    // fromEntries defines own properties, so a `__proto__` key from JSON.parse stays a plain key.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [change(key), mapTexts(item, change)]));
  }
  return value;
}

/** The shortest piece of a secret that is taken out on its own. */
const MIN_PIECE = 10;

interface SecretSpellings {
  /** every whole spelling, longest first, in one case-insensitive pattern */
  whole: RegExp;
  /** the secret in lower case, and the length of the pieces looked for */
  lower: string;
  piece: number;
  /** every piece of that length, in lower case */
  pieces: Set<string>;
}

function spellingsOf(secret: string): SecretSpellings {
  const bytes = Buffer.from(secret, 'utf8');
  const forms = new Set<string>([secret, encodeURIComponent(secret), bytes.toString('hex')]);
  for (const core of base64Cores(bytes)) {
    forms.add(core);
    forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  const sorted = [...forms].filter((f) => f.length >= 4).sort((a, b) => b.length - a.length);
  const lower = secret.toLowerCase();
  const piece = Math.max(MIN_PIECE, Math.ceil(secret.length / 2));
  const pieces = new Set<string>();
  if (secret.length > piece) for (let i = 0; i + piece <= lower.length; i++) pieces.add(lower.slice(i, i + piece));
  return { whole: new RegExp(sorted.map(escapeRegExp).join('|'), 'gi'), lower, piece, pieces };
}

/**
 * The part of the secret's base64 that is the same wherever it starts in a longer text: encoded
 * after 0, 1 or 2 other bytes, without the characters its neighbours share.
 */
function base64Cores(bytes: Buffer): string[] {
  const cores: string[] = [];
  for (const lead of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(lead), bytes]).toString('base64').replace(/=+$/, '');
    const from = Math.ceil((lead * 4) / 3);
    const tail = (lead + bytes.length) % 3 === 0 ? 0 : 1;
    const core = encoded.slice(from, encoded.length - tail);
    if (core.length >= 8) cores.push(core);
  }
  const exact = bytes.toString('base64');
  cores.push(exact, exact.replace(/=+$/, ''));
  return cores;
}

/** Every run of `text` that is a piece of the secret at least `piece` long, whatever its case. */
function redactPieces(text: string, s: SecretSpellings): string {
  if (s.pieces.size === 0 || text.length < s.piece) return text;
  const lower = text.toLowerCase();
  let out = '';
  let kept = 0;
  for (let i = 0; i + s.piece <= lower.length; i++) {
    if (!s.pieces.has(lower.slice(i, i + s.piece))) continue;
    let end = i + s.piece;
    while (end < lower.length && s.lower.includes(lower.slice(i, end + 1))) end++;
    out += text.slice(kept, i) + REDACTED;
    kept = end;
    i = end - 1;
  }
  return out + text.slice(kept);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
