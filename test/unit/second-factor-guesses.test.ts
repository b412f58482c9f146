import { MemoryLoginThrottle } from '../../src/adapters/rate-limit/memory-login-throttle';
import { SECOND_FACTOR_FAILURES } from '../../src/bootstrap/assemble';
import { TestClock } from '../../src/testing/test-clock';

/**
 * The figures scripts/bench/totp-sign-in.ts prints for an attacker who holds a member's password
 * and guesses codes: the throttle of wrong second-factor proofs, as configured, lets through 40 an
 * hour from many addresses, 20 from one, and never more than 50 in any one hour.
 */
describe('codes an attacker may try per member, under SECOND_FACTOR_FAILURES', () => {
  const ACCOUNT = 'second-factor:tenant:user';

  /** Tries once a second from `start` for `seconds`, from `address(i)`; the times (s) let through. */
  async function guessing(throttle: MemoryLoginThrottle, clock: TestClock, seconds: number, address: (i: number) => string): Promise<number[]> {
    const allowed: number[] = [];
    for (let i = 0; i < seconds; i += 1) {
      if ((await throttle.recordAttempt({ accountKey: ACCOUNT, clientAddress: address(i) })).allowed) allowed.push(i);
      clock.advance({ seconds: 1 });
    }
    return allowed;
  }

  const mostInAnHour = (times: number[]) => Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + 3600).length));

  // V6.3.1: brute force of the second factor is bounded per member by the throttle.
  it('lets 40 an hour through from many addresses, and at most 50 in any one hour, even when the member opened the window (V6.3.1)', async () => {
    const clock = new TestClock(new Date(0));
    const throttle = new MemoryLoginThrottle(SECOND_FACTOR_FAILURES, clock);
    const fourHours = await guessing(throttle, clock, 4 * 3600, (i) => `198.51.100.${i % 250}`);
    expect(fourHours.length).toBe(160);
    expect(mostInAnHour(fourHours)).toBeLessThanOrEqual(50);

    // The worst case: the member's own sign-in opens a window and, succeeding, gives its count back;
    // the attacker spends all ten at its end, then every window after it.
    const other = new TestClock(new Date(0));
    const worst = new MemoryLoginThrottle(SECOND_FACTOR_FAILURES, other);
    const member = { accountKey: ACCOUNT, clientAddress: '203.0.113.1' };
    await worst.recordAttempt(member);
    await worst.recordSuccess(member);
    other.advance({ seconds: 890 });
    const hour = await guessing(worst, other, 3600, (i) => `198.51.100.${i % 250}`);
    expect(hour.length).toBe(50);
  });

  it('lets 20 an hour through from one address', async () => {
    const clock = new TestClock(new Date(0));
    const throttle = new MemoryLoginThrottle(SECOND_FACTOR_FAILURES, clock);
    expect((await guessing(throttle, clock, 4 * 3600, () => '198.51.100.7')).length).toBe(80);
  });
});
