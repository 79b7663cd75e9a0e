// The fake `wss://…/v1/realtime?intent=transcription`: OpenAI's Realtime transcription sessions
// over a WebSocket on the fakes' own HTTP server. Each commit is answered from the same scripted
// queue as the upload fake (`fakes.stt.script([...])`), checked against the speech measured in
// the committed audio, so a test scripts its turns once for either STT_MODE. It records each
// socket (its URL, Authorization, configuration, events) and each commit (audio, speech, how
// early the audio came), and can be slowed down, refuse a socket or cut one mid-turn.

import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { newTranscriptionSession } from './fake-realtime-config.ts';
import { FakeRealtimeSession, type DropHow, type RealtimeCommit, type RealtimeLatency, type RealtimeSessionRecord, type SessionHost } from './fake-realtime-session.ts';
import { CountWaiter } from './fake-http.ts';
import type { FakeTranscriptions } from './fake-transcriptions.ts';

export type { DropHow, RealtimeCommit, RealtimeLatency, RealtimeSessionRecord } from './fake-realtime-session.ts';

/** How an opening is refused: an HTTP status with OpenAI's error body, or no answer at all. */
export type UpgradeFailure = number | 'hang';

/** The path the fake answers, with `?intent=transcription`. */
export const REALTIME_PATH = '/v1/realtime';
/** The largest event taken; OpenAI's limit is about 15 MB. */
const MAX_EVENT_BYTES = 15 * 1024 * 1024;
const NO_DELAY: RealtimeLatency = { finalAfterCommitMs: 0, deltaSpacingMs: 0 };

