// `npm run pair` as an operator runs it, on a kiosk's PGlite folder: with no server running it
// opens the memory itself; while the server runs (and holds the folder) it goes through the door
// the server left there. A code it prints pairs a device; --list shows the device and when it was
// last seen; --revoke refuses the device's next request.

import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../server/app.ts';
import { openMemory } from '../../server/storage/memory.ts';
import { errorCode, send } from '../support/hostile-requests.ts';
import { tempSiteRoot } from '../support/server-harness.ts';
import { testPlace } from '../support/test-memory.ts';

const run = promisify(execFile);

/** `npm run pair -- ...args` on the memory in `dir`; its output and exit code. */
async function pair(dir: string, ...args: string[]): Promise<{ out: string; err: string; code: number }> {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', 'pair', '--', ...args], { env: { ...process.env, KIOSK_DATA_DIR: dir, DATABASE_URL: '' }, timeout: 150_000 });
    return { out: stdout, err: stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { out: failed.stdout, err: failed.stderr, code: failed.code };
  }
}

describe('npm run pair', () => {
  // Five runs of the command, each starting Node and tsx: ten seconds alone, minutes in npm test,
  // where the unit tests run at a low priority beside three browsers. The ceilings guard a hang.
  it('makes a code with no server running; lists, says when there is no such device, and revokes through the running server', async () => {
    const place = await testPlace();
    const root = tempSiteRoot('kiosk-pair-');
    try {
      const dir = place.settings.kind === 'pglite' ? place.settings.dataDir : '';
      const made = await pair(dir, 'Lobby iPad');
      expect(made.code).toBe(0);
      const code = /^ {4}([A-Z0-9]{4}-[A-Z0-9]{4})$/m.exec(made.out)?.[1];
      expect(made.out).toContain('Pairing code for "Lobby iPad":');
      expect(made.out).toMatch(/It works once, until \d\d:\d\d \(10 minutes\)\./);

      const memory = await openMemory(place.settings);
      const server = await startServer({ root, config: { llm: null, stt: null, tts: null, allowedHosts: ['kiosk.test'] }, host: '127.0.0.1', port: 0, quiet: true, memory, doorDir: dir });
      try {
        const host = `kiosk.test:${new URL(server.url).port}`;
        const paired = await send(server.url, '/api/pairing', { method: 'POST', headers: { 'content-type': 'application/json', host }, body: JSON.stringify({ code }) });
        expect(JSON.parse(paired.body)).toEqual({ ok: true, device: 'Lobby iPad' });
        const cookie = paired.headers['set-cookie']![0]!.split(';')[0]!;

        const listed = await pair(dir, '--list');
        expect(listed).toMatchObject({ code: 0, err: '' });
        expect(listed.out).toMatch(/^Paired devices \(1\):\n {2}Lobby iPad {4}last seen \d{4}-\d\d-\d\d \d\d:\d\d, paired \d{4}-\d\d-\d\d \d\d:\d\d\n$/);

        expect(await pair(dir, '--revoke', 'Front desk')).toMatchObject({ code: 1, out: '', err: 'No paired device is called "Front desk". Paired: "Lobby iPad".\n' });
        const revoked = await pair(dir, '--revoke', 'lobby ipad');
        expect(revoked).toMatchObject({ code: 0, out: '"Lobby iPad" is revoked: its next request is refused, and it shows the pairing screen again.\n' });
        expect(errorCode(await send(server.url, '/api/config', { headers: { host, cookie } }))).toBe('device_revoked');
      } finally {
        await server.close();
        await memory.close();
      }

    } finally {
      await place.remove();
      rmSync(root, { recursive: true, force: true });
    }
  }, 300_000);
});
