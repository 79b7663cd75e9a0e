// Whether what a visitor or staff must read is on screen: wholly inside the box that shows it (the
// step's scrolling body, the captions, the operator panel, the screen itself), and not under
// another part fixed over it. Polled: a box scrolls and settles after what it shows changes.

import { expect, type Locator, type Page } from '@playwright/test';

interface Edges {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

async function edgesOf(target: Locator | Page): Promise<Edges | null> {
  if ('goto' in target) {
    const size = target.viewportSize();
    return size ? { top: 0, left: 0, bottom: size.height, right: size.width } : null;
  }
  const box = await target.boundingBox();
  return box ? { top: box.y, left: box.x, bottom: box.y + box.height, right: box.x + box.width } : null;
}

/** What of `inner` lies outside `outer`, in words ('' when it is wholly inside, within a pixel). */
async function outside(inner: Locator, outer: Locator | Page): Promise<string> {
  const [a, b] = [await edgesOf(inner), await edgesOf(outer)];
  if (!a || !b) return 'not laid out';
  const cut: string[] = [];
  if (a.top < b.top - 1) cut.push(`${Math.round(b.top - a.top)} px above`);
  if (a.bottom > b.bottom + 1) cut.push(`${Math.round(a.bottom - b.bottom)} px below`);
  if (a.left < b.left - 1) cut.push(`${Math.round(b.left - a.left)} px to the left`);
  if (a.right > b.right + 1) cut.push(`${Math.round(a.right - b.right)} px to the right`);
  return cut.join(', ');
}

/** Whether `target` is wholly inside the step's scrolling body now. */
export async function inView(page: Page, target: Locator): Promise<boolean> {
  return (await outside(target, page.locator('.step-body'))) === '';
}

/** `inner` is wholly inside `outer` (a box, or the page's viewport): nothing of it is cut off. */
export async function expectWhollyIn(inner: Locator, outer: Locator | Page, what: string): Promise<void> {
  await expect.poll(() => outside(inner, outer), { message: `${what}: cut off` }).toBe('');
}

/** `a` and `b` do not overlap: neither hides part of the other. */
export async function expectApart(a: Locator, b: Locator, what: string): Promise<void> {
  const overlap = async () => {
    const [x, y] = [await edgesOf(a), await edgesOf(b)];
    if (!x || !y) return 'not laid out';
    const high = Math.min(x.bottom, y.bottom) - Math.max(x.top, y.top);
    const wide = Math.min(x.right, y.right) - Math.max(x.left, y.left);
    return high > 1 && wide > 1 ? `${Math.round(wide)}×${Math.round(high)} px overlap` : '';
  };
  await expect.poll(overlap, { message: `${what}: overlapping` }).toBe('');
}
