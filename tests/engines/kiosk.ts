// Driving the kiosk in an engine lane, as tests/e2e/support/kiosk.ts does in Chromium: open it,
// tap, type, and wait on what the kiosk signals (`data-phase`, `data-flow-state`,
// `data-settling`, `data-voice`), never on a fixed time.

import { waitFor, type EnginePage, type Target } from './engine.ts';

/** Waits until the kiosk's root element says `name="value"`. */
export async function kioskSays(page: EnginePage, name: string, value: string, timeout = 15_000): Promise<void> {
  await waitFor(page, `${name}="${value}"`, `({ name, value }) => document.querySelector('.kiosk')?.getAttribute(name) === value`, { name, value }, timeout);
}

/** Waits until the screen's buttons take taps (they are held for a moment after a screen changes). */
export async function settled(page: EnginePage): Promise<void> {
  await kioskSays(page, 'data-settling', 'false');
}

/** Waits until the flow is in `state` and its screen has settled. */
export async function expectStep(page: EnginePage, state: string, timeout = 15_000): Promise<void> {
  await kioskSays(page, 'data-flow-state', state, timeout);
  await settled(page);
}

/** Opens the kiosk at `base` with a query and waits for its idle screen. */
export async function openKiosk(page: EnginePage, base: string, query: Record<string, string> = {}): Promise<void> {
  await page.goto(`${base}/?${new URLSearchParams(query)}`);
  await kioskSays(page, 'data-phase', 'idle', 30_000);
  await settled(page);
}

/** Opens the kiosk and taps Start: the flow's first step is on screen and takes taps. */
export async function startVisit(page: EnginePage, base: string, query: Record<string, string> = {}): Promise<void> {
  await openKiosk(page, base, query);
  await page.tap({ name: 'Start' });
  await kioskSays(page, 'data-phase', 'running');
  await settled(page);
}

/** A button by its name. */
export const button = (name: string, partly = false): Target => ({ css: 'button', name, partly });

/** A field by its label. */
export const field = (name: string): Target => ({ css: 'input, select, textarea', name });

/** Types an answer into "Type your answer" and sends it with Enter, as a visitor would; waits until the box is empty again. */
export async function typeAnswer(page: EnginePage, text: string): Promise<void> {
  await page.type({ css: 'input#answer' }, text);
  await page.press('Enter');
  await waitFor(page, 'the answer box to empty', `() => document.querySelector('input#answer')?.value === ''`);
}

/** The texts of every element `css` matches, as shown (whitespace squashed). */
export function texts(page: EnginePage, css: string): Promise<string[]> {
  return page.evaluate<string[]>(`(css) => [...document.querySelectorAll(css)].map((e) => e.textContent.replace(/\\s+/g, ' ').trim())`, css);
}

/** Waits until field `id` (its `data-field`) has `status` (empty, pending, confirmed). */
export async function fieldIs(page: EnginePage, id: string, status: string): Promise<void> {
  await waitFor(page, `field ${id} ${status}`, `({ id, status }) => document.querySelector('[data-field="' + id + '"]')?.getAttribute('data-status') === status`, { id, status });
}

/** The value of the field labelled `label`. */
export function valueOf(page: EnginePage, label: string): Promise<string> {
  return page.evaluate<string>(`(label) => { const l = [...document.querySelectorAll('label')].find((l) => l.textContent.replace(/\\s*\\*$/, '').trim() === label); return document.getElementById(l?.htmlFor ?? '')?.value ?? null; }`, label);
}

/** The end screen's list of what the visitor takes away (the flow's show_at_end values): [label, value] pairs. */
export async function endSummary(page: EnginePage): Promise<[string, string][]> {
  await kioskSays(page, 'data-phase', 'ended');
  const labels = await texts(page, '.summary dt');
  const values = await texts(page, '.summary dd');
  return labels.map((l, i) => [l, values[i] ?? '']);
}
