import type { Clock } from '../../application/ports/clock';
import type { LoginAttempt, LoginFailurePolicy, LoginThrottle, ThrottleDecision } from '../../application/ports/login-throttle';
import { throttleClient } from './throttle-client';

interface Window {
  count: number;
  readonly endsAt: number;
}

/** Past this many keys in open windows (of each kind), the window closest to its end is dropped. */
export const DEFAULT_MAX_TRACKED_ACCOUNTS = 100_000;

/**
 * Fixed windows of one length, by key, in memory that stays bounded. Every call first drops the
 * windows that have ended; since every window has the same length, a Map in insertion order is
 * also in order of ending, so that is a walk from the front that stops at the first open window
 * (amortised O(1)). Past `maxKeys` the window closest to its end is dropped.
 */
class FixedWindows {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly windowMs: number, private readonly maxKeys: number) {}

  get size(): number {
    return this.windows.size;
  }

  /** The key's window (opened now if it has none), after dropping those that have ended. */
  open(key: string, now: number): Window {
    this.dropEnded(now);
    let window = this.windows.get(key);
    if (!window) {
      window = { count: 0, endsAt: now + this.windowMs };
      this.windows.set(key, window); // at the end: it ends last
      if (this.windows.size > this.maxKeys) this.dropOldest();
    }
    return window;
  }

  find(key: string, now: number): Window | undefined {
    this.dropEnded(now);
    return this.windows.get(key);
  }

  delete(key: string): void {
    this.windows.delete(key);
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

/**
 * The login throttle in this process's memory: right for one instance (and for tests); several
 * instances need the Redis adapter, or each would allow the limits on its own.
 *
 * Unknown e-mails are counted too, so an attacker could still fill memory with fresh addresses
 * within one window: past `maxTrackedAccounts` keys of a kind, the window closest to its end is
 * dropped. That can hand one account a fresh count, but only after `maxTrackedAccounts` others were
 * tried, which the per-address limits make slow; refusing every login instead would hand the
 * attacker a denial of service.
 */
export class MemoryLoginThrottle implements LoginThrottle {
  /** Per account and client address. */
  private readonly fromClient: FixedWindows;
  /** Per account, over every address. */
  private readonly overall: FixedWindows;
  /** Per account and known device, instead of the other two. */
  private readonly fromDevice: FixedWindows;

  constructor(
    private readonly policy: LoginFailurePolicy,
    private readonly clock: Clock,
    maxTrackedAccounts: number = DEFAULT_MAX_TRACKED_ACCOUNTS,
  ) {
    const windowMs = policy.windowSeconds * 1000;
    this.fromClient = new FixedWindows(windowMs, maxTrackedAccounts);
    this.overall = new FixedWindows(windowMs, maxTrackedAccounts);
    this.fromDevice = new FixedWindows(windowMs, maxTrackedAccounts);
  }

  /** Accounts with an open window: for tests and metrics. */
  get trackedAccounts(): number {
    return this.overall.size;
  }

  async recordAttempt(attempt: LoginAttempt): Promise<ThrottleDecision> {
    const now = this.clock.now().getTime();
    if (attempt.device !== undefined) {
      const fromDevice = this.fromDevice.open(deviceKey(attempt, attempt.device), now);
      fromDevice.count += 1;
      return fromDevice.count > this.policy.limit ? refused(fromDevice, now) : { allowed: true };
    }
    const fromClient = this.fromClient.open(pairKey(attempt), now);
    fromClient.count += 1;
    if (fromClient.count > this.policy.limit) return refused(fromClient, now);
    const overall = this.overall.open(attempt.accountKey, now);
    overall.count += 1;
    if (overall.count > this.policy.accountLimit) return refused(overall, now);
    return { allowed: true };
  }

  async recordSuccess(attempt: LoginAttempt): Promise<void> {
    if (attempt.device !== undefined) {
      this.fromDevice.delete(deviceKey(attempt, attempt.device));
      return;
    }
    const now = this.clock.now().getTime();
    this.fromClient.delete(pairKey(attempt));
    const overall = this.overall.find(attempt.accountKey, now);
    if (overall && overall.count > 0) overall.count -= 1;
  }
}

function pairKey(attempt: LoginAttempt): string {
  return `${attempt.accountKey}:${throttleClient(attempt.clientAddress)}`;
}

function deviceKey(attempt: LoginAttempt, device: string): string {
  return `${attempt.accountKey}:device:${device}`;
}

function refused(window: Window, now: number): ThrottleDecision {
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.endsAt - now) / 1000)) };
}
