// What the commands share: output sinks and reading files with a clear message on failure.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface Io {
  json?: boolean;
  out: (line: string) => void;
  err: (line: string) => void;
}

export function readText(file: string): { text: string } | { problem: string } {
  try {
    return { text: readFileSync(file, 'utf8') };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { problem: code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder, not a file' : (e as Error).message };
  }
}

/** A conversation test script: `*.test.yaml` (or `.test.yml`). */
export const SCRIPT_FILE = /\.test\.ya?ml$/;

/** Which files a folder holds for a command: its flows, or its conversation tests. */
export type Holding = 'flows' | 'scripts';

/**
 * Files as given, with folders expanded (sorted) to the files the command reads: for `flows`
 * every .yaml/.yml but the `*.test.yaml` scripts, for `scripts` only those. Each other YAML file
 * found in a folder is listed in `skipped`, so the command can say what it left out. A file named
 * on the command line is always read.
 */
export function expandFiles(paths: readonly string[], holding: Holding = 'flows'): { files: string[]; skipped: string[] } {
  const files: string[] = [];
  const skipped: string[] = [];
  for (const p of paths) {
    let isDir = false;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      isDir = false;
    }
    if (!isDir) {
      files.push(p);
      continue;
    }
    const walk = (dir: string) => {
      for (const name of readdirSync(dir).sort()) {
        const full = join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (/\.ya?ml$/.test(name)) (SCRIPT_FILE.test(name) === (holding === 'scripts') ? files : skipped).push(full);
      }
    };
    walk(p);
  }
  return { files, skipped };
}

/** "skipped 2 files in folders that are not conversation tests (*.test.yaml): a.yaml, b.yaml" */
export function skippedLine(command: string, skipped: readonly string[], holding: Holding): string {
  const what = holding === 'scripts' ? 'that are not conversation tests (*.test.yaml)' : 'that are conversation tests (*.test.yaml), not flows';
  const shown = skipped.slice(0, 5).join(', ') + (skipped.length > 5 ? `, and ${skipped.length - 5} more` : '');
  return `vfdl ${command}: skipped ${skipped.length} file(s) in the folders given ${what}: ${shown}`;
}
