// The kiosk's settings kept on the device by the operator panel (localStorage): the flow, the
// language, the voice, the microphone's sensitivity, the timings, and the volume and controls
// each visit starts with, under the same names the page
// address takes (`?flow=`, `?idle_seconds=`). Never a visitor's data. The address wins: a setting
// in the address is used over the kept one, and the panel says which ones it sets. A flow is
// checked against the names of the bundled flows, which the caller gives (its FlowSource's).

import { words, type Words } from './i18n/words.ts';

/** The localStorage key of the kept settings; the visitor wipe leaves it alone. */
export const DEVICE_SETTINGS_KEY = 'kiosk-device-settings';

/** Every setting the panel keeps, by its address name, in the panel's order. */
export const SETTING_NAMES = ['flow', 'language', 'voice', 'mic_sensitivity', 'idle_seconds', 'idle_grace_seconds', 'end_seconds', 'volume', 'layout'] as const;

export type SettingName = (typeof SETTING_NAMES)[number];

/** Kept settings: a name left out (or blank) means the built-in default, or the flow's own. */
export type DeviceSettings = Partial<Record<SettingName, string>>;

/** The part of Web Storage used here. */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  key(index: number): string | null;
  readonly length: number;
}

/** The page's storages, where the browser has them (not in Node). */
const page = globalThis as { localStorage?: StorageLike; sessionStorage?: { clear(): void } };

function localStore(): StorageLike | null {
  try {
    return page.localStorage ?? null;
  } catch {
    return null; // storage refused (a private window, a policy)
  }
}

/** The kept settings; none when nothing is kept, or what is kept is not readable. `flows`: the bundled flows' names. */
export function readDeviceSettings(flows: readonly string[], storage: StorageLike | null = localStore()): DeviceSettings {
  let kept: unknown;
  try {
    kept = JSON.parse(storage?.getItem(DEVICE_SETTINGS_KEY) ?? '{}');
  } catch {
    return {};
  }
  const settings: DeviceSettings = {};
  if (typeof kept !== 'object' || kept === null) return settings;
  for (const name of SETTING_NAMES) {
    const value = (kept as Record<string, unknown>)[name];
    if (typeof value === 'string' && value.trim() !== '' && checkSetting(name, value, flows) === null) settings[name] = value.trim();
  }
  return settings;
}

/** Keeps `settings` (blank ones dropped). Throws when the device refuses to store them. */
export function writeDeviceSettings(settings: DeviceSettings, storage: StorageLike | null = localStore()): void {
  if (!storage) throw new Error('this browser keeps nothing for this page (private window or storage turned off)');
  const kept: DeviceSettings = {};
  for (const name of SETTING_NAMES) {
    const value = settings[name]?.trim();
    if (value) kept[name] = value;
  }
  storage.setItem(DEVICE_SETTINGS_KEY, JSON.stringify(kept));
}

/**
 * The query the kiosk runs with: the address's own settings, and the kept ones it does not set.
 * `fromAddress` names the settings the address sets (and so overrides).
 */
export function effectiveSearch(address: string, kept: DeviceSettings): { search: string; fromAddress: SettingName[] } {
  const params = new URLSearchParams(address);
  const fromAddress = SETTING_NAMES.filter((name) => params.has(name));
  for (const name of SETTING_NAMES) {
    const value = kept[name];
    if (value !== undefined && !params.has(name)) params.set(name, value);
  }
  const search = params.toString();
  return { search: search ? `?${search}` : '', fromAddress };
}

// A time limit a visitor meets is shown and said at least 20 s before it acts (WCAG 2.2.1): the
// walk-away question waits no less. The end screen guards only what it shows: with something to
// read it stays at least 20 s whatever this says (kiosk-life.ts, READ_MS); with nothing, it may go sooner.
const SECONDS: Partial<Record<SettingName, { min: number; max: number }>> = {
  idle_seconds: { min: 10, max: 3600 },
  idle_grace_seconds: { min: 20, max: 600 },
  end_seconds: { min: 5, max: 600 },
};

export const SENSITIVITIES = ['low', 'normal', 'high'] as const;

/** Where the visitor's controls sit: `lower` keeps them within a seated person's reach. */
export const LAYOUTS = ['standard', 'lower'] as const;

/**
 * Why `value` cannot be kept as `name`, as catalog words for the operator; null when it can (blank: unset).
 * `flows`: the names of the bundled flows, which a flow may be besides an address.
 */
export function checkSetting(name: SettingName, value: string, flows: readonly string[]): Words | null {
  const v = value.trim();
  if (v === '') return null;
  switch (name) {
    case 'flow':
      if (flows.includes(v) || v.startsWith('/') || /^https?:\/\/[^\s/]+/i.test(v)) return null;
      return words('operator.problem.flow', { flows: flows.join(', ') });
    case 'language':
      return /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(v) ? null : words('operator.problem.language');
    case 'voice':
      return /^[\w.-]{1,64}$/.test(v) ? null : words('operator.problem.voice');
    case 'mic_sensitivity':
      return (SENSITIVITIES as readonly string[]).includes(v) ? null : words('operator.problem.mic_sensitivity');
    case 'volume':
      return /^([1-9]|10)$/.test(v) ? null : words('operator.problem.volume');
    case 'layout':
      return (LAYOUTS as readonly string[]).includes(v) ? null : words('operator.problem.layout');
    default: {
      const range = SECONDS[name]!;
      const n = Number(v);
      if (/^\d+$/.test(v) && n >= range.min && n <= range.max) return null;
      return words(`operator.problem.${name}`, { min: range.min, max: range.max });
    }
  }
}

/**
 * Clears what a visit may have left in the page's storage: all of sessionStorage, and every
 * localStorage entry but the device's own settings (the kiosk's setup, not a visitor's).
 */
export function clearVisitorStorage(local: StorageLike | null = localStore(), session: { clear(): void } | null = sessionStore()): void {
  session?.clear();
  if (!local) return;
  const keys: string[] = [];
  for (let i = 0; i < local.length; i++) {
    const key = local.key(i);
    if (key !== null && key !== DEVICE_SETTINGS_KEY) keys.push(key);
  }
  for (const key of keys) local.removeItem(key);
}

function sessionStore(): { clear(): void } | null {
  try {
    return page.sessionStorage ?? null;
  } catch {
    return null;
  }
}
