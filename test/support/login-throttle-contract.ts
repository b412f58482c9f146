import type { LoginAttempt, LoginFailurePolicy, LoginThrottle } from '../../src/application/ports/login-throttle';

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

const HOME = '192.0.2.10';
const ELSEWHERE = '198.51.100.20';

async function attempts(throttle: LoginThrottle, attempt: LoginAttempt, times: number): Promise<boolean[]> {
  const allowed: boolean[] = [];
  for (let i = 0; i < times; i += 1) allowed.push((await throttle.recordAttempt(attempt)).allowed);
  return allowed;
}

/**
 * The LoginThrottle port's contract, run over every adapter (memory, Redis). Windows are short so
 * the Redis run can wait for real expiry. Unless a case is about the ceiling over every address,
 * it is high enough not to matter.
 */
export function loginThrottleContract(backend: () => ThrottleBackend): void {
  it('allows `limit` attempts from one address in a window, then refuses with the seconds left', async () => {
    const throttle = backend().make({ limit: 3, accountLimit: 100, windowSeconds: 60 });
    const from = { accountKey: accountKey(), clientAddress: HOME };
    expect(await attempts(throttle, from, 3)).toEqual([true, true, true]);
    const refused = await throttle.recordAttempt(from);
    expect(refused.allowed).toBe(false);
    if (refused.allowed) return;
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it('counts each account on its own', async () => {
    const throttle = backend().make({ limit: 2, accountLimit: 100, windowSeconds: 60 });
    const [a, b] = [{ accountKey: accountKey(), clientAddress: HOME }, { accountKey: accountKey(), clientAddress: HOME }];
    await attempts(throttle, a, 3);
    expect(await attempts(throttle, b, 2)).toEqual([true, true]);
    expect((await throttle.recordAttempt(a)).allowed).toBe(false);
  });

  it("counts each client address on its own: one address's failures do not lock the account elsewhere", async () => {
    const throttle = backend().make({ limit: 2, accountLimit: 100, windowSeconds: 60 });
    const key = accountKey();
    expect(await attempts(throttle, { accountKey: key, clientAddress: ELSEWHERE }, 5)).toEqual([true, true, false, false, false]);
    expect(await attempts(throttle, { accountKey: key, clientAddress: HOME }, 2)).toEqual([true, true]);
    // An unknown address is one address of its own.
    expect(await attempts(throttle, { accountKey: key, clientAddress: undefined }, 3)).toEqual([true, true, false]);
  });

  it('counts an IPv6 client by its /56, so rotating through its own subnet gains nothing', async () => {
    const throttle = backend().make({ limit: 2, accountLimit: 100, windowSeconds: 60 });
    const key = accountKey();
    const rotated = ['2001:db8:0:1::1', '2001:db8:0:2::7', '2001:db8:0:ff::1'].map((clientAddress) => ({ accountKey: key, clientAddress }));
    expect([
      ...(await attempts(throttle, rotated[0]!, 1)), ...(await attempts(throttle, rotated[1]!, 1)), ...(await attempts(throttle, rotated[2]!, 1)),
    ]).toEqual([true, true, false]);
    expect(await attempts(throttle, { accountKey: key, clientAddress: '2001:db8:0:100::1' }, 1)).toEqual([true]);
  });

  it('refuses every address past the ceiling over all of them, without counting what one address was already refused', async () => {
    const throttle = backend().make({ limit: 2, accountLimit: 5, windowSeconds: 60 });
    const key = accountKey();
    // One address hammering: 2 allowed, the rest refused by its own count and not charged to the ceiling.
    expect(await attempts(throttle, { accountKey: key, clientAddress: '203.0.113.1' }, 10)).toEqual([true, true, ...Array(8).fill(false)]);
    expect(await attempts(throttle, { accountKey: key, clientAddress: '203.0.113.2' }, 2)).toEqual([true, true]);
    expect(await attempts(throttle, { accountKey: key, clientAddress: '203.0.113.3' }, 1)).toEqual([true]);
    // Five attempts counted over every address: the sixth is refused, from a fresh address too.
    const refused = await throttle.recordAttempt({ accountKey: key, clientAddress: '203.0.113.4' });
    expect(refused.allowed).toBe(false);
    if (!refused.allowed) expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(59);
  });

  it("a success forgets that address's failures and takes itself back from the ceiling; other addresses' failures stay", async () => {
    const throttle = backend().make({ limit: 3, accountLimit: 5, windowSeconds: 60 });
    const key = accountKey();
    const home = { accountKey: key, clientAddress: HOME };
    const elsewhere = { accountKey: key, clientAddress: ELSEWHERE };
    await attempts(throttle, home, 2);
    await attempts(throttle, elsewhere, 2);
    expect((await throttle.recordAttempt(home)).allowed).toBe(true); // the right password: 5 counted
    await throttle.recordSuccess(home); // 4 counted: the 2 failures from elsewhere, 2 from home
    // Home's own count starts again, but the ceiling still holds the 4: one more attempt, then refused.
    expect(await attempts(throttle, home, 2)).toEqual([true, false]);
    await expect(throttle.recordSuccess({ accountKey: accountKey(), clientAddress: HOME })).resolves.toBeUndefined();
  });

  it('lets many successes in a row through: only failures stay counted', async () => {
    const throttle = backend().make({ limit: 2, accountLimit: 3, windowSeconds: 60 });
    const from = { accountKey: accountKey(), clientAddress: HOME };
    for (let i = 0; i < 8; i += 1) {
      expect((await throttle.recordAttempt(from)).allowed).toBe(true);
      await throttle.recordSuccess(from);
    }
  });

  it('opens a fresh window once the current one has ended', async () => {
    const { make, advanceSeconds } = backend();
    const throttle = make({ limit: 2, accountLimit: 100, windowSeconds: 1 });
    const from = { accountKey: accountKey(), clientAddress: HOME };
    expect(await attempts(throttle, from, 3)).toEqual([true, true, false]);
    await advanceSeconds(1.2);
    expect(await attempts(throttle, from, 3)).toEqual([true, true, false]);
  });

  it('keeps the window fixed: refused attempts do not push its end back', async () => {
    const { make, advanceSeconds } = backend();
    const throttle = make({ limit: 1, accountLimit: 100, windowSeconds: 2 });
    const from = { accountKey: accountKey(), clientAddress: HOME };
    await throttle.recordAttempt(from);
    await advanceSeconds(1);
    expect((await throttle.recordAttempt(from)).allowed).toBe(false);
    await advanceSeconds(1.2); // 2.2 s after the window opened, 1.2 s after the refused attempt
    expect((await throttle.recordAttempt(from)).allowed).toBe(true);
  });

  // ASVS 5.0 V6.3.1 (and V6.1.1: no malicious lockout): a device that signed in before keeps its own allowance.
  it("gives a known device its own allowance: failures from every address, up to the ceiling, do not lock it out", async () => {
    const throttle = backend().make({ limit: 2, accountLimit: 3, windowSeconds: 60 });
    const key = accountKey();
    const device = { accountKey: key, clientAddress: ELSEWHERE, device: 'device-a' };
    // Spread guessing fills the ceiling over every address: any attempt without a device is refused.
    for (const clientAddress of ['203.0.113.1', '203.0.113.2']) await attempts(throttle, { accountKey: key, clientAddress }, 2);
    expect((await throttle.recordAttempt({ accountKey: key, clientAddress: HOME })).allowed).toBe(false);
    // The device, from any address, is counted on its own: `limit` attempts, then refused with the seconds left.
    expect(await attempts(throttle, device, 2)).toEqual([true, true]);
    const refused = await throttle.recordAttempt({ ...device, clientAddress: HOME });
    expect(refused.allowed).toBe(false);
    if (!refused.allowed) expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(59);
    // Another device of the same account has its own count, and another account's device with the same id too.
    expect(await attempts(throttle, { ...device, device: 'device-b' }, 1)).toEqual([true]);
    expect(await attempts(throttle, { accountKey: accountKey(), clientAddress: HOME, device: 'device-a' }, 1)).toEqual([true]);
  });

  it("does not charge a known device's attempts to its address or the ceiling, and its success forgets only its own failures", async () => {
    const throttle = backend().make({ limit: 2, accountLimit: 3, windowSeconds: 60 });
    const key = accountKey();
    const device = { accountKey: key, clientAddress: HOME, device: 'device-a' };
    await attempts(throttle, device, 1);
    expect(await attempts(throttle, device, 1)).toEqual([true]);
    await throttle.recordSuccess(device);
    expect(await attempts(throttle, device, 3)).toEqual([true, true, false]);
    // The same address without the device, and the ceiling, saw none of it.
    expect(await attempts(throttle, { accountKey: key, clientAddress: HOME }, 3)).toEqual([true, true, false]);
    expect(await attempts(throttle, { accountKey: key, clientAddress: ELSEWHERE }, 2)).toEqual([true, false]);
    // A device's success leaves the ceiling's count of the others' failures as it was.
    await throttle.recordSuccess({ ...device, device: 'device-b' });
    expect(await attempts(throttle, { accountKey: key, clientAddress: '203.0.113.9' }, 1)).toEqual([false]);
  });

  it("opens a fresh window for a known device once its window has ended", async () => {
    const { make, advanceSeconds } = backend();
    const throttle = make({ limit: 1, accountLimit: 100, windowSeconds: 1 });
    const device = { accountKey: accountKey(), clientAddress: HOME, device: 'device-a' };
    expect(await attempts(throttle, device, 2)).toEqual([true, false]);
    await advanceSeconds(1.2);
    expect(await attempts(throttle, device, 2)).toEqual([true, false]);
  });

  it('lets exactly `limit` of a parallel burst from one known device through', async () => {
    const throttle = backend().make({ limit: 5, accountLimit: 12, windowSeconds: 60 });
    const key = accountKey();
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => throttle.recordAttempt({ accountKey: key, clientAddress: `198.18.1.${i}`, device: 'stolen' })));
    expect(burst.filter((d) => d.allowed)).toHaveLength(5);
  });

  it('lets exactly `limit` of a parallel burst from one address through, and exactly the ceiling of one from many', async () => {
    const throttle = backend().make({ limit: 5, accountLimit: 12, windowSeconds: 60 });
    const from = { accountKey: accountKey(), clientAddress: HOME };
    const one = await Promise.all(Array.from({ length: 40 }, () => throttle.recordAttempt(from)));
    expect(one.filter((d) => d.allowed)).toHaveLength(5);
    const key = accountKey();
    const many = await Promise.all(Array.from({ length: 40 }, (_, i) => throttle.recordAttempt({ accountKey: key, clientAddress: `198.18.0.${i}` })));
    expect(many.filter((d) => d.allowed)).toHaveLength(12);
  });
}
