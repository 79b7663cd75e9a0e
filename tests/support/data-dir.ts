// A kiosk server's data folder for a test (KIOSK_DATA_DIR): the flow copies it keeps, its door. A
// server a test starts without one would use the checkout's own `data/`, read every copy kept
// there at each start and leave its own behind for the developer's kiosk.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConfig, type KioskConfig } from '../../server/config.ts';

/** A fresh, empty data folder; `remove` takes it away. */
export function tempDataDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-test-data-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

let shared: string | null = null;

/**
 * The server's settings from `env` as `readConfig` reads them, with a data folder of this test
 * process's own (made at the first call, removed when the process exits: a Playwright worker;
 * vitest ends its threads without an exit, so a unit test takes a tempDataDir of its own) unless
 * `env` names one.
 */
export function testConfig(env: Record<string, string> = {}): KioskConfig {
  if (!shared) {
    const { dir, remove } = tempDataDir();
    shared = dir;
    process.once('exit', remove);
  }
  return readConfig({ KIOSK_DATA_DIR: shared, ...env });
}
