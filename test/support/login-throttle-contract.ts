import type { LoginFailurePolicy, LoginThrottle } from '../../src/application/ports/login-throttle';

export interface ThrottleBackend {
  /** A throttle with that policy, over counters no other test sees. */
  make(policy: LoginFailurePolicy): LoginThrottle;
  /** Lets that much time pass for the throttle: a manual clock, or real waiting for Redis's expiry. */
  advanceSeconds(seconds: number): Promise<void>;
}

let counter = 0;
/** An account key as Login makes them: 64 hex characters, one per test. */
function accountKey(): string {
  counter += 1;
  return `${process.pid}-${counter}`.padStart(64, '0');
}

async function attempts(throttle: LoginThrottle, key: string, times: number): Promise<boolean[]> {
  const allowed: boolean[] = [];
  for (let i = 0; i < times; i += 1) allowed.push((await throttle.recordAttempt(key)).allowed);
  return allowed;
}

/**
 * The LoginThrottle port's contract, run over every adapter (memory, Redis). Windows are short so
 * the Redis run can wait for real expiry.
 */
export function loginThrottleContract(backend: () => ThrottleBackend): void {
  it('allows `limit` attempts in a window, then refuses with the seconds left', async () => {
    const throttle = backend().make({ limit: 3, windowSeconds: 60 });
    const key = accountKey();
    expect(await attempts(throttle, key, 3)).toEqual([true, true, true]);
    const refused = await throttle.recordAttempt(key);
    expect(refused.allowed).toBe(false);
    if (refused.allowed) return;
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it('counts each account on its own', async () => {
    const throttle = backend().make({ limit: 2, windowSeconds: 60 });
    const [a, b] = [accountKey(), accountKey()];
    await attempts(throttle, a, 3);
    expect(await attempts(throttle, b, 2)).toEqual([true, true]);
    expect((await throttle.recordAttempt(a)).allowed).toBe(false);
  });

  it('forgets an account on reset, and a reset of an unknown account is no error', async () => {
    const throttle = backend().make({ limit: 2, windowSeconds: 60 });
    const key = accountKey();
    await attempts(throttle, key, 3);
    await throttle.reset(key);
    expect(await attempts(throttle, key, 3)).toEqual([true, true, false]);
    await expect(throttle.reset(accountKey())).resolves.toBeUndefined();
  });

  it('opens a fresh window once the current one has ended', async () => {
    const { make, advanceSeconds } = backend();
    const throttle = make({ limit: 2, windowSeconds: 1 });
    const key = accountKey();
    expect(await attempts(throttle, key, 3)).toEqual([true, true, false]);
    await advanceSeconds(1.2);
    expect(await attempts(throttle, key, 3)).toEqual([true, true, false]);
  });

  it('keeps the window fixed: refused attempts do not push its end back', async () => {
    const { make, advanceSeconds } = backend();
    const throttle = make({ limit: 1, windowSeconds: 2 });
    const key = accountKey();
    await throttle.recordAttempt(key);
    await advanceSeconds(1);
    expect((await throttle.recordAttempt(key)).allowed).toBe(false);
    await advanceSeconds(1.2); // 2.2 s after the window opened, 1.2 s after the refused attempt
    expect((await throttle.recordAttempt(key)).allowed).toBe(true);
  });

  it('lets exactly `limit` of a parallel burst through', async () => {
    const throttle = backend().make({ limit: 5, windowSeconds: 60 });
    const key = accountKey();
    const decisions = await Promise.all(Array.from({ length: 40 }, () => throttle.recordAttempt(key)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
  });
}
