// The screen wake lock: held during a visit, let go on the idle screen, asked for again when the
// page comes back into view after the browser dropped it, and nothing at all where the browser
// has no wake lock or refuses one.

import { describe, expect, it } from 'vitest';
import { ScreenWakeLock, type VisibilitySource, type WakeLockApi, type WakeLockSentinelLike } from '../../src/pwa/wake-lock.ts';

class FakeSentinel implements WakeLockSentinelLike {
  released = false;
  private listeners: (() => void)[] = [];
  addEventListener(_type: 'release', listener: () => void): void {
    this.listeners.push(listener);
  }
  release(): Promise<void> {
    if (!this.released) {
      this.released = true;
      for (const l of this.listeners) l();
    }
    return Promise.resolve();
  }
}

class FakeWakeLock implements WakeLockApi {
  sentinels: FakeSentinel[] = [];
  refuse = false;
  request(): Promise<WakeLockSentinelLike> {
    if (this.refuse) return Promise.reject(new DOMException('battery saver', 'NotAllowedError'));
    const s = new FakeSentinel();
    this.sentinels.push(s);
    return Promise.resolve(s);
  }
  get held(): number {
    return this.sentinels.filter((s) => !s.released).length;
  }
}

class FakePage implements VisibilitySource {
  visibilityState: VisibilitySource['visibilityState'] = 'visible';
  private listeners: (() => void)[] = [];
  addEventListener(_type: 'visibilitychange', listener: () => void): void {
    this.listeners.push(listener);
  }
  show(state: VisibilitySource['visibilityState']): void {
    this.visibilityState = state;
    for (const l of this.listeners) l();
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('ScreenWakeLock', () => {
  it('holds the lock during a visit and lets it go on the idle screen', async () => {
    const api = new FakeWakeLock();
    const states: string[] = [];
    const lock = new ScreenWakeLock(api, new FakePage(), (s) => states.push(s));
    await lock.want(true);
    expect(api.held).toBe(1);
    await lock.want(true); // a second start asks for nothing more
    expect(api.sentinels).toHaveLength(1);
    await lock.want(false);
    expect(api.held).toBe(0);
    expect(states).toEqual(['held', 'off']);
  });

  it('asks again when the page comes back into view after the browser dropped the lock', async () => {
    const api = new FakeWakeLock();
    const page = new FakePage();
    const lock = new ScreenWakeLock(api, page);
    await lock.want(true);
    page.show('hidden');
    await api.sentinels[0]!.release(); // what the browser does to a hidden page
    expect(lock.state).toBe('off');
    page.show('visible');
    await settle();
    expect(lock.state).toBe('held');
    expect(api.sentinels).toHaveLength(2);
  });

  it('does not ask on coming back into view when no visit runs', async () => {
    const api = new FakeWakeLock();
    const page = new FakePage();
    new ScreenWakeLock(api, page);
    page.show('visible');
    await settle();
    expect(api.sentinels).toHaveLength(0);
  });

  it('lets go of a lock granted after the visit already ended', async () => {
    const api = new FakeWakeLock();
    const lock = new ScreenWakeLock(api, new FakePage());
    const asking = lock.want(true);
    await lock.want(false);
    await asking;
    expect(api.held).toBe(0);
    expect(lock.state).toBe('off');
  });

  it('goes on without a lock where the browser refuses one or has none', async () => {
    const api = new FakeWakeLock();
    api.refuse = true;
    const refused = new ScreenWakeLock(api, new FakePage());
    await refused.want(true);
    expect(refused.state).toBe('refused');
    await refused.want(false);
    expect(refused.state).toBe('off');

    const none = new ScreenWakeLock(null, new FakePage());
    await none.want(true);
    expect(none.state).toBe('unavailable');
  });
});
