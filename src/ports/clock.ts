// The clock port: the only way time enters the engine. Real time in the kiosk, virtual in tests.

export interface Clock {
  /** milliseconds since some fixed origin */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told to: for tests, `vfdl test` and benchmarks. */
export class VirtualClock implements Clock {
  constructor(private t = 0) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}
