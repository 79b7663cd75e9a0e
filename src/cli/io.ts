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

/** Files as given, with folders expanded to the .yaml/.yml files inside them (sorted). */
export function expandFiles(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    let isDir = false;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      isDir = false;
    }
    if (!isDir) {
      out.push(p);
      continue;
    }
    const walk = (dir: string) => {
      for (const name of readdirSync(dir).sort()) {
        const full = join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (/\.ya?ml$/.test(name)) out.push(full);
      }
    };
    walk(p);
  }
  return out;
}
