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
  return dict(records.flatMap((r) => Object.entries(r)));
}

/** `record[key]` when the record itself holds `key`, else undefined (never an inherited member). */
export function own<T>(record: Readonly<Record<string, T>> | null | undefined, key: string): T | undefined {
  return record != null && Object.hasOwn(record, key) ? record[key] : undefined;
}
