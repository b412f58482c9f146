import type { Clock } from '../application/ports/clock';

export interface Duration {
  readonly days?: number;
  readonly hours?: number;
  readonly minutes?: number;
  readonly seconds?: number;
}

const SECOND_MS = 1_000;

function millisecondsOf(duration: Duration): number {
  const { days = 0, hours = 0, minutes = 0, seconds = 0 } = duration;
  return (((days * 24 + hours) * 60 + minutes) * 60 + seconds) * SECOND_MS;
}

/**
 * The kit's clock: it stands still until a test moves it. Every use-case and the protected group
 * read the time from it (invite and API key expiry, the audit trail, login throttling), so a test
 * reaches "a week later" in one call instead of waiting. Bearer tokens are the exception: their
 * 24-hour lifetime is checked by the JWT library against the machine's time.
 */
export class TestClock implements Clock {
  private current: number;

  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  /** Moves time forward (never back: a negative duration is refused). */
  advance(duration: Duration): Date {
    const ms = millisecondsOf(duration);
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('the test clock only moves forward');
    this.current += ms;
    return this.now();
  }

  /**
   * Runs `work` as if it were `duration` ago, then puts the clock back where it was: how the kit
   * makes a thing in the past (a key that expired yesterday) through the ordinary use-cases.
   */
  async whileAgo<T>(duration: Duration, work: () => Promise<T>): Promise<T> {
    const ms = millisecondsOf(duration);
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('whileAgo takes a positive duration');
    const saved = this.current;
    this.current = saved - ms;
    try {
      return await work();
    } finally {
      this.current = saved;
    }
  }
}
