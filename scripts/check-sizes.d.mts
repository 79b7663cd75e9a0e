// The types of scripts/check-sizes.mjs, for the unit test that imports its measure().

/** One thing over a limit: a file (`name` and `line` null) or a function, with its length and the limit it is over. */
export interface Finding {
  path: string;
  line: number | null;
  name: string | null;
  lines: number;
  limit: number;
}

export const FILE_LIMIT: number;
export const FUNCTION_LIMIT: number;
export function measure(path: string, text: string): Finding[];
export function describe(finding: Finding): string;
