// What a pairing code and a device's name look like: a code is 8 characters from an alphabet
// without look-alikes (no 0/O, 1/I/L, 2/Z, 5/S, 6/G, 8/B pairs), shown as two groups of four for
// staff to type on a tablet; a name is a short line the operator chose ("Lobby iPad"). And the
// device's credential: a random token, of which the server keeps a hash only.

import { createHash, randomBytes, randomInt, scrypt } from 'node:crypto';

/** The characters of a code: capital letters but I, L and O, and the digits 3, 4, 7 and 9. */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ3479';
export const CODE_LENGTH = 8;

/** What a staff member may type for a letter of the alphabet (a digit that looks like it). */
const TYPED_FOR: Record<string, string> = { '2': 'Z', '5': 'S', '6': 'G', '8': 'B' };

/** A fresh code, as it is shown: `ABCD-EFGH`. */
export function newCode(): string {
  const chars = Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]!);
  return showCode(chars.join(''));
}

/** `ABCDEFGH` as it is shown: two groups of four. */
export function showCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * What was typed as the code it means (`abcd efgh`, `ABCD-EFGH`, a 5 for an S), or null when it
 * cannot be a code at all (the wrong length, a character no code has).
 */
export function readCode(typed: string): string | null {
  const chars = typed.toUpperCase().replace(/[\s\-.]/g, '');
  const code = [...chars].map((c) => TYPED_FOR[c] ?? c).join('');
  if (code.length !== CODE_LENGTH || [...code].some((c) => !CODE_ALPHABET.includes(c))) return null;
  return code;
}

/** The hash a code is kept as: scrypt with the memory's salt, so that a copy of the database does not give the codes away. */
export function hashCode(code: string, salt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    scrypt(code, salt, 32, { N: 16_384, r: 8, p: 1 }, (error, key) => (error ? reject(error) : resolve(key.toString('hex'))));
  });
}

/** A new salt for a memory's codes. */
export function newSalt(): string {
  return randomBytes(16).toString('hex');
}

/** A device's credential: 32 random bytes, URL-safe (a cookie's value as it is). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether `value` has the shape of a credential (so that nothing else is looked up). */
export function isToken(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** The hash a credential is kept as (it is 256 random bits: a plain SHA-256 is enough). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The longest device name. */
export const NAME_LIMIT = 60;

/** The device name the operator typed, tidied (spaces), or why it cannot be one. */
export function readName(typed: unknown): { ok: true; name: string } | { ok: false; message: string } {
  if (typeof typed !== 'string') return { ok: false, message: 'Give the device a name, such as "Lobby iPad".' };
  const name = typed.replace(/\s+/g, ' ').trim();
  if (!name) return { ok: false, message: 'Give the device a name, such as "Lobby iPad".' };
  if (name.length > NAME_LIMIT) return { ok: false, message: `A device name is at most ${NAME_LIMIT} characters.` };
  if (/[\p{Cc}\p{Cf}]/u.test(name)) return { ok: false, message: 'A device name is one line of text, without control characters.' };
  return { ok: true, name };
}