const FAILURE_BODIES: Record<number, { message: string; type: string; code: string | null }> = {
  401: { message: 'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.', type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { message: 'You are not allowed to use this model.', type: 'invalid_request_error', code: 'model_not_allowed' },
  429: { message: 'Rate limit reached for requests. Please try again in 1s.', type: 'requests', code: 'rate_limit_exceeded' },
  500: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', code: null },
};

/** A commit whose words stand, and what went before it (FakeRealtime.heard). */
export interface HeardStretch extends RealtimeCommit {
  /** looks at the turn so far that it replaced */
  looks: number;
  /** from the first append of the stretch's audio (its first look's) to this commit */
  streamedBeforeCommitMs: number;
}

/** The fake Realtime transcription endpoint's controls and records. */
export class FakeRealtime {
  /** every socket opened, in order */
  readonly sessions: RealtimeSessionRecord[] = [];
  /** every commit answered (or answered with nothing, for a session without a model), in order */
  readonly commits: RealtimeCommit[] = [];
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: MAX_EVENT_BYTES });
  private readonly open = new Set<WebSocket>();
  private readonly held = new Set<Duplex>();
  private profile: RealtimeLatency = { ...NO_DELAY };
  private upgradeFailure: { failure: UpgradeFailure; remaining: number } | null = null;
  private holding: Array<() => void> | null = null;
  private readonly drops = new Map<'append' | 'commit', { how: DropHow; remaining: number }>();
  private readonly waiters = {
    held: new CountWaiter(() => this.heldUpgrades),
    connected: new CountWaiter(() => this.sessions.length),
    closed: new CountWaiter(() => this.sessions.filter((s) => s.closed).length),
    appended: new CountWaiter(() => this.appends),
    committed: new CountWaiter(() => this.commits.length),
  };

  constructor(private readonly stt: FakeTranscriptions) {}

  /**
   * The commits whose words stand, one for each stretch of speech the kiosk heard: a commit whose
   * audio the kiosk sent again whole on the same socket (the next commit's `again`: the visitor
   * went on after a look at the turn so far) is replaced by that one. Each tells how long before it
   * the first of its audio arrived (the first append of the first commit it replaced) and how many
   * looks it replaced.
   */
  get heard(): HeardStretch[] {
    const heard: HeardStretch[] = [];
    let first: RealtimeCommit | null = null;
    let looks = 0;
    this.commits.forEach((commit, i) => {
      const previous = this.commits[i - 1];
      const replaces = commit.again && previous !== undefined && previous.session === commit.session;
      if (replaces) {
        heard.pop();
        looks += 1;
      } else {
        first = commit;
        looks = 0;
      }
      const firstAppendAt = first!.time.receivedAt - first!.firstAppendBeforeCommitMs;
      heard.push({ ...commit, looks, streamedBeforeCommitMs: Math.round(commit.time.receivedAt - firstAppendAt) });
    });
    return heard;
  }

  /** appends received over all sockets */
  get appends(): number {
    return this.sessions.reduce((sum, s) => sum + s.appends, 0);
  }

  /** How long the answers take from now on (default: everything at once). */
  latency(profile: Partial<RealtimeLatency>): void {
    this.profile = { ...this.profile, ...profile };
  }

  /** The next `count` openings are refused: with `failure` as the HTTP status (401: a wrong key), or held unanswered ('hang'); 'ok' ends it. */
  failUpgrade(failure: UpgradeFailure | 'ok', count = Infinity): void {
    this.upgradeFailure = failure === 'ok' || count <= 0 ? null : { failure, remaining: count };
  }

  /**
   * Holds every opening from now on unanswered until `release()` is called, which lets them (and
   * later ones) through in order: a slow service, for what a client sends before it is open.
   */
  holdUpgrades(): () => void {
    const held: Array<() => void> = [];
    this.holding = held;
    return () => {
      if (this.holding === held) this.holding = null;
      for (const go of held.splice(0)) go();
    };
  }

  /** openings held by `holdUpgrades` and not yet released */
  get heldUpgrades(): number {
    return this.holding?.length ?? 0;
  }

  /**
   * Cuts the next socket to receive an append (just after taking it) or a commit (instead of
   * answering it; its scripted text stays in the queue for the upload that replaces it):
   * without a close frame ('terminate', as a network that goes away) or with `how` as the code.
   */
  drop(at: 'append' | 'commit', how: DropHow = 'terminate', count = 1): void {
    this.drops.set(at, { how, remaining: count });
  }

  /** Resolves once `n` openings are held (holdUpgrades). */
  whenHeld(n = 1): Promise<void> {
    return this.waiters.held.until(n);
  }

  /** Resolves once `n` sockets have opened. */
  whenConnected(n = 1): Promise<void> {
    return this.waiters.connected.until(n);
  }

  /** Resolves once `n` sockets have closed (either side). */
  whenClosed(n = 1): Promise<void> {
    return this.waiters.closed.until(n);
  }

  /** Resolves once `n` appends have arrived, over all sockets. */
  whenAppended(n = 1): Promise<void> {
    return this.waiters.appended.until(n);
  }

  /** Resolves once `n` commits have been answered (their text scheduled). */
  whenCommitted(n = 1): Promise<void> {
    return this.waiters.committed.until(n);
  }

  /** Closes every socket and clears every record, failure and setting. */
  reset(): void {
    this.closeSockets();
    this.sessions.length = 0;
    this.commits.length = 0;
    this.profile = { ...NO_DELAY };
    this.upgradeFailure = null;
    this.holding = null;
    this.drops.clear();
  }

  /** Cuts every socket, and every opening held unanswered. */
  closeSockets(): void {
    for (const socket of this.open) socket.terminate();
    for (const socket of this.held) socket.destroy();
    this.open.clear();
    this.held.clear();
  }

  /** Handles an HTTP upgrade request that reached the fakes' server. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => {});
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    if (url.pathname !== REALTIME_PATH) return refuse(socket, 404, { message: `Invalid URL (GET ${url.pathname})`, type: 'invalid_request_error', code: 'unknown_url' });
    if (url.searchParams.get('intent') !== 'transcription') {
      return refuse(socket, 400, { message: 'The fake serves transcription sessions only: open /v1/realtime?intent=transcription.', type: 'invalid_request_error', code: 'invalid_value' });
    }
    if (this.holding) {
      this.held.add(socket);
      this.holding.push(() => {
        this.held.delete(socket);
        if (!socket.destroyed) this.upgrade(req, socket, head);
      });
      return this.notify();
    }
    const failure = this.takeUpgradeFailure();
    if (failure === 'hang') {
      this.held.add(socket);
      socket.once('close', () => this.held.delete(socket));
      return;
    }
    if (failure !== null) return refuse(socket, failure, FAILURE_BODIES[failure] ?? { message: STATUS_CODES[failure] ?? 'Error', type: 'server_error', code: null });
    this.server.handleUpgrade(req, socket, head, (ws) => this.accept(ws, req));
  }

  private accept(ws: WebSocket, req: IncomingMessage): void {
    const record: RealtimeSessionRecord = {
      url: req.url ?? '',
      authorization: req.headers.authorization,
      updates: [],
      session: newTranscriptionSession(),
      model: undefined,
      language: undefined,
      received: [],
      appends: 0,
      clears: 0,
      errors: [],
      closed: false,
    };
    this.sessions.push(record);
    this.open.add(ws);
    ws.on('close', () => this.open.delete(ws));
    new FakeRealtimeSession(ws, record, this.host(record));
    this.notify();
  }

  private host(record: RealtimeSessionRecord): SessionHost {
    return {
      latency: () => this.profile,
      transcribe: (speechMs, audio) => this.stt.answerCommit(speechMs, audio),
      takeDrop: (at) => this.takeDrop(at),
      committed: (commit) => {
        // A session cleared away by reset() is no longer in the records.
        const session = this.sessions.indexOf(record);
        if (session >= 0) this.commits.push({ session, ...commit });
        this.notify();
      },
      changed: () => this.notify(),
    };
  }

  private takeDrop(at: 'append' | 'commit'): DropHow | null {
    const drop = this.drops.get(at);
    if (!drop) return null;
    if (--drop.remaining <= 0) this.drops.delete(at);
    return drop.how;
  }

  private takeUpgradeFailure(): UpgradeFailure | null {
    const staged = this.upgradeFailure;
    if (!staged) return null;
    if (--staged.remaining <= 0) this.upgradeFailure = null;
    return staged.failure;
  }

  private notify(): void {
    for (const waiter of Object.values(this.waiters)) waiter.notify();
  }
}

/** Answers an opening with an HTTP error in OpenAI's shape, then closes the connection. */
function refuse(socket: Duplex, status: number, error: { message: string; type: string; code: string | null }): void {
  const body = JSON.stringify({ error: { ...error, param: null } });
  const head = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`, 'content-type: application/json', `content-length: ${Buffer.byteLength(body)}`, 'connection: close'];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
}
