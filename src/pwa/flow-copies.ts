// The last good copy of each flow loaded from an address (`?flow=https://…`), kept in Cache
// Storage so a kiosk whose network or flow server is down still starts. Flow files are the
// kiosk's setup, not a visitor's data: the wipe leaves them alone.

/** The cache that holds them, one entry per flow address. */
export const FLOW_CACHE = 'kiosk-flows';

const SAVED_AT = 'x-kiosk-saved-at';
const VERSION = 'x-kiosk-flow-version';

export interface FlowCopy {
  text: string;
  savedAt: Date;
  /** the version the kiosk's server gave it (its actions name it) */
  version?: string;
}

export interface FlowCopies {
  /** keeps `text` (and its version) as the copy of the flow at `url` (a failure to keep it is not an error) */
  keep(url: string, text: string, version?: string): Promise<void>;
  /** the kept copy of the flow at `url`, or null */
  find(url: string): Promise<FlowCopy | null>;
}

/** The part of Cache Storage used here (so the module also type-checks, and runs, outside a browser). */
export interface CacheStorageLike {
  open(name: string): Promise<{
    put(key: string, response: Response): Promise<void>;
    match(key: string): Promise<Response | undefined>;
  }>;
}

/** The address as a cache key: absolute, resolved against the page where there is one. */
function key(url: string): string {
  try {
    return new URL(url, (globalThis as { location?: { href: string } }).location?.href).href;
  } catch {
    return url;
  }
}

/** Copies in the browser's Cache Storage; null where there is none (Node, an insecure page). */
export function cacheStorageCopies(now: () => Date = () => new Date()): FlowCopies | null {
  const storage = (globalThis as { caches?: CacheStorageLike }).caches;
  if (!storage) return null;
  return {
    async keep(url, text, version) {
      try {
        const cache = await storage.open(FLOW_CACHE);
        const headers: Record<string, string> = { 'content-type': 'text/yaml; charset=utf-8', [SAVED_AT]: now().toISOString() };
        if (version) headers[VERSION] = version;
        await cache.put(key(url), new Response(text, { headers }));
      } catch (error) {
        console.warn(`kiosk: could not keep a copy of the flow (${(error as Error).message})`);
      }
    },
    async find(url) {
      try {
        const cache = await storage.open(FLOW_CACHE);
        const response = await cache.match(key(url));
        if (!response) return null;
        const savedAt = new Date(response.headers.get(SAVED_AT) ?? '');
        const version = response.headers.get(VERSION);
        return { text: await response.text(), savedAt: Number.isNaN(savedAt.getTime()) ? new Date(0) : savedAt, ...(version ? { version } : {}) };
      } catch {
        return null;
      }
    },
  };
}

/** A time for the operator, in the kiosk's local time: `2026-11-22 14:03`. */
export function shownTime(at: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())} ${two(at.getHours())}:${two(at.getMinutes())}`;
}
