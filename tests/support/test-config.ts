// A kiosk server's settings for a test: what `readConfig` reads from the test's variables, without
// the data folder (KIOSK_DATA_DIR, default the checkout's `data/`). A server started without one
// keeps the flow copies it loads in memory only: a test's server neither reads the copies a
// developer's kiosk kept there at each start nor leaves its own behind. (A test of the copies on
// disk gives its server a folder of its own.)

import { readConfig, type KioskConfig } from '../../server/config.ts';

export function testConfig(env: Record<string, string> = {}): Omit<KioskConfig, 'dataDir'> {
  const { dataDir: _, ...config } = readConfig(env);
  return config;
}
