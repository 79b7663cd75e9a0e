// The flows this server knows, and the only ones whose actions it runs: the flows bundled with the
// kiosk (`flows/*.yaml`), and each version of a flow it loaded itself from an address
// (`/api/flows`). A version is kept by its text's hash, with the places it came from (an origin,
// or the server's own files) and the addresses that gave it, so that another spelling of an
// address, or another address with the same text, adds to a copy and never changes what a page's
// actions find. The copies are kept on disk, so a restart still knows the flow a visit runs and
// the last good copy still serves while its address does not answer; they are bounded in number,
// in size and in age (the least recently used goes first, from memory and from disk).

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LRUCache } from 'lru-cache';
import type { Flow } from '../src/engine/language/flow.ts';
import { loadFlow } from '../src/engine/language/load-flow.ts';
import { ORIGIN_REFERENCE } from './config.ts';
import { canonicalAddress, placeFrom } from './flow-address.ts';

/** The folder of the flows bundled with the kiosk, wherever the server is started from. */
export const BUNDLED_FLOWS = fileURLToPath(new URL('../flows', import.meta.url));

/** The `{origin:NAME}` names a flow's HTTP effects start their urls with (ACTION_ORIGIN_NAME on the server), sorted. */
export function originNames(flow: Flow): string[] {
  const tools = [...Object.values(flow.tools), ...Object.values(flow.states).flatMap((s) => Object.values(s.tools))];
  const names = tools.flatMap((t) => ORIGIN_REFERENCE.exec(t.http?.url ?? '')?.[1] ?? []);
  return [...new Set(names)].sort();
}

/** One version of a flow from an address, as kept. */
export interface KeptFlow {
  version: string;
  text: string;
  flow: Flow;
  /** when an address last gave this text */
  savedAt: Date;
  /** where it came from: origins, or OWN_FILES (flow-address.ts) */
  from: Set<string>;
  /** the canonical addresses that gave it, the latest last (at most SOURCES_KEPT) */
  sources: string[];
}

/** How the page names the flow an action comes from. */
export interface FlowName {
  source: string;
  version?: string;
}

/** How many copies are kept, how much memory they may take, and how long one is kept after its address last gave it. */
export interface KeptLimits {
  maxCopies: number;
  /** bytes, as `copySize` estimates a parsed flow */
  maxBytes: number;
  maxAgeMs: number;
  /** the clock the ages are read on (tests move it) */
  now: () => number;
}

export const KEPT_LIMITS: Readonly<KeptLimits> = { maxCopies: 64, maxBytes: 32 * 1024 * 1024, maxAgeMs: 30 * 24 * 3600 * 1000, now: () => Date.now() };

/** The addresses remembered per copy, and in all, for the last good copy of an address. */
const SOURCES_KEPT = 16;
const ADDRESSES_KEPT = 1024;

/** A version: the first 32 hex digits of the text's SHA-256. */
export function flowVersion(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);
}

/** What a copy takes in memory: the parsed flow is about 7 times its text (measured on the clinic's), plus 2 KB. */
export function copySize(text: string): number {
  return 2048 + 8 * Buffer.byteLength(text, 'utf8');
}

/** The source a bundled flow has on the page: `flows/<name>.yaml`. */
export const bundledSource = (name: string) => `flows/${name}.yaml`;

/**
 * Each bundled flow as last parsed, by its file, with the text it was parsed from, for every
 * library of this process: one process that starts many servers (a test file starts hundreds)
 * parses each flow once, not at every start. A changed file has another text, and is parsed again.
 */
const parsedBundled = new Map<string, { text: string; flow: Flow | null }>();

function parseBundled(source: string, text: string): Flow | null {
  let parsed = parsedBundled.get(source);
  if (parsed?.text !== text) parsedBundled.set(source, (parsed = { text, flow: loadFlow(text, source).loaded?.flow ?? null }));
  return parsed.flow;
}

export class FlowLibrary {
  private readonly bundled = new Map<string, Flow>();
  private readonly limits: KeptLimits;
  /** version -> kept copy */
  private readonly copies: LRUCache<string, KeptFlow>;
  /** canonical address -> the version it last gave */
  private readonly newest = new LRUCache<string, string>({ max: ADDRESSES_KEPT });

  /**
   * `bundledDir`: the folder of the bundled flows (missing: none). `keptDir`: where versions from
   * addresses are kept (null: in memory only); what is already there is read back.
   */
  constructor(
    bundledDir: string | null,
    private readonly keptDir: string | null,
    limits: Partial<KeptLimits> = {},
  ) {
    this.limits = { ...KEPT_LIMITS, ...limits };
    this.copies = new LRUCache<string, KeptFlow>({
      max: this.limits.maxCopies,
      maxSize: this.limits.maxBytes,
      sizeCalculation: (kept) => copySize(kept.text),
      // A copy let go (too many, too large, too old) is deleted from disk as well.
      dispose: (kept, _version, reason) => {
        if (reason !== 'set') this.remove(kept.version);
      },
    });
    if (bundledDir && existsSync(bundledDir)) {
      for (const file of readdirSync(bundledDir).filter((f) => f.endsWith('.yaml')).sort()) {
        const flow = parseBundled(`flows/${file}`, readFileSync(join(bundledDir, file), 'utf8'));
        if (flow) this.bundled.set(`flows/${file}`, flow);
      }
    }
    if (keptDir && existsSync(keptDir)) this.readKept(keptDir);
  }

  /** Whether `source` names a bundled flow (`flows/<name>.yaml`). */
  isBundled(source: string): boolean {
    return this.bundled.has(source);
  }

