// The kiosk's own timing, read from the page's query string (`?idle_seconds=30`): how long the
// end screen stays and how long the kiosk waits for a visitor who has walked away.

import { MAX_SECONDS } from '../engine/limits.ts';

export interface KioskSettings {
  /** seconds the end screen stays before the kiosk wipes and returns to idle */
  endSeconds: number;
  /** seconds without any visitor activity before "Are you still there?" */
  idleSeconds: number;
  /** seconds the "Are you still there?" question waits before wiping */
  idleGraceSeconds: number;
}

/**
 * The settings a query string gives, each a number of seconds from 0 up to MAX_SECONDS (about
 * 24.8 days, the longest a timer can wait; a larger one is held to it); anything else keeps the
 * default.
 */
export function settingsFrom(search: string): KioskSettings {
  const p = new URLSearchParams(search);
  const seconds = (k: string, d: number) => {
    const v = Number(p.get(k));
    return p.has(k) && Number.isFinite(v) && v >= 0 ? Math.min(v, MAX_SECONDS) : d;
  };
  return { endSeconds: seconds('end_seconds', 15), idleSeconds: seconds('idle_seconds', 120), idleGraceSeconds: seconds('idle_grace_seconds', 20) };
}
