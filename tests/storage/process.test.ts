// The kiosk's server as the operator runs it (server/main.ts, in a process of its own) killed with
// kill -9 and started again on the same memory: the action id sent again is answered with the
// first answer and never reaches the target a second time, the PIN lock still holds, the counts
// are still there; and a plain stop (SIGTERM) closes the memory and lets its folder go.

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLINIC_TOKEN, memoryStatus, operatorState, postAction, startCountingTarget, tryPin, type CountingTarget } from '../support/memory-kiosk.ts';
import { SITE_PAGE, tempSiteRoot } from '../support/server-harness.ts';
import { BACK_END, testPlace, type TestPlace } from '../support/test-memory.ts';

const MAIN = fileURLToPath(new URL('../../server/main.ts', import.meta.url));
/** tsx's loader, in the server's own process: `npx tsx` would run it in a child that a kill -9 leaves behind. */
const TSX = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
const PIN = '604813';

interface KioskProcess {
  url: string;
  /** what it printed up to the line saying where it listens, and its start banner */
  banner(): string;
  child: ChildProcess;
  /** resolves with the exit code (null after a signal) once the process has ended */
  ended: Promise<number | null>;
}

let place: TestPlace;
let cwd: string;
let target: CountingTarget;
const running: KioskProcess[] = [];

beforeAll(async () => {
  place = await testPlace();
  // The folder the server is started in: its dist/ (the page) and no .env of the developer's.
  cwd = tempSiteRoot('kiosk-process-');
  mkdirSync(join(cwd, 'dist'));
  writeFileSync(join(cwd, 'dist', 'index.html'), SITE_PAGE);
  target = await startCountingTarget({ queue_number: 4, doctor: 'Dr. Lindqvist' });
});
afterEach(() => {
  for (const kiosk of running.splice(0)) kiosk.child.kill('SIGKILL');
});
afterAll(async () => {
  await target?.close();
  rmSync(cwd, { recursive: true, force: true });
  await place?.remove();
});

/** Starts `npm run serve`'s server on the test's memory; resolves once it says where it listens. */
function startKiosk(): Promise<KioskProcess> {
  const memory = place.settings.kind === 'pglite' ? { KIOSK_DATA_DIR: place.settings.dataDir } : { DATABASE_URL: place.settings.url };
  const child = spawn(process.execPath, ['--import', TSX, MAIN], {
    cwd,
    env: { PATH: process.env['PATH'], HOME: process.env['HOME'], HOST: '127.0.0.1', PORT: '0', ACTION_ORIGIN_CLINIC: target.origin, ACTION_SECRET_CLINIC_TOKEN: CLINIC_TOKEN, ACTION_SECRET_CLINIC_TOKEN_ORIGINS: target.origin, OPERATOR_PIN: PIN, ...memory },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ended = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  let output = '';
  return new Promise((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /^voice-kiosk at (http:\/\/\S+)$/m.exec(output)?.[1];
      if (!url) return;
      const kiosk = { url, child, ended, banner: () => output };
      running.push(kiosk);
      resolve(kiosk);
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void ended.then((code) => reject(new Error(`the kiosk's server ended (${code}) before it listened:\n${output}`)));
  });
}

async function kill9(kiosk: KioskProcess): Promise<void> {
  kiosk.child.kill('SIGKILL');
  await kiosk.ended;
}

describe(`the kiosk's server killed and started again (${BACK_END})`, () => {
  it('answers an action id sent again with the first answer, and keeps the PIN lock and the counts', { timeout: 180_000 }, async () => {
    const first = await startKiosk();
    const where = place.settings.kind === 'pglite' ? `PGlite in ${place.settings.dataDir}` : 'PostgreSQL at ';
    await expect.poll(() => first.banner(), { timeout: 60_000 }).toContain(`memory          ${where}`);
    const answer = await postAction(first.url, 'visit-9f2c:check_in');
    expect(answer).toMatchObject({ status: 200, body: { ok: true, status: 201, data: { queue_number: 4, doctor: 'Dr. Lindqvist' } } });
    for (let i = 0; i < 4; i++) expect((await tryPin(first.url, `99999${i}`)).status).toBe(403);
    expect((await tryPin(first.url, '999999')).status).toBe(429);
    await kill9(first);

    const second = await startKiosk();
    expect(await postAction(second.url, 'visit-9f2c:check_in')).toEqual({ status: 200, body: { ...answer.body, replayed: true } });
    expect(target.reached()).toBe(1);
    expect((await operatorState(second.url)).locked_for_seconds).toBeGreaterThan(250);
    expect((await tryPin(second.url, PIN)).status).toBe(429);
    expect((await memoryStatus(second.url)).actions.performed).toEqual({ clinic_checkin: { done: 1, failed: 0 } });

    // A plain stop closes the memory: its folder is free for the next server.
    second.child.kill('SIGTERM');
    expect(await second.ended).toBe(0);
    if (place.settings.kind === 'pglite') expect(existsSync(join(place.settings.dataDir, 'memory.lock'))).toBe(false);
  });
});
