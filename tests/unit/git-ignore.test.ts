// The operator's files that hold keys or a visitor's traces never reach git: `.env` (the API keys
// and action secrets, docs/voice.md) and its variants are ignored, and `data/` (the server's
// memory), while `.env.example`, a file with no keys meant to be shared, is not. Asked of git
// itself (`git check-ignore`), so the test reads the rules as `git add .` would.

import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Whether git would leave `path` out of `git add .` (asked without the index: a tracked file counts too). */
function ignored(path: string): boolean {
  try {
    execFileSync('git', ['check-ignore', '--no-index', '--quiet', path], { cwd: REPO, stdio: 'ignore' });
    return true;
  } catch (error) {
    if ((error as { status?: number }).status === 1) return false;
    throw error;
  }
}

describe('.gitignore', () => {
  it.each(['.env', '.env.local', '.env.production', 'data/memory/PG_VERSION', 'server/.env'])('keeps %s out of git', (path) => {
    expect(ignored(path)).toBe(true);
  });

  it.each(['.env.example', 'README.md', 'flows/clinic-checkin.yaml'])('lets %s in', (path) => {
    expect(ignored(path)).toBe(false);
  });
});
