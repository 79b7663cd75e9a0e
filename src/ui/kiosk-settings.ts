// The kiosk's own timing and voice, read from the page's query string (`?idle_seconds=30`): how
// long the end screen stays, how long the kiosk waits for a visitor who has walked away, and the
// language, voice and microphone sensitivity it listens and speaks with.

import { MAX_SECONDS } from '../engine/language/limits.ts';
import type { MicSensitivity } from '../voice/turn-taking.ts';

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
  return { endSeconds: seconds('end_seconds', 20), idleSeconds: seconds('idle_seconds', 120), idleGraceSeconds: seconds('idle_grace_seconds', 20) };
}

/** The voice as the page's query sets it (`?language=en-GB&voice=nova&mic_sensitivity=low`). */
export interface VoiceSettings {
  /** the language to listen and speak in, over the flow's own `language`; null: the flow's */
  language: string | null;
  /** the speech service's voice, over the server's TTS_VOICE; null: the server's */
  voice: string | null;
  sensitivity: MicSensitivity;
}

/** The voice settings a query string gives; anything malformed is left at its default. */
export function voiceSettingsFrom(search: string): VoiceSettings {
  const p = new URLSearchParams(search);
  const language = p.get('language')?.trim() ?? '';
  const voice = p.get('voice')?.trim() ?? '';
  const sensitivity = p.get('mic_sensitivity')?.trim();
  return {
    language: /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(language) ? language : null,
    voice: /^[\w.-]{1,64}$/.test(voice) ? voice : null,
    sensitivity: sensitivity === 'low' || sensitivity === 'high' ? sensitivity : 'normal',
  };
}
