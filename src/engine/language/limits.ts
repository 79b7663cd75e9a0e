// The limits a flow file and a run live within, each said once with what it guards: how deep a
// file may nest, how large it may be, how long a timer can wait, and how long a text may be. docs/vfdl.md ("Limits")
// documents them, and the diagnostics that enforce them name them.

/** Deepest nesting of mappings and lists, in a flow file and in a value a model sends. */
export const MAX_DEPTH = 64;

/** Largest flow file, in characters: 256 KiB of plain text (the examples are under 8 KiB). */
export const MAX_FLOW_CHARS = 256 * 1024;

/** The longest delay a timer can hold: setTimeout fires at once for anything above 2^31-1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The longest timeout, expiry or duration a flow may give, in seconds: about 24.8 days. */
export const MAX_SECONDS = Math.floor(MAX_TIMER_MS / 1000);

/** Why MAX_SECONDS is what it is, for messages. */
export const MAX_SECONDS_WHY = 'about 24.8 days, the longest a timer can wait';

/**
 * The longest utterance (a transcript or typed answer) and the longest text argument from a
 * model, in characters: about 200 spoken words. Flow patterns run on both; a cap keeps any
 * pattern, checked or not, from taking long (vfdl check refuses the ones that would anyway).
 */
export const MAX_TEXT_CHARS = 1000;

/**
 * The path to the first mapping or list nested deeper than `limit` levels (the value itself is
 * level 1), or undefined. The walk keeps its own stack, so no nesting can exhaust the call stack,
 * and a cycle (YAML aliases can make one) is simply too deep.
 */
export function tooDeep(value: unknown, limit = MAX_DEPTH): (string | number)[] | undefined {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: v, path } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (path.length >= limit) return path;
    const children: [string | number, unknown][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
    for (let i = children.length - 1; i >= 0; i--) stack.push({ value: children[i]![1], path: [...path, children[i]![0]] });
  }
  return undefined;
}
