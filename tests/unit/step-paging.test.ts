// "More below" on a step longer than its panel: how far one tap scrolls, so that a control cut
// by the panel's lower edge comes whole into view instead of being paged past.

import { describe, expect, it } from 'vitest';
import { pageStep } from '../../src/ui/step-paging.ts';

/** A panel 160 px high (a phone's step with a wrapped top bar), 200 px from the screen's top. */
const PANEL = { top: 200, bottom: 360 };

describe('pageStep', () => {
  it('pages by most of the panel when nothing is cut by its lower edge', () => {
    expect(pageStep(PANEL, [{ top: 220, bottom: 280 }, { top: 400, bottom: 456 }])).toBe(128);
  });

  it('brings a control cut by the lower edge whole into view, its top a margin under the panel’s', () => {
    // A Confirm button from 330 to 386: the old page of 128 px left it cut at the top instead.
    const step = pageStep(PANEL, [{ top: 330, bottom: 386 }]);
    expect(step).toBe(330 - 200 - 12);
    expect(330 - step).toBeGreaterThanOrEqual(PANEL.top);
    expect(386 - step).toBeLessThanOrEqual(PANEL.bottom);
  });

  it('takes the first of several cut controls, so none is skipped', () => {
    expect(pageStep(PANEL, [{ top: 340, bottom: 396 }, { top: 300, bottom: 380 }])).toBe(300 - 200 - 12);
  });

  it('pages a control taller than the panel like the rest, and never scrolls by nothing', () => {
    expect(pageStep(PANEL, [{ top: 250, bottom: 600 }])).toBe(128);
    expect(pageStep(PANEL, [{ top: 205, bottom: 362 }])).toBe(128);
  });

  it('pages at least 60 px on a very low panel', () => {
    expect(pageStep({ top: 0, bottom: 50 }, [])).toBe(60);
  });
});
