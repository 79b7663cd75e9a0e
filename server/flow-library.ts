// The flows this server knows, and the only ones whose actions it runs: the flows bundled with the
// kiosk (`flows/*.yaml`), and each version of a flow it loaded itself from an address
// (`/api/flows`). The versions from addresses are kept on disk, so a restart still knows the flow
// a visit runs, and the last good copy still serves while its address does not answer.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Flow } from '../src/engine/language/flow.ts';
import { loadFlow } from '../src/engine/language/load-flow.ts';
import { ORIGIN_REFERENCE } from './config.ts';

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
  source: string;
  version: string;
  text: string;
  flow: Flow;
  savedAt: Date;
}

/** How the page names the flow an action comes from. */
export interface FlowName {
  source: string;
  version?: string;
}

/** A version: the first 32 hex digits of the text's SHA-256. */
export function flowVersion(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);
}

/** The source a bundled flow has on the page: `flows/<name>.yaml`. */
export const bundledSource = (name: string) => `flows/${name}.yaml`;

export class FlowLibrary {
  private readonly bundled = new Map<string, Flow>();
  /** version -> kept flow */
  private readonly versions = new Map<string, KeptFlow>();
  /** source -> its newest kept version */
  private readonly newest = new Map<string, KeptFlow>();

  /**
   * `bundledDir`: the folder of the bundled flows (missing: none). `keptDir`: where versions from
   * addresses are kept (null: in memory only); what is already there is read back.
   */
  constructor(
    bundledDir: string | null,
    private readonly keptDir: string | null,
  ) {
    if (bundledDir && existsSync(bundledDir)) {
      for (const file of readdirSync(bundledDir).filter((f) => f.endsWith('.yaml')).sort()) {
        const loaded = loadFlow(readFileSync(join(bundledDir, file), 'utf8'), `flows/${file}`).loaded;
        if (loaded) this.bundled.set(`flows/${file}`, loaded.flow);
      }
    }
    if (keptDir && existsSync(keptDir)) this.readKept(keptDir);
  }

  /** The flow an action names: a bundled one by its source, any other by the version kept of it. */
  find(name: FlowName): Flow | undefined {
    const bundled = this.bundled.get(name.source);
    if (bundled) return bundled;
    const kept = name.version === undefined ? undefined : this.versions.get(name.version);
    return kept && kept.source === name.source ? kept.flow : undefined;
  }

  /** Each `{origin:NAME}` the bundled flows call, with the sources of the flows that call it. */
  bundledOrigins(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const [source, flow] of this.bundled) for (const name of originNames(flow)) out.set(name, [...(out.get(name) ?? []), source]);
    return out;
  }

  /** The newest version kept of the flow at `source`. */
  lastCopy(source: string): KeptFlow | undefined {
    return this.newest.get(source);
  }

  /**
   * Keeps `text` as the newest version of the flow at `source` when it loads without errors, and
   * returns its version; undefined when it does not load (the page shows why).
   */
  keep(source: string, text: string, savedAt = new Date()): string | undefined {
    const version = flowVersion(text);
    const known = this.versions.get(version);
    if (known && known.source === source) {
      this.newest.set(source, known);
      return version;
    }
    const loaded = loadFlow(text, source).loaded;
    if (!loaded) return undefined;
    const kept: KeptFlow = { source, version, text, flow: loaded.flow, savedAt };
    this.versions.set(version, kept);
    this.newest.set(source, kept);
    this.write(kept);
    return version;
  }

  private write(kept: KeptFlow): void {
    if (!this.keptDir) return;
    try {
      mkdirSync(this.keptDir, { recursive: true });
      const file = join(this.keptDir, `${kept.version}.json`);
      const body = JSON.stringify({ source: kept.source, saved_at: kept.savedAt.toISOString(), text: kept.text });
      writeFileSync(`${file}.tmp`, body);
      renameSync(`${file}.tmp`, file);
    } catch (error) {
      // Kept in memory all the same: only a restart forgets it.
      console.warn(`[flows] could not keep a copy of ${kept.source} in ${this.keptDir} (${(error as Error).message})`);
    }
  }

  private readKept(dir: string): void {
    for (const file of readdirSync(dir).filter((f) => /^[0-9a-f]{32}\.json$/.test(f))) {
      try {
        const saved = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { source?: unknown; saved_at?: unknown; text?: unknown };
        if (typeof saved.source !== 'string' || typeof saved.text !== 'string' || typeof saved.saved_at !== 'string') continue;
        const version = flowVersion(saved.text);
        const loaded = loadFlow(saved.text, saved.source).loaded;
        if (!loaded || `${version}.json` !== file) continue;
        const kept: KeptFlow = { source: saved.source, version, text: saved.text, flow: loaded.flow, savedAt: new Date(saved.saved_at) };
        this.versions.set(version, kept);
        const newest = this.newest.get(kept.source);
        if (!newest || newest.savedAt < kept.savedAt) this.newest.set(kept.source, kept);
      } catch {
        // a damaged copy is skipped; the address gives a fresh one
      }
    }
  }
}