  /**
   * The flow an action names: a bundled one by its source, any other by the version kept of it,
   * when that version came from `from` (an origin, or OWN_FILES; by default the source's own).
   */
  find(name: FlowName, from?: string): Flow | undefined {
    const bundled = this.bundled.get(name.source);
    if (bundled) return bundled;
    const kept = name.version === undefined ? undefined : this.fresh(name.version);
    const place = from ?? placeFrom(canonicalAddress(name.source) ?? name.source);
    return kept?.from.has(place) ? kept.flow : undefined;
  }

  /** Each `{origin:NAME}` the bundled flows call, with the sources of the flows that call it. */
  bundledOrigins(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const [source, flow] of this.bundled) for (const name of originNames(flow)) out.set(name, [...(out.get(name) ?? []), source]);
    return out;
  }

  /** The newest version kept of the flow at `source` (any spelling of it). */
  lastCopy(source: string): KeptFlow | undefined {
    const version = this.newest.get(canonicalAddress(source) ?? source);
    return version === undefined ? undefined : this.fresh(version);
  }

  /** How many copies are kept, and the memory they take as `copySize` counts it. */
  stats(): { copies: number; bytes: number } {
    return { copies: this.copies.size, bytes: this.copies.calculatedSize };
  }

  /**
   * Keeps `text` as the newest version of the flow at `source` (from `from`: an origin, or
   * OWN_FILES; by default the source's own) when it loads without errors, and returns its
   * version; undefined when it does not load (the page shows why).
   */
  keep(source: string, text: string, options: { from?: string; savedAt?: Date } = {}): string | undefined {
    const address = canonicalAddress(source) ?? source;
    const from = options.from ?? placeFrom(address);
    const version = flowVersion(text);
    const savedAt = options.savedAt ?? new Date(this.limits.now());
    const known = this.fresh(version);
    if (known) {
      known.savedAt = savedAt;
      known.from.add(from);
      known.sources = [...known.sources.filter((s) => s !== address), address].slice(-SOURCES_KEPT);
      this.newest.set(address, version);
      this.write(known);
      return version;
    }
    const loaded = loadFlow(text, source).loaded;
    if (!loaded) return undefined;
    const kept: KeptFlow = { version, text, flow: loaded.flow, savedAt, from: new Set([from]), sources: [address] };
    this.copies.set(version, kept);
    if (!this.copies.has(version)) return undefined; // larger than all the room there is
    this.newest.set(address, version);
    this.write(kept);
    return version;
  }

  /** The copy of `version` when it is kept and not past its age (an old one is let go now). */
  private fresh(version: string): KeptFlow | undefined {
    const kept = this.copies.get(version);
    if (kept && this.limits.now() - kept.savedAt.getTime() > this.limits.maxAgeMs) {
      this.copies.delete(version);
      return undefined;
    }
    return kept;
  }

  private write(kept: KeptFlow): void {
    if (!this.keptDir) return;
    try {
      mkdirSync(this.keptDir, { recursive: true });
      const file = join(this.keptDir, `${kept.version}.json`);
      const body = JSON.stringify({ saved_at: kept.savedAt.toISOString(), from: [...kept.from], sources: kept.sources, text: kept.text });
      writeFileSync(`${file}.tmp`, body);
      renameSync(`${file}.tmp`, file);
    } catch (error) {
      // Kept in memory all the same: only a restart forgets it.
      console.warn(`[flows] could not keep a copy of ${kept.sources.at(-1)} in ${this.keptDir} (${(error as Error).message})`);
    }
  }

  private remove(version: string): void {
    if (this.keptDir) rmSync(join(this.keptDir, `${version}.json`), { force: true });
  }

  /** Reads the copies in `dir` back, oldest first (so the limits let the oldest go), and deletes those too old or damaged. */
  private readKept(dir: string): void {
    const found: KeptFlow[] = [];
    for (const file of readdirSync(dir).filter((f) => /^[0-9a-f]{32}\.json$/.test(f))) {
      const kept = readCopy(join(dir, file));
      if (kept && `${kept.version}.json` === file) found.push(kept);
      else rmSync(join(dir, file), { force: true });
    }
    for (const kept of found.sort((a, b) => a.savedAt.getTime() - b.savedAt.getTime())) {
      if (this.limits.now() - kept.savedAt.getTime() > this.limits.maxAgeMs) {
        this.remove(kept.version);
        continue;
      }
      this.copies.set(kept.version, kept);
      if (!this.copies.has(kept.version)) continue;
      for (const source of kept.sources) this.newest.set(source, kept.version);
    }
  }
}

/**
 * One copy as written to disk: `{ saved_at, from, sources, text }`, or as an earlier server wrote
 * it, `{ source, saved_at, text }` (its place then is the source's own); undefined when damaged.
 */
function readCopy(file: string): KeptFlow | undefined {
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { source?: unknown; sources?: unknown; from?: unknown; saved_at?: unknown; text?: unknown };
    if (typeof saved.text !== 'string' || typeof saved.saved_at !== 'string') return undefined;
    const savedAt = new Date(saved.saved_at);
    const sources = (Array.isArray(saved.sources) ? saved.sources : [saved.source]).filter((s): s is string => typeof s === 'string').map((s) => canonicalAddress(s) ?? s);
    const from = Array.isArray(saved.from) ? saved.from.filter((f): f is string => typeof f === 'string') : sources.map(placeFrom);
    const loaded = loadFlow(saved.text, sources.at(-1) ?? 'kept copy').loaded;
    if (!loaded || Number.isNaN(savedAt.getTime()) || from.length === 0) return undefined;
    return { version: flowVersion(saved.text), text: saved.text, flow: loaded.flow, savedAt, from: new Set(from), sources: sources.slice(-SOURCES_KEPT) };
  } catch {
    return undefined;
  }
}
