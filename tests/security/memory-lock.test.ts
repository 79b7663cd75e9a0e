// The kiosk's memory folder after a kill -9 (issue 29, point 9): the server that was killed held
// the folder's lock, and until its parent reaped it (a supervisor that has not yet waited for it)
// the killed process was still there as a zombie; a server started again at once was refused, the
// folder "in use by another kiosk server". `npm run serve`'s server in processes of its own,
// the first under a parent that never reaps it, on a real PGlite folder.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SITE_PAGE } from '../support/server-harness.ts';
import { emptyPgliteFolder } from '../support/test-memory.ts';

const MAIN = fileURLToPath(new URL('../../server/main.ts', import.meta.url));
/** tsx's loader, in the server's own process (`npx tsx` would run it in a child of its own). */
const TSX = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;

const scratch = mkdtempSync(join(tmpdir(), 'kiosk-lock-'));
const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

/** What a started server printed, once it says where it listens or has ended. */
interface Start {
  /** the server's own process id */
  pid: number;
  /** its URL, or null when it ended first */
  url: string | null;
  output: string;
}

/**
 * Starts the kiosk's server on the memory in `dataDir`, in the folder `cwd` (its dist/). With
 * `unreaped`, under a shell that puts it in the background and becomes `sleep`, which never waits
 * for a child: once killed, the server stays a zombie until the test ends that parent.
 */
function startServer(cwd: string, dataDir: string, unreaped = false): Promise<Start> {
  const env = { PATH: process.env['PATH'], HOME: process.env['HOME'], HOST: '127.0.0.1', PORT: '0', KIOSK_DATA_DIR: dataDir };
  const command = [process.execPath, '--import', TSX, MAIN];
  const child = unreaped
    ? spawn('sh', ['-c', '"$@" & echo "pid $!"; exec sleep 300', 'sh', ...command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(command[0]!, command.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let output = '';
  return new Promise((resolve) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /^voice-kiosk at (http:\/\/\S+)$/m.exec(output)?.[1];
      const pid = unreaped ? Number(/^pid (\d+)$/m.exec(output)?.[1]) : child.pid!;
      if (url && pid) resolve({ pid, url, output });
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', () => resolve({ pid: child.pid!, url: null, output }));
  });
}

/** The state letter of `pid` in /proc (Z: a zombie), or null once it is gone. */
function state(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return null;
  }
}

describe('the memory after a kill -9', () => {
  it('a server killed and not yet reaped (a zombie) holds no lock: one started at once on its folder starts', async () => {
    const cwd = join(scratch, 'site');
    mkdirSync(join(cwd, 'dist'), { recursive: true });
    writeFileSync(join(cwd, 'dist', 'index.html'), SITE_PAGE);
    const dataDir = join(scratch, 'data');
    await emptyPgliteFolder(dataDir);

    const first = await startServer(cwd, dataDir, true);
    expect(first.url, first.output).not.toBeNull();
    expect(readFileSync(join(dataDir, 'memory.lock'), 'utf8').split('\n')[0]).toBe(String(first.pid));
    process.kill(first.pid, 'SIGKILL');
    await expect.poll(() => state(first.pid), { timeout: 10_000 }).toBe('Z');

    const second = await startServer(cwd, dataDir);
    expect(second.output).not.toContain('in use by another kiosk server');
    expect(second.url, second.output).not.toBeNull();
    const status = await fetch(`${second.url}/api/status`);
    expect(status.status).toBe(200);
    expect(readFileSync(join(dataDir, 'memory.lock'), 'utf8').split('\n')[0]).toBe(String(second.pid));
  });
});
