// The types of scripts/check-readme.mjs, for the unit test that imports its checks.

export function headingAnchor(heading: string): string;
export function anchorsOf(text: string): Set<string>;
export function linksOf(text: string): { target: string; line: number }[];
export function scriptsNamed(text: string): { script: string; line: number }[];
export function checkDocuments(
  files: readonly { path: string; text: string }[],
  scripts: readonly string[],
  exists: (path: string) => 'file' | 'folder' | null,
  textOf: (path: string) => string,
): string[];
