// When a new version of the kiosk takes over: a small state machine, free of the browser. A new
// version found in the background waits; it is let in (the waiting service worker told to take
// over) only while the kiosk is quiet, and the page reloads once, again only while it is quiet.
// A visitor who starts a visit in between is never interrupted: the reload waits for the next
// quiet moment. The browser side (src/pwa/register.ts) feeds it events.

import type { Timers } from '../ports/timers.ts';

/**
 * - `current`: nothing newer is known
 * - `waiting`: a new version is installed and waits for a quiet moment
 * - `activating`: it was told to take over; the page waits for it to take control
 * - `reload-due`: the new version controls the page; the page reloads at the next quiet moment
 * - `reloading`: the reload was asked for (once)
 */
export type UpdateState = 'current' | 'waiting' | 'activating' | 'reload-due' | 'reloading';

export interface UpdateHooks {
  /** true when no visitor is using the kiosk (its idle screen) */
  isQuiet(): boolean;
  /** tells the waiting version to take over (the service worker's skipWaiting) */
  activate(): void;
  /** reloads the page */
  reload(): void;
  /** told of every change of state: an "update ready" light, a log line */
  changed?(state: UpdateState): void;
}

/** How long a version told to take over may take before the kiosk stops waiting for it. */
export const TAKE_OVER_TIMEOUT_MS = 10_000;

export class UpdateGate {
  private current: UpdateState = 'current';
  private cancelTimeout: (() => void) | null = null;

  constructor(
    private readonly hooks: UpdateHooks,
    private readonly timers: Timers,
  ) {}

  get state(): UpdateState {
    return this.current;
  }

  /** A newer version is ready: it has installed and waits. */
  found(): void {
    if (this.current !== 'current') return;
    this.set('waiting');
    this.settle();
  }

  /** The kiosk may have become quiet (or busy): call on every change of its screen. */
  settle(): void {
    if (!this.hooks.isQuiet()) return;
    if (this.current === 'waiting') {
      this.set('activating');
      this.cancelTimeout = this.timers.schedule(TAKE_OVER_TIMEOUT_MS, () => this.gaveUp());
      this.hooks.activate();
    } else if (this.current === 'reload-due') {
      this.set('reloading');
      this.hooks.reload();
    }
  }

  /**
   * Another version took control of the page (the one told to, or one let in elsewhere): the
   * code running here is now older than its service worker, so the page reloads when quiet.
   */
  tookOver(): void {
    if (this.current === 'reloading') return;
    this.cancelTimeout?.();
    this.cancelTimeout = null;
    this.set('reload-due');
    this.settle();
  }

  /** The waiting version never took control (it was replaced, or failed): back to waiting for news. */
  private gaveUp(): void {
    this.cancelTimeout = null;
    if (this.current === 'activating') this.set('current');
  }

  private set(state: UpdateState): void {
    this.current = state;
    this.hooks.changed?.(state);
  }
}
