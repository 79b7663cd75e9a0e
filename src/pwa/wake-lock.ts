// Keeps the screen on while a visitor uses the kiosk (the Screen Wake Lock API): asked for when a
// visit starts, let go on the idle screen, asked for again when the page comes back into view
// (browsers drop the lock when it is hidden). A browser without the API, or one that refuses,
// just goes on: the screen then follows the device's own sleep setting.

/** The parts of `navigator.wakeLock` used here. */
export interface WakeLockApi {
  request(type: 'screen'): Promise<WakeLockSentinelLike>;
}

export interface WakeLockSentinelLike {
  readonly released: boolean;
  release(): Promise<void>;
  addEventListener(type: 'release', listener: () => void): void;
}

/** The parts of `document` used here. */
export interface VisibilitySource {
  readonly visibilityState: 'visible' | 'hidden' | 'prerender';
  addEventListener(type: 'visibilitychange', listener: () => void): void;
}

/**
 * - `off`: not wanted, or wanted while the page is hidden
 * - `held`: the screen stays on
 * - `unavailable`: the browser has no wake lock
 * - `refused`: the browser said no (battery saver, a policy); asked again on the next visit or view
 */
export type WakeLockState = 'off' | 'held' | 'unavailable' | 'refused';

export class ScreenWakeLock {
  private sentinel: WakeLockSentinelLike | null = null;
  private wanted = false;
  private asking: Promise<void> | null = null;
  private current: WakeLockState;

  constructor(
    private readonly api: WakeLockApi | null,
    page: VisibilitySource,
    private readonly changed: (state: WakeLockState) => void = () => {},
  ) {
    this.current = api ? 'off' : 'unavailable';
    page.addEventListener('visibilitychange', () => {
      if (page.visibilityState === 'visible') void this.acquire();
    });
  }

  get state(): WakeLockState {
    return this.current;
  }

  /** Whether a visitor is using the kiosk: the lock is held (or asked for) exactly then. */
  want(on: boolean): Promise<void> {
    this.wanted = on;
    return on ? this.acquire() : this.release();
  }

  private acquire(): Promise<void> {
    if (!this.api || !this.wanted || this.sentinel) return Promise.resolve();
    this.asking ??= this.api
      .request('screen')
      .then(
        (sentinel) => {
          sentinel.addEventListener('release', () => {
            if (this.sentinel !== sentinel) return;
            this.sentinel = null;
            this.set('off');
          });
          // The visit ended while the browser was answering.
          if (!this.wanted) return sentinel.release();
          this.sentinel = sentinel;
          this.set('held');
        },
        (error: unknown) => {
          console.info(`kiosk: the screen may dim during a visit: the wake lock was refused (${(error as Error).message})`);
          this.set('refused');
        },
      )
      .finally(() => (this.asking = null));
    return this.asking;
  }

  private async release(): Promise<void> {
    await this.asking;
    const sentinel = this.sentinel;
    this.sentinel = null;
    if (this.current === 'held' || this.current === 'refused') this.set('off');
    if (sentinel && !sentinel.released) await sentinel.release().catch(() => undefined);
  }

  private set(state: WakeLockState): void {
    if (state === this.current) return;
    this.current = state;
    this.changed(state);
  }
}

/** The browser's own wake lock, or null where it has none (or the page is not secure). */
export function browserWakeLock(): WakeLockApi | null {
  const api = (globalThis as { navigator?: { wakeLock?: WakeLockApi } }).navigator?.wakeLock;
  return api && typeof api.request === 'function' ? api : null;
}
