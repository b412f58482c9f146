import type { Clock } from '../../application/ports/clock';
import type { LoginFailurePolicy, LoginThrottle, ThrottleDecision } from '../../application/ports/login-throttle';

interface Window {
  count: number;
  readonly endsAt: number;
}

/** Past this many accounts in open windows, the window closest to its end is dropped. */
export const DEFAULT_MAX_TRACKED_ACCOUNTS = 100_000;

/**
 * The per-account login throttle in this process's memory: right for one instance (and for tests);
 * several instances need the Redis adapter, or each would allow the limit on its own.
 *
 * Memory stays bounded. Every attempt first drops the windows that have ended; since every window has
 * the same length, a Map in insertion order is also in order of ending, so that is a walk from the
 * front that stops at the first open window (amortised O(1)). Unknown e-mails are counted too, so an
 * attacker could still fill memory with fresh addresses within one window: past `maxTrackedAccounts`
 * the window closest to its end is dropped. That can hand one account a fresh count, but only after
 * `maxTrackedAccounts` other accounts were tried, which the per-address limits make slow; refusing
 * every login instead would hand the attacker a denial of service.
 */
export class MemoryLoginThrottle implements LoginThrottle {
  private readonly windows = new Map<string, Window>();
  private readonly windowMs: number;

  constructor(
    private readonly policy: LoginFailurePolicy,
    private readonly clock: Clock,
    private readonly maxTrackedAccounts: number = DEFAULT_MAX_TRACKED_ACCOUNTS,
  ) {
    this.windowMs = policy.windowSeconds * 1000;
  }

  /** Accounts with an open window: for tests and metrics. */
  get trackedAccounts(): number {
    return this.windows.size;
  }

  async recordAttempt(accountKey: string): Promise<ThrottleDecision> {
    const now = this.clock.now().getTime();
    this.dropEnded(now);
    let window = this.windows.get(accountKey);
    if (!window) {
      window = { count: 0, endsAt: now + this.windowMs };
      this.windows.set(accountKey, window); // at the end: it ends last
      if (this.windows.size > this.maxTrackedAccounts) this.dropOldest();
    }
    window.count += 1;
    if (window.count <= this.policy.limit) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.endsAt - now) / 1000)) };
  }

  async reset(accountKey: string): Promise<void> {
    this.windows.delete(accountKey);
  }

  private dropEnded(now: number): void {
    for (const [key, window] of this.windows) {
      if (window.endsAt > now) return;
      this.windows.delete(key);
    }
  }

  private dropOldest(): void {
    const oldest = this.windows.keys().next();
    if (!oldest.done) this.windows.delete(oldest.value);
  }
}
