// Reading a parsed document's values where only the structure check has looked at them: a value
// as an object, list, text, number or boolean when it is one, else an empty or default value.

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const asObj = (v: unknown): Obj => (isObj(v) ? v : {});
export const asArr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const asStr = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const asNum = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
export const asBool = (v: unknown, dflt: boolean): boolean => (typeof v === 'boolean' ? v : dflt);
export const strList = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : asArr(v).filter((x): x is string => typeof x === 'string');
/** The text when it is one of `allowed` (a type the structure check has already judged), else undefined. */
export const oneOf = <T extends string>(v: unknown, allowed: readonly T[]): T | undefined =>
  typeof v === 'string' && (allowed as readonly string[]).includes(v) ? (v as T) : undefined;
