// The flow's regular expressions (utterance rules, parameter patterns, auto_extract, guards),
// compiled once and kept: the same texts come back on every turn. A pattern that does not
// compile gives null (the checker has already reported it).

const compiled = new Map<string, RegExp | null>();

/** The compiled pattern, or null when it does not compile. */
export function pattern(source: string, flags = ''): RegExp | null {
  const key = `${flags}/${source}`;
  let re = compiled.get(key);
  if (re === undefined) {
    try {
      re = new RegExp(source, flags);
    } catch {
      re = null;
    }
    compiled.set(key, re);
  }
  return re;
}
