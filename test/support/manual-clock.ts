import type { Clock } from '../../src/application/ports/clock';

/** A clock tests move by hand, to reach states such as an expired invite without waiting. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advanceSeconds(seconds: number): void {
    this.current += seconds * 1000;
  }
}
