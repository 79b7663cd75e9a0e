// Streaming speech recognition: a WebSocket at /api/stt/realtime that the kiosk's server relays
// to `{STT_BASE_URL}/realtime?intent=transcription` with the key (STT_MODE=realtime). The page
// streams the visitor's audio while they speak, commits at the end of the turn and reads the
// words as they come; it never sees the key or the service's address. This file decides who may
// open one (the checks of every /api/ request, then the mode, the language, how many are open);
// stt-realtime-relay.ts relays each socket, stt-realtime-events.ts checks what crosses it.
// Both the kiosk's server (app.ts) and Vite's dev server (vite-plugin.ts) hand it their upgrades.

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { KioskConfig } from './config.ts';
import { refuseUpgrade } from './respond.ts';
import { refuseForeign } from './request-guard.ts';
import { describeFailure } from './route-guard.ts';
import { CLOSE, RealtimeRelay, type RelayLimits } from './stt-realtime-relay.ts';

/** The path of the socket, matched exactly (a query may follow). */
export const REALTIME_PATH = '/api/stt/realtime';

export interface SttRealtimeOptions {
  /** sockets open at once; more get 429 (default 4) */
  maxSockets?: number;
  /** how long the service may take to open its socket (default 10 000 ms) */
  openTimeoutMs?: number;
  /** the largest event the page may send (default 512 KB) */
  maxMessageBytes?: number;
  /** what the page may send before the service's socket is open (default 8 MB) */
  maxQueuedBytes?: number;
  /** what may wait to be written to a page that is not reading before its socket is closed with 1008 (default 1 MB) */
  maxPageQueueBytes?: number;
  /** refused events before the socket is closed with 1008 (default 20) */
  maxRefusals?: number;
}

/** What the server hands its upgrade requests to. */
export interface SttRealtime {
  /** Takes an upgrade request for /api/stt/realtime (true), or leaves it to its owner (false). */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Closes every relayed socket (1001): the server is stopping. */
  close(): void;
}

export const DEFAULT_REALTIME: Required<SttRealtimeOptions> = {
  maxSockets: 4,
  openTimeoutMs: 10_000,
  maxMessageBytes: 512 * 1024,
  maxQueuedBytes: 8 * 1024 * 1024,
  maxPageQueueBytes: 1024 * 1024,
  maxRefusals: 20,
};

/** An ISO 639-1 code (or a three-letter ISO 639 one), as the service takes it. */
const LANGUAGE = /^[a-z]{2,3}$/;

/**
 * The relay for `config`. `idleMs` (the proxy's streamIdleMs) closes a socket on which nothing
 * moved either way for that long; `log` takes one line per socket.
 */
export function createSttRealtime(config: Pick<KioskConfig, 'stt'> & Partial<Pick<KioskConfig, 'allowedHosts'>>, options: SttRealtimeOptions & { idleMs?: number; log: (line: string) => void }): SttRealtime {
  const settings = { ...DEFAULT_REALTIME, ...definedOnly(options) };
  const limits: RelayLimits = { ...settings, idleMs: options.idleMs ?? 30_000 };
  // ws stops a frame at twice the relay's limit itself (1009); below that the relay refuses it in words.
  const server = new WebSocketServer({ noServer: true, maxPayload: settings.maxMessageBytes * 2, perMessageDeflate: false });
  const relays = new Set<RealtimeRelay>();
  const log = options.log;

  const refuse = (socket: Duplex, status: number, type: string, message: string, headers?: Record<string, string>) => {
    log(`[api] WS ${REALTIME_PATH} ${status} 0ms ${type}`);
    refuseUpgrade(socket, status, type, message, headers);
  };

  const accept = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const refusal = refuseForeign(req, config.allowedHosts ?? []);
    if (refusal) return refuse(socket, 403, refusal.type, refusal.message);
    const stt = config.stt;
    if (!stt || stt.mode !== 'realtime') {
      const why = stt ? 'is set to upload one recording per turn (STT_MODE=upload)' : 'is not configured (set STT_BASE_URL)';
      return refuse(socket, 503, 'not_configured', `Streaming speech recognition ${why} on this kiosk's server.`);
    }
    const languages = new URL(req.url ?? '/', 'http://kiosk.invalid').searchParams.getAll('language');
    if (languages.length > 1 || (languages.length === 1 && !LANGUAGE.test(languages[0]!))) {
      return refuse(socket, 400, 'invalid_request', 'language, when given, is one ISO 639-1 code such as en or de.');
    }
    if (relays.size >= settings.maxSockets) {
      return refuse(socket, 429, 'busy', `${settings.maxSockets} streams of speech are already open; try again in a moment.`, { 'retry-after': '1' });
    }
    server.handleUpgrade(req, socket, head, (page) => {
      try {
        const relay: RealtimeRelay = new RealtimeRelay(page, { service: stt, language: languages[0], limits, log, ended: () => relays.delete(relay) });
        relays.add(relay);
      } catch (error) {
        // The opening is answered (101): no HTTP error can follow, only the socket's end.
        log(`[api] WS ${REALTIME_PATH} failed: ${describeFailure(error)}`);
        page.terminate();
      }
    });
  };

  return {
    upgrade(req, socket, head) {
      if ((req.url ?? '/').split('?', 1)[0] !== REALTIME_PATH) return false;
      // A connection reset while the opening is refused must not become an unhandled 'error'.
      socket.on('error', () => {});
      try {
        accept(req, socket, head);
      } catch (error) {
        log(`[api] WS ${REALTIME_PATH} failed: ${describeFailure(error)}`);
        if (!socket.destroyed) refuseUpgrade(socket, 500, 'server_error', "The kiosk's server failed on this request; nothing more was done with it.");
      }
      return true;
    },
    close() {
      for (const relay of [...relays]) relay.end(CLOSE.goingAway);
      server.close();
    },
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
