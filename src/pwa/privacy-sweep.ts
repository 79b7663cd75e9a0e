// The part of the wipe that reaches past the page's memory and its two key-value storages:
// IndexedDB and Cache Storage. The kiosk itself keeps nothing of a visitor in either, so whatever
// is there that is not the kiosk's setup (the service worker's copy of the app, the last good
// copy of each flow) could only have been left by code that should not have: it goes.

import { FLOW_CACHE } from './flow-copies.ts';
import { NEVER_CACHED } from './pwa-options.ts';

/** The caches that hold the kiosk's setup and nothing a visitor said: the app and the flow files. */
export function isSetupCache(name: string): boolean {
  return name === FLOW_CACHE || name.startsWith('workbox-precache');
}

interface IndexedDbLike {
  databases?(): Promise<{ name?: string }[]>;
  deleteDatabase(name: string): unknown;
}

interface CachesLike {
  keys(): Promise<string[]>;
  delete(name: string): Promise<boolean>;
  open(name: string): Promise<{ keys(): Promise<readonly Request[]>; delete(request: Request): Promise<boolean> }>;
}

/**
 * Deletes every IndexedDB database, every cache that is not the kiosk's setup, and any answer
 * from the kiosk's /api/ that found its way into a setup cache (none should). Never throws.
 */
export async function sweepBrowserStores(): Promise<void> {
  const scope = globalThis as { indexedDB?: IndexedDbLike; caches?: CachesLike };
  try {
    const idb = scope.indexedDB;
    for (const db of (await idb?.databases?.()) ?? []) if (db.name !== undefined) idb!.deleteDatabase(db.name);
  } catch (error) {
    console.warn(`kiosk: could not clear IndexedDB (${(error as Error).message})`);
  }
  try {
    const storage = scope.caches;
    for (const name of (await storage?.keys()) ?? []) {
      if (!isSetupCache(name)) {
        await storage!.delete(name);
        continue;
      }
      const cache = await storage!.open(name);
      for (const request of await cache.keys()) if (NEVER_CACHED.test(new URL(request.url).pathname)) await cache.delete(request);
    }
  } catch (error) {
    console.warn(`kiosk: could not clear Cache Storage (${(error as Error).message})`);
  }
}
