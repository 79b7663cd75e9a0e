// How far "More below" scrolls a step: plain geometry of the panel and its controls, apart from
// the DOM (step-scroll.ts measures and scrolls) so that Node tests can check it.

/** Room left above and below a revealed row, so its edge is not flush with the panel's. */
export const MARGIN_PX = 12;

/** A box's or a control's top and bottom edge on the screen, in px. */
export interface Edges {
  top: number;
  bottom: number;
}

/**
 * How far "More below" scrolls a panel showing `panel` (its edges on the screen): most of what
 * it shows, but never past a control its lower edge cuts in two. Such a control comes whole into
 * view instead, its top a margin under the panel's top (one taller than the panel is paged like
 * the rest). Paging by a fixed share skipped it: half shown before the tap, half after.
 */
export function pageStep(panel: Edges, controls: Iterable<Edges>): number {
  const height = panel.bottom - panel.top;
  let step = Math.max(height * 0.8, 60);
  for (const c of controls) {
    const cut = c.top < panel.bottom && c.bottom > panel.bottom;
    const fits = c.bottom - c.top <= height - 2 * MARGIN_PX;
    const toTop = c.top - panel.top - MARGIN_PX;
    if (cut && fits && toTop > 0) step = Math.min(step, toTop);
  }
  return step;
}
