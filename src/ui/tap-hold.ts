// A tap on a screen that has just changed under the finger: dropped before the button sees it,
// and shown as seen so the visitor knows to tap again (issue 31 point 13).

import type { Timers } from '../ports/timers.ts';

/**
 * Drops a click on a button that acts on the step (marked data-held, and disabled while the
 * screen settles) made before `heldUntil`, before the button sees it. It goes by when the finger
 * touched (the event's timeStamp), not by when a busy page got round to it: by then the hold may
 * have ended and the tap would act on the new screen. The button shows the tap was seen (a ring,
 * data-tap-seen in kiosk.css, until a little after the hold) and `mark` notes vk:tap-held.
 */
export function dropHeldTap(e: Event, heldUntil: number, mark: (name: string) => void, timers: Timers): void {
  if (e.timeStamp >= heldUntil) return;
  // Only the buttons that act on the step are held (data-held); Start over, Change and typing are not.
  const button = e.target instanceof Element ? e.target.closest<HTMLElement>('button[data-held]') : null;
  if (!button) return;
  e.stopPropagation();
  e.preventDefault();
  button.dataset['tapSeen'] = '';
  mark('vk:tap-held');
  timers.schedule(Math.max(0, heldUntil - performance.now()) + 300, () => delete button.dataset['tapSeen']);
}
