// The kiosk's own timing and voice, read from the page's query string (`?idle_seconds=30`): how
// long the end screen stays, how long the kiosk waits for a visitor who has walked away, and the
// language, voice and microphone sensitivity it listens and speaks with. A value it cannot use is
// left at its default, and said, for staff (addressProblems).

import { MAX_SECONDS } from '../engine/language/limits.ts';
import type { MicSensitivity } from '../voice/turn-taking.ts';
import { words, type Words } from './i18n/words.ts';
import { DEFAULT_VOLUME, VOLUME_LEVEL } from './access-levels.ts';

const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;
const VOICE_NAME = /^[\w.-]{1,64}$/;

/** The settings a page address may give in seconds, and their defaults (flow_timeout_seconds: adapters/flow-files.ts). */
const SECONDS_DEFAULTS = { end_seconds: 20, idle_seconds: 120, idle_grace_seconds: 20, flow_timeout_seconds: 15 } as const;

/** A setting of the page address the kiosk cannot use: its name, the value given and what staff are told. */
export interface AddressProblem {
  setting: string;
  value: string;
  words: Words;
}

/**
 * The settings in the page address (`?idle_seconds=abc&mic_sensitivity=loud`) that the kiosk
 * cannot use and so leaves at their defaults, each with a sentence for staff naming the setting,
 * the value and what is used instead. Accepts what settingsFrom and voiceSettingsFrom accept.
 */
export function addressProblems(search: string): AddressProblem[] {
  const p = new URLSearchParams(search);
  const out: AddressProblem[] = [];
  const problem = (setting: string, key: Parameters<typeof words>[0], values: Record<string, string | number> = {}) => {
    const value = p.get(setting)!.slice(0, 80);
    out.push({ setting, value, words: words(key, { setting, value, ...values }) });
  };
  for (const [setting, fallback] of Object.entries(SECONDS_DEFAULTS)) {
    if (!p.has(setting)) continue;
    const v = p.get(setting)!.trim();
    const n = Number(v);
    const fine = v !== '' && Number.isFinite(n) && (setting === 'flow_timeout_seconds' ? n > 0 : n >= 0);
    if (!fine) problem(setting, 'settings.seconds', { fallback });
  }
  const sensitivity = p.get('mic_sensitivity')?.trim();
  if (sensitivity !== undefined && sensitivity !== '' && !['low', 'normal', 'high'].includes(sensitivity)) problem('mic_sensitivity', 'settings.sensitivity');
  const volume = p.get('volume')?.trim();
  if (volume !== undefined && volume !== '' && !VOLUME_LEVEL.test(volume)) problem('volume', 'settings.volume', { fallback: DEFAULT_VOLUME });
  const layout = p.get('layout')?.trim();
  if (layout !== undefined && layout !== '' && layout !== 'standard' && layout !== 'lower') problem('layout', 'settings.layout');
  const language = p.get('language')?.trim();
  if (language !== undefined && language !== '' && !LANGUAGE_TAG.test(language)) problem('language', 'settings.language');
  const voice = p.get('voice')?.trim();
  if (voice !== undefined && voice !== '' && !VOICE_NAME.test(voice)) problem('voice', 'settings.voice');
  return out;
}

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
 * 24.8 days, the longest a timer can wait; a larger one is held to it); anything else (a blank
 * among it) keeps the default, and addressProblems says so.
 */
export function settingsFrom(search: string): KioskSettings {
  const p = new URLSearchParams(search);
  const seconds = (k: keyof typeof SECONDS_DEFAULTS) => {
    const text = p.get(k)?.trim() ?? '';
    const v = Number(text);
    return text !== '' && Number.isFinite(v) && v >= 0 ? Math.min(v, MAX_SECONDS) : SECONDS_DEFAULTS[k];
  };
  return { endSeconds: seconds('end_seconds'), idleSeconds: seconds('idle_seconds'), idleGraceSeconds: seconds('idle_grace_seconds') };
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
    language: LANGUAGE_TAG.test(language) ? language : null,
    voice: VOICE_NAME.test(voice) ? voice : null,
    sensitivity: sensitivity === 'low' || sensitivity === 'high' ? sensitivity : 'normal',
  };
}
