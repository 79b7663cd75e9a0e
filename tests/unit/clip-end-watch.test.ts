// A spoken clip whose `ended` event never comes is ended by the watch: when the audio clock has
// passed the clip's end, or has stopped moving; never while the clock still runs inside the clip.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchClipEnd } from '../../src/adapters/openai/clip-end-watch.ts';

describe('watchClipEnd', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('ends a clip whose clock has run past its end', () => {
    let now = 10;
    const overdue = vi.fn();
    watchClipEnd({ clock: { now: () => now }, startedAt: 10, duration: 2, overdue });
    now = 11.9;
    vi.advanceTimersByTime(2000);
    expect(overdue).not.toHaveBeenCalled();
    now = 12.5;
    vi.advanceTimersByTime(500);
    expect(overdue).toHaveBeenCalledWith('played');
    expect(overdue).toHaveBeenCalledTimes(1);
  });

  it('waits while a lagging clock still moves through the clip', () => {
    let now = 0;
    const overdue = vi.fn();
    watchClipEnd({ clock: { now: () => now }, startedAt: 0, duration: 1, overdue });
    now = 0.3;
    vi.advanceTimersByTime(1000);
    for (const t of [0.5, 0.7, 0.9, 1.1]) {
      now = t;
      vi.advanceTimersByTime(500);
    }
    expect(overdue).not.toHaveBeenCalled();
    now = 1.3;
    vi.advanceTimersByTime(500);
    expect(overdue).toHaveBeenCalledWith('played');
  });

  it('ends a clip whose clock has stopped', () => {
    const overdue = vi.fn();
    watchClipEnd({ clock: { now: () => 4 }, startedAt: 3, duration: 2, overdue });
    vi.advanceTimersByTime(2000);
    expect(overdue).not.toHaveBeenCalled();
    vi.advanceTimersByTime(500);
    expect(overdue).toHaveBeenCalledWith('stalled');
  });

  it('does nothing once stopped, as when the ended event arrives', () => {
    const overdue = vi.fn();
    const unwatch = watchClipEnd({ clock: { now: () => 0 }, startedAt: 0, duration: 1, overdue });
    unwatch();
    vi.advanceTimersByTime(10_000);
    expect(overdue).not.toHaveBeenCalled();
  });
});
