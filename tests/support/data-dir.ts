// A kiosk server's data folder for a test (KIOSK_DATA_DIR): the flow copies it keeps, its door. A
// server a test starts without one would use the checkout's own `data/`, read every copy kept
// there at each start and leave its own behind for the developer's kiosk.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh, empty data folder; `remove` takes it away. */
export function tempDataDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-test-data-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
