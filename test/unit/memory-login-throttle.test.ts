import { MemoryLoginThrottle } from '../../src/adapters/rate-limit/memory-login-throttle';
import { loginThrottleContract } from '../support/login-throttle-contract';
import { TestClock } from '../../src/testing/test-clock';

const at = (accountKey: string) => ({ accountKey, clientAddress: '192.0.2.1' });

describe('MemoryLoginThrottle', () => {
  describe('the LoginThrottle contract', () => {
    loginThrottleContract(() => {
      const clock = new TestClock();
      return {
        make: (policy) => new MemoryLoginThrottle(policy, clock),
        advanceSeconds: async (seconds) => { clock.advance({ seconds }); },
      };
    });
  });

  it('counts down the seconds left as the window runs', async () => {
    const clock = new TestClock();
    const throttle = new MemoryLoginThrottle({ limit: 1, accountLimit: 10, windowSeconds: 900 }, clock);
    await throttle.recordAttempt(at('k'));
    clock.advance({ seconds: 600.5 });
    expect(await throttle.recordAttempt(at('k'))).toEqual({ allowed: false, retryAfterSeconds: 300 });
    clock.advance({ seconds: 299.4 }); // 0.1 s left: still "1", never "0"
    expect(await throttle.recordAttempt(at('k'))).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('drops ended windows, so memory holds only the accounts tried within one window', async () => {
    const clock = new TestClock();
    const throttle = new MemoryLoginThrottle({ limit: 10, accountLimit: 100, windowSeconds: 60 }, clock);
    for (let i = 0; i < 1000; i += 1) await throttle.recordAttempt(at(`old-${i}`));
    expect(throttle.trackedAccounts).toBe(1000);
    clock.advance({ seconds: 30 });
    for (let i = 0; i < 10; i += 1) await throttle.recordAttempt(at(`new-${i}`));
    expect(throttle.trackedAccounts).toBe(1010);
    clock.advance({ seconds: 31 }); // the old windows have ended, the new ones have not
    await throttle.recordAttempt(at('latest'));
    expect(throttle.trackedAccounts).toBe(11);
  });

  it('never tracks more than its cap: the window closest to its end makes room', async () => {
    const clock = new TestClock();
    const throttle = new MemoryLoginThrottle({ limit: 1, accountLimit: 10, windowSeconds: 60 }, clock, 3);
    for (const key of ['a', 'b', 'c']) await throttle.recordAttempt(at(key));
    await throttle.recordAttempt(at('d'));
    expect(throttle.trackedAccounts).toBe(3);
    expect((await throttle.recordAttempt(at('a'))).allowed).toBe(true); // 'a' was dropped: a fresh count
    expect((await throttle.recordAttempt(at('d'))).allowed).toBe(false);
  });
});
