// One WebSocket to the kiosk server's relay of an OpenAI Realtime transcription session
// (`/api/stt/realtime`): it sends the page's audio and commits in order and sorts the service's
// events back to the stretch they belong to. The relay holds the key and sets up the session; the
// page sends only `input_audio_buffer.append`, `.commit` and `.clear`. Messages sent before the
// socket opens wait for it. When the socket fails, every stretch still waiting for its text is
// told, so it can take its kept audio the other way.

/** The part of the browser's WebSocket this uses (the `ws` package offers the same in Node). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export type OpenSocket = (url: string) => SocketLike;

/** What a committed stretch hears back. */
export interface CommitListener {
  /** more words of its text, not final */
  delta(text: string): void;
  completed(text: string): void;
  /** the service could not transcribe it, or the connection went: take the kept audio another way */
  failed(why: string): void;
}

const OPEN = 1;

interface ServerEvent {
  type?: unknown;
  item_id?: unknown;
  delta?: unknown;
  transcript?: unknown;
  error?: { message?: unknown; code?: unknown };
}

export class RealtimeConnection {
  private readonly socket: SocketLike;
  private readonly waiting: string[] = [];
  /** commits sent and not yet acknowledged, oldest first */
  private readonly unacknowledged: CommitListener[] = [];
  private readonly byItem = new Map<string, CommitListener>();
  private broken: string | null = null;

  constructor(
    open: OpenSocket,
    url: string,
    private readonly onProblem: (why: string) => void,
  ) {
    this.socket = open(url);
    this.socket.onopen = () => {
      for (const message of this.waiting.splice(0)) this.socket.send(message);
    };
    this.socket.onmessage = (event) => this.receive(event.data);
    this.socket.onerror = () => this.fail('the connection to speech recognition failed');
    this.socket.onclose = (event) => this.fail(event.reason ? `speech recognition closed: ${event.reason}` : `speech recognition closed (${event.code})`);
  }

  /** Why the connection can no longer be used, or null while it can. */
  get failure(): string | null {
    return this.broken;
  }

  append(base64: string): void {
    this.send({ type: 'input_audio_buffer.append', audio: base64 });
  }

  commit(listener: CommitListener): void {
    if (this.broken !== null) return listener.failed(this.broken);
    this.unacknowledged.push(listener);
    this.send({ type: 'input_audio_buffer.commit' });
  }

  clear(): void {
    this.send({ type: 'input_audio_buffer.clear' });
  }

  /** A committed stretch no longer wants its text (the visit ended). */
  forget(listener: CommitListener): void {
    const at = this.unacknowledged.indexOf(listener);
    // Still unacknowledged: keep its place so the acknowledgements that follow stay in step.
    if (at >= 0) this.unacknowledged[at] = { delta() {}, completed() {}, failed() {} };
    for (const [item, l] of this.byItem) if (l === listener) this.byItem.delete(item);
  }

  close(): void {
    this.broken ??= 'closed by the kiosk';
    this.socket.onclose = null;
    this.socket.onerror = null;
    this.socket.onmessage = null;
    this.socket.close(1000, 'visit over');
  }

  private send(message: Record<string, unknown>): void {
    if (this.broken !== null) return;
    const text = JSON.stringify(message);
    if (this.socket.readyState === OPEN) this.socket.send(text);
    else this.waiting.push(text);
  }

  private receive(data: unknown): void {
    let event: ServerEvent;
    try {
      event = JSON.parse(String(data)) as ServerEvent;
    } catch {
      return this.onProblem('speech recognition sent something that is not JSON');
    }
    const item = typeof event.item_id === 'string' ? event.item_id : null;
    switch (event.type) {
      case 'input_audio_buffer.committed': {
        const listener = this.unacknowledged.shift();
        if (listener && item) this.byItem.set(item, listener);
        return;
      }
      case 'conversation.item.input_audio_transcription.delta':
        if (item && typeof event.delta === 'string') this.byItem.get(item)?.delta(event.delta);
        return;
      case 'conversation.item.input_audio_transcription.completed':
        if (item) this.settle(item, (l) => l.completed(typeof event.transcript === 'string' ? event.transcript : ''));
        return;
      case 'conversation.item.input_audio_transcription.failed':
        if (item) this.settle(item, (l) => l.failed(`speech recognition failed: ${describe(event)}`));
        return;
      case 'error':
        return this.onError(event);
      default:
        return;
    }
  }

  /** An error event: a refused commit fails the oldest commit waiting; anything else is reported. */
  private onError(event: ServerEvent): void {
    const code = typeof event.error?.code === 'string' ? event.error.code : '';
    if (code.startsWith('input_audio_buffer_commit')) this.unacknowledged.shift()?.failed(`speech recognition refused a commit: ${describe(event)}`);
    else this.onProblem(`speech recognition said: ${describe(event)}`);
  }

  private settle(item: string, tell: (listener: CommitListener) => void): void {
    const listener = this.byItem.get(item);
    if (!listener) return;
    this.byItem.delete(item);
    tell(listener);
  }

  private fail(why: string): void {
    if (this.broken !== null) return;
    this.broken = why;
    const waiting = [...this.unacknowledged.splice(0), ...this.byItem.values()];
    this.byItem.clear();
    for (const listener of waiting) listener.failed(why);
    this.onProblem(why);
  }
}

function describe(event: ServerEvent): string {
  const message = event.error?.message;
  return typeof message === 'string' ? message.slice(0, 200) : 'no reason given';
}
