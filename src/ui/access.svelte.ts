// What the visitor chose for their visit to see, hear and reach the kiosk better: audio guidance,
// the text size, high contrast, the controls in the lower part of the screen and the volume. Each
// visit starts from the operator's defaults (access-levels.ts) and the wipe puts them back; a visit
// taken up after a reload takes them up too (kept with it, visit-store.ts).

import type { KeptChoices } from '../pwa/visit-store.ts';
import { nextTextSize, TEXT_SIZES, volumeGain, VOLUME_LEVELS, type AccessDefaults } from './access-levels.ts';

export class Access {
  /** the kiosk says everything on the screen and where the keys move to */
  guidance = $state(false);
  /** in per cent of the kiosk's own text size */
  textSize = $state(100);
  contrast = $state(false);
  lower = $state(false);
  /** 1 to VOLUME_LEVELS */
  volume = $state(1);

  constructor(readonly defaults: AccessDefaults) {
    this.reset();
  }

  /** The volume as a gain, 0 to 1. */
  get gain(): number {
    return volumeGain(this.volume);
  }

  /** One step louder; false at the top already. */
  louder(): boolean {
    if (this.volume >= VOLUME_LEVELS) return false;
    this.volume += 1;
    return true;
  }

  /** One step quieter; false at the bottom already (the kiosk never goes silent: Stop does that). */
  quieter(): boolean {
    if (this.volume <= 1) return false;
    this.volume -= 1;
    return true;
  }

  larger(): void {
    this.textSize = nextTextSize(this.textSize, 1);
  }

  smaller(): void {
    this.textSize = nextTextSize(this.textSize, -1);
  }

  /** The choices as they stand, to keep with the visit. */
  kept(): KeptChoices {
    return { guidance: this.guidance, textSize: this.textSize, contrast: this.contrast, lower: this.lower, volume: this.volume };
  }

  /** The choices kept with a visit taken up after a reload; a size or level that is none of the kiosk's keeps the default. */
  restore(kept: KeptChoices): void {
    this.reset();
    this.guidance = kept.guidance;
    this.contrast = kept.contrast;
    this.lower = kept.lower;
    if ((TEXT_SIZES as readonly number[]).includes(kept.textSize)) this.textSize = kept.textSize;
    if (Number.isInteger(kept.volume) && kept.volume >= 1 && kept.volume <= VOLUME_LEVELS) this.volume = kept.volume;
  }

  /** Back to how every visit starts: the operator's volume and layout, the rest off. */
  reset(): void {
    this.guidance = false;
    this.textSize = 100;
    this.contrast = false;
    this.lower = this.defaults.lower;
    this.volume = this.defaults.volume;
  }
}
