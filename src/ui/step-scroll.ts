// The step's own scrolling: a value waiting for the visitor's yes is brought fully into view, and
// a step longer than its panel says that more follows. The screen itself never scrolls; only the
// step's body does, so these move that box alone (scrollIntoView would move the screen too).

import { MARGIN_PX, pageStep, type Edges } from './step-paging.ts';

/** Scrolls `box` the least that shows `row` whole; a row taller than the box shows its top. */
export function reveal(box: HTMLElement, row: HTMLElement): void {
  const inside = box.getBoundingClientRect();
  const shown = row.getBoundingClientRect();
  const above = shown.top - inside.top - MARGIN_PX;
  const below = shown.bottom - inside.bottom + MARGIN_PX;
  if (above < 0) box.scrollTop += above;
  else if (below > 0) box.scrollTop += Math.min(below, above);
}

/** True when `box` shows all of `el` now (within a pixel): nothing of it above or below the box's edges. */
export function showsWhole(box: HTMLElement, el: HTMLElement): boolean {
  const inside = box.getBoundingClientRect();
  const shown = el.getBoundingClientRect();
  return shown.top >= inside.top - 1 && shown.bottom <= inside.bottom + 1;
}

/**
 * Watches whether `box` has more below what it shows (scrolled, resized, or its content grown)
 * and tells `onchange`; returns the function that stops watching. `cueSpace` is the height the
 * cue itself takes from the box while it shows: whether there is more is judged as if it were
 * gone, so that the cue never keeps itself up by the room it takes.
 */
export function watchMoreBelow(box: HTMLElement, onchange: (more: boolean) => void, cueSpace: () => number = () => 0): () => void {
  let last = false;
  const check = () => {
    const hidden = box.scrollHeight - box.clientHeight - box.scrollTop - (last ? cueSpace() : 0);
    const more = hidden > 2;
    if (more !== last) onchange((last = more));
  };
  const sizes = new ResizeObserver(check);
  sizes.observe(box);
  const content = new MutationObserver(() => {
    for (const child of box.children) sizes.observe(child);
    check();
  });
  content.observe(box, { childList: true, subtree: true, characterData: true });
  for (const child of box.children) sizes.observe(child);
  box.addEventListener('scroll', check, { passive: true });
  onchange(false);
  check();
  return () => {
    sizes.disconnect();
    content.disconnect();
    box.removeEventListener('scroll', check);
  };
}

/**
 * Keeps a revealed row whole in view while `box` changes size under it: the footer grows (a
 * "Confirm all" row, the "More below" cue) or the tablet turns. It lets go at the visitor's own
 * first scroll, so it never pulls the step back from where they took it. Returns a function to
 * call with each new row to keep (or null), one to show the kept row again after a change the
 * box's size does not reveal, and one to stop.
 */
export function keepInView(box: HTMLElement): { keep: (row: HTMLElement | null) => void; again: () => void; stop: () => void } {
  let kept: HTMLElement | null = null;
  let ours = 0;
  const show = () => {
    if (!kept?.isConnected) return void (kept = null);
    reveal(box, kept);
    ours = box.scrollTop;
  };
  /** The step has moved since we last placed it: the visitor's scroll, whichever event is first. */
  const movedByVisitor = () => box.scrollTop !== ours;
  const again = () => {
    if (kept && movedByVisitor()) kept = null;
    show();
  };
  const sizes = new ResizeObserver(again);
  sizes.observe(box);
  const scrolled = () => {
    if (movedByVisitor()) kept = null;
  };
  box.addEventListener('scroll', scrolled, { passive: true });
  return {
    keep(row) {
      kept = row;
      show();
    },
    again,
    stop() {
      sizes.disconnect();
      box.removeEventListener('scroll', scrolled);
    },
  };
}

/** What a visitor taps: what "More below" must never page past half shown. */
const CONTROLS = 'button, input, select, textarea, a[href], [tabindex]:not([tabindex="-1"])';

/**
 * Scrolls `box` on by a page: the "More below" button (see pageStep). A control in a form field
 * counts as its whole field where that fits, so a Confirm comes into view with the value it
 * confirms.
 */
export function pageDown(box: HTMLElement): void {
  const panel = box.getBoundingClientRect();
  const shown = { top: panel.top + box.clientTop, bottom: panel.top + box.clientTop + box.clientHeight };
  const room = box.clientHeight - 2 * MARGIN_PX;
  const edges = (control: Element): Edges => {
    const field = control.closest('[data-field]');
    const row = field && box.contains(field) ? field.getBoundingClientRect() : null;
    return row && row.height <= room ? row : control.getBoundingClientRect();
  };
  box.scrollBy({ top: pageStep(shown, Array.from(box.querySelectorAll(CONTROLS), edges)) });
}
