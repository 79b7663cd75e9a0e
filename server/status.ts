// `GET /api/status`, for the operator's status view: which services are configured, how many
// origins actions may reach, the outcomes counted, kept in the kiosk's memory since it was made
// (restarts do not zero them), and the paired devices with when each was last seen. Never a key,
// a secret, a credential, an address or a visitor's value: every paired device may ask.

import type { ServerResponse } from 'node:http';
import { PERFORMED } from './actions.ts';
import { OUTCOMES, type Analytics, type Outcome } from './analytics.ts';
import type { KioskConfig } from './config.ts';
import { sendJson, sendRefusal } from './respond.ts';
import { oneLine } from './storage/database.ts';
import type { Memory } from './storage/memory.ts';

/** The body of `GET /api/status`. */
export interface KioskStatus {
  services: { llm: boolean; stt: boolean; tts: boolean };
  actions: {
    /** how many origins are allowed; 0 means every action is refused */
    allowedOrigins: number;
    /** outcomes the page reported through /api/analytics, per flow */
    counts: Record<string, Record<Outcome, number>>;
    /** what the servers of this memory ran for each flow, and how that ended */
    performed: Record<string, Record<(typeof PERFORMED)[number], number>>;
    /** action ids remembered now (repeats of them are answered, not sent) */
    remembered: number;
  };
  /** events this server received since it started, and what became of their forwarding */
  analytics: { forwarding: boolean; received: number; forwarded: number; failed: number };
  /** when this server started (ISO 8601): the analytics totals go back to this moment only */
  started_at: string;
  /** when the kiosk's memory was made (ISO 8601): the outcome counts go back to this moment */
  counts_since: string;
  /** the devices paired with the servers of this memory, by name (ISO 8601 times) */
  devices: { name: string; paired_at: string; last_seen: string }[];
}

/** What the status is made of. */
export interface StatusSources {
  config: Pick<KioskConfig, 'llm' | 'stt' | 'tts'> & Partial<Pick<KioskConfig, 'actions'>>;
  memory: Memory;
  analytics: Analytics;
  startedAt: string;
  log: (line: string) => void;
}

/** The status as it stands now. */
export async function kioskStatus({ config, memory, analytics, startedAt }: StatusSources): Promise<KioskStatus> {
  const [counts, performed, remembered, countsSince, devices] = await Promise.all([
    memory.counts.read('reported', OUTCOMES),
    memory.counts.read('performed', PERFORMED),
    memory.actions.size(),
    memory.counts.since(),
    memory.pairings.devices(),
  ]);
  return {
    services: { llm: config.llm !== null, stt: config.stt !== null, tts: config.tts !== null },
    actions: { allowedOrigins: config.actions?.allowedOrigins.length ?? 0, counts, performed, remembered },
    analytics: { forwarding: analytics.url !== null, ...analytics.totals },
    started_at: startedAt,
    counts_since: countsSince,
    devices: devices.map((d) => ({ name: d.name, paired_at: new Date(d.pairedAt).toISOString(), last_seen: new Date(d.lastSeen).toISOString() })),
  };
}

/** Answers `GET /api/status`: 200 with the status, or 503 when the memory cannot be read. */
export async function sendStatus(res: ServerResponse, sources: StatusSources): Promise<void> {
  let status: KioskStatus;
  try {
    status = await kioskStatus(sources);
  } catch (error) {
    sources.log(`[status] the kiosk's memory failed (${oneLine(error)}) (503)`);
    return sendRefusal(res, 503, 'memory_unavailable', "The kiosk's server cannot reach its memory just now; ask again later.");
  }
  if (!res.destroyed) sendJson(res, 200, status);
}
