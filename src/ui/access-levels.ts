// The steps of what a visitor can change about the kiosk for their visit (access.svelte.ts): the
// text sizes up to 200 %, the volume levels and the gain each stands for, and the operator's
// defaults for a visit's start, read from the page's settings (`?volume=6&layout=lower`).

/** The text sizes a visitor can choose, in per cent of the kiosk's own (WCAG 1.4.4: up to 200 %). */
export const TEXT_SIZES = [100, 125, 150, 175, 200] as const;

/** The volume levels are 1 to this; each step is 3 dB, the top one the voice as loud as it comes. */
export const VOLUME_LEVELS = 10;

/** The level a visit starts at when the operator sets none: two steps below the top, so there is room to go louder. */
export const DEFAULT_VOLUME = 8;

const DB_PER_LEVEL = 3;

/** What each visit starts with, as the operator set it for this kiosk. */
export interface AccessDefaults {
  /** 1 to VOLUME_LEVELS */
  volume: number;
  /** the controls in the lower part of the screen (`layout=lower`) */
  lower: boolean;
}

/** The gain (0 to 1) that a volume level stands for: 3 dB a step below the loudest. */
export function volumeGain(level: number): number {
  const steps = VOLUME_LEVELS - Math.min(VOLUME_LEVELS, Math.max(1, Math.round(level)));
  return 10 ** ((-DB_PER_LEVEL * steps) / 20);
}

/** The text size one step larger (`+1`) or smaller (`-1`) than `size`, held to the sizes there are. */
export function nextTextSize(size: number, step: 1 | -1): number {
  const at = TEXT_SIZES.findIndex((s) => s >= size);
  const i = Math.min(TEXT_SIZES.length - 1, Math.max(0, (at < 0 ? TEXT_SIZES.length - 1 : at) + step));
  return TEXT_SIZES[i]!;
}

/** A volume level as the page address writes it: 1 to 10. */
export const VOLUME_LEVEL = /^([1-9]|10)$/;

/** The operator's defaults in the page's settings; anything malformed keeps the built-in one. */
export function accessDefaultsFrom(search: string): AccessDefaults {
  const p = new URLSearchParams(search);
  const volume = p.get('volume')?.trim() ?? '';
  return {
    volume: VOLUME_LEVEL.test(volume) ? Number(volume) : DEFAULT_VOLUME,
    lower: p.get('layout')?.trim() === 'lower',
  };
}
