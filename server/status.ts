// `GET /api/status`, for the operator's status view: which services are configured, how many
// origins actions may reach, and the outcomes counted since the server started. Never a key, a
// secret, an address or a visitor's value: the route is as open as the page itself.

import type { ActionsRoute } from './actions.ts';
import type { Analytics } from './analytics.ts';
import type { KioskConfig } from './config.ts';

/** The body of `GET /api/status`. */
export interface KioskStatus {
  services: { llm: boolean; stt: boolean; tts: boolean };
  actions: {
    /** how many origins are allowed; 0 means every action is refused */
    allowedOrigins: number;
    /** outcomes the page reported through /api/analytics, per flow */
    counts: Record<string, Record<string, number>>;
    /** what this server itself ran for each flow, and how that ended */
    performed: Record<string, Record<string, number>>;
    /** action ids remembered now (repeats of them are answered, not sent) */
    remembered: number;
  };
  analytics: { forwarding: boolean; received: number; forwarded: number; failed: number };
  /** when this server started (ISO 8601): counts and remembered ids go back to this moment only */
  started_at: string;
}

/** The status as it stands now. */
export function kioskStatus(
  config: Pick<KioskConfig, 'llm' | 'stt' | 'tts'> & Partial<Pick<KioskConfig, 'actions'>>,
  actions: ActionsRoute,
  analytics: Analytics,
  startedAt: string,
): KioskStatus {
  return {
    services: { llm: config.llm !== null, stt: config.stt !== null, tts: config.tts !== null },
    actions: {
      allowedOrigins: config.actions?.allowedOrigins.length ?? 0,
      counts: analytics.outcomes.toJSON(),
      performed: actions.performed.toJSON(),
      remembered: actions.store.size,
    },
    analytics: { forwarding: analytics.url !== null, ...analytics.totals },
    started_at: startedAt,
  };
}
