// What the voice benchmark reads from the page: the `vk:*` performance marks with their details,
// how they pair with a fixture's lines and with each other, resource timing, and waits on the
// page's own clock.

import type { Page } from '@playwright/test';
import type { FixtureLine } from '../tests/support/audio-fixtures.ts';

/** One performance mark: its name, page time (ms since navigation) and detail. */
export interface Mark {
  name: string;
  at: number;
  detail: Record<string, unknown> | null;
}

/** Every `vk:` and `bench:` mark so far, in time order. */
export function readMarks(page: Page): Promise<Mark[]> {
  return page.evaluate(() =>
    performance
      .getEntriesByType('mark')
      .filter((m) => m.name.startsWith('vk:') || m.name.startsWith('bench:'))
      .map((m) => ({ name: m.name, at: m.startTime, detail: ((m as unknown as { detail?: unknown }).detail ?? null) as Record<string, unknown> | null }))
      .sort((a, b) => a.at - b.at),
  );
}

/** The marks of one name, in time order. */
export function named(marks: readonly Mark[], name: string): Mark[] {
  return marks.filter((m) => m.name === name);
}

/** A number from a mark's detail; throws when it is missing (the page recorded something else). */
export function detailMs(mark: Mark, key: string): number {
  const v = mark.detail?.[key];
  if (typeof v !== 'number') throw new Error(`${mark.name} at ${mark.at.toFixed(0)} ms has no detail.${key}`);
  return v;
}

/** Records the time of every tap (pointer-down) as `bench:tap`, at the event's own timestamp. */
export function markTaps(page: Page): Promise<void> {
  return page.evaluate(`document.addEventListener('pointerdown', (e) => performance.mark('bench:tap', { startTime: e.timeStamp }), { capture: true })`);
}

/** A spoken line of a fixture with the mark that ended it (if any). */
export interface LineEnd {
  line: FixtureLine;
  mark: Mark | null;
}

/**
 * Pairs each spoken line with the end marks by time: line i owns the marks between its true end
 * and the next line's true end (page time). `perLine` counts them: 0, the line was missed; 2 or
 * more, an extra segment ended there (a later line cut at a pause inside it lands in the window
 * before its end). `unowned`: marks from before the first line had ended. When every line owns
 * exactly one, this is the pairing by order, checked by time.
 */
export function pairEnds(
  lines: readonly FixtureLine[],
  ends: readonly Mark[],
  fileToPage: (fileMs: number) => number,
): { pairs: LineEnd[]; perLine: number[]; unowned: Mark[] } {
  const windows = lines.map((line, i) => ({ from: fileToPage(line.endMs), until: lines[i + 1] ? fileToPage(lines[i + 1]!.endMs) : Infinity }));
  const mine = windows.map((w) => ends.filter((m) => m.at >= w.from && m.at < w.until));
  return {
    pairs: lines.map((line, i) => ({ line, mark: mine[i]![0] ?? null })),
    perLine: mine.map((m) => m.length),
    unowned: ends.filter((m) => m.at < (windows[0]?.from ?? Infinity)),
  };
}

/** Each `start` mark with the first `end` mark at or after it and before the next start. */
export function followedBy(marks: readonly Mark[], start: string, end: string): { start: Mark; end: Mark | null }[] {
  const starts = named(marks, start);
  const ends = named(marks, end);
  return starts.map((s, i) => {
    const until = starts[i + 1]?.at ?? Infinity;
    return { start: s, end: ends.find((e) => e.at >= s.at && e.at < until) ?? null };
  });
}

/** One fetch the page made, from resource timing (the document's navigation entry included). */
export interface Fetched {
  url: string;
  /** bytes on the wire: headers and (possibly compressed) body */
  transferSize: number;
  encodedBodySize: number;
  decodedBodySize: number;
  startTime: number;
  responseEnd: number;
}

export function readResources(page: Page): Promise<Fetched[]> {
  return page.evaluate(() =>
    // Node's typings of `performance` (this runs in the page) do not know the 'navigation' type.
    [...performance.getEntriesByType('navigation' as 'resource'), ...performance.getEntriesByType('resource')].map((entry) => {
      const e = entry as unknown as Omit<Fetched, 'url'> & { name: string };
      return { url: e.name, transferSize: e.transferSize, encodedBodySize: e.encodedBodySize, decodedBodySize: e.decodedBodySize, startTime: e.startTime, responseEnd: e.responseEnd };
    }),
  );
}

/** Waits until the page's clock reaches `pageMs` (page time), polling. */
export async function untilPageTime(page: Page, pageMs: number): Promise<void> {
  for (;;) {
    const now = await page.evaluate(() => performance.now());
    if (now >= pageMs) return;
    await new Promise((r) => setTimeout(r, Math.min(500, pageMs - now + 5)));
  }
}

/** Waits for the first mark named `name` (after `count` earlier ones), or throws after `timeoutMs`. */
export async function waitForMark(page: Page, name: string, count = 1, timeoutMs = 20_000): Promise<void> {
  await page.waitForFunction(([n, c]) => performance.getEntriesByName(n as string, 'mark').length >= (c as number), [name, count] as const, { timeout: timeoutMs, polling: 50 });
}
