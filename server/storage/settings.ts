// Where the memory lives, read from the environment (after .env, as the other settings):
//
//   KIOSK_DATA_DIR   the folder of the embedded memory (PGlite), made when missing; default ./data
//   DATABASE_URL     a PostgreSQL server shared by a fleet (postgres://user:password@host:5432/db);
//                    when set it is used instead of the folder
//
// A relative folder is taken from where the server starts (npm run serve) or from the project's
// root (vite dev). Messages name the setting and never repeat the URL, which may hold a password.

import { resolve } from 'node:path';
import { ConfigError } from '../config.ts';

export type MemorySettings = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };

/** The folder used when KIOSK_DATA_DIR is not set. */
export const DEFAULT_DATA_DIR = 'data';

/** The memory `env` asks for; relative folders are taken from `base`. Throws a ConfigError for a malformed DATABASE_URL. */
export function readMemorySettings(env: Record<string, string | undefined>, base: string = process.cwd()): MemorySettings {
  const url = env['DATABASE_URL']?.trim();
  if (url) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') || !parsed.hostname) {
      throw new ConfigError('DATABASE_URL must be a PostgreSQL URL such as postgres://kiosk:PASSWORD@db.example:5432/kiosk (or leave it unset to keep the memory in KIOSK_DATA_DIR).');
    }
    return { kind: 'postgres', url };
  }
  return { kind: 'pglite', dataDir: resolve(base, env['KIOSK_DATA_DIR']?.trim() || DEFAULT_DATA_DIR) };
}
