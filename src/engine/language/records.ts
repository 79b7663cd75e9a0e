// Records keyed by names that come from outside the engine: a flow's states, variables, tools and
// events, a model's tool arguments, a form's values. Such a name (`constructor`, `toString`,
// `__proto__`) is only a name here: records are made without a prototype, so nothing is
// inherited and storing `__proto__` stores a value, and reads see a record's own keys only.

/** A record with no prototype, holding only what is put in it. */
export function dict<T>(entries: Iterable<readonly [string, T]> = []): Record<string, T> {
  const out = Object.create(null) as Record<string, T>;
  for (const [k, v] of entries) out[k] = v;
  return out;
}

/** A prototype-free copy of the records' own entries; a later record's value wins. */
export function copy<T>(...records: readonly Readonly<Record<string, T>>[]): Record<string, T> {
  // A plain loop over the own keys: on a target with no prototype `__proto__` is stored as a plain
  // key, and it is several times faster than building entry pairs or Object.assign (a step that
  // changes a value copies its record).
  const out = Object.create(null) as Record<string, T>;
  for (const r of records) for (const k of Object.keys(r)) out[k] = r[k]!;
  return out;
}

/** `record[key]` when the record itself holds `key`, else undefined (never an inherited member). */
export function own<T>(record: Readonly<Record<string, T>> | null | undefined, key: string): T | undefined {
  return record != null && Object.hasOwn(record, key) ? record[key] : undefined;
}
