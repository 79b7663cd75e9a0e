// How deep JSON from outside (a page's body, an action target's answer, an upstream's error) may
// nest. JSON.parse takes any depth, but JSON.stringify and every recursive walk after it (the
// fingerprint of an action, the scrubbing of an answer) overflow the stack on a few thousand
// levels, so each parse of outside input is followed by this check, itself a loop, not a recursion.

/** The deepest nesting taken: the kiosk's own requests and answers need a handful of levels. */
export const MAX_JSON_DEPTH = 64;

/** The words for a refusal: "… nested more than 64 levels deep". */
export const TOO_DEEP = `nested more than ${MAX_JSON_DEPTH} levels deep`;

/**
 * Whether `value` (as JSON.parse returns it) nests arrays and objects more than `limit` levels
 * deep; `[]` is one level, `[[1]]` two. Walks with a stack of its own and stops at the first
 * container past the limit.
 */
export function nestedTooDeep(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const item = next.value;
    if (item === null || typeof item !== 'object') continue;
    const depth = next.depth + 1;
    if (depth > limit) return true;
    const children = Array.isArray(item) ? item : Object.values(item);
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth });
    }
  }
  return false;
}

/** What parsing outside text came to. */
export type ParsedJson = { ok: true; value: unknown } | { ok: false; problem: 'not_json' | 'too_deep' };

/** `text` parsed, refused when it is not JSON or nests deeper than MAX_JSON_DEPTH. */
export function parseOutsideJson(text: string): ParsedJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'not_json' };
  }
  return nestedTooDeep(value) ? { ok: false, problem: 'too_deep' } : { ok: true, value };
}
