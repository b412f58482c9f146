/** How many failed logins an account is allowed, and in what window (LOGIN_FAILURE_* settings). */
export interface LoginFailurePolicy {
  readonly limit: number;
  readonly windowSeconds: number;
}

/** The throttle's answer for one login attempt. */
export type ThrottleDecision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly retryAfterSeconds: number };

/**
 * Limits login attempts per account, whatever address they come from, so that guesses spread over
 * many addresses still get few tries. Accounts are named by an opaque key (the use-case passes a
 * SHA-256 of the normalised e-mail): an adapter never sees, let alone stores, an address.
 *
 * Counting is in fixed windows: the first attempt opens a window of the configured length, and the
 * window's count starts again only when it ends (a blocked attempt does not extend it).
 *
 * There is deliberately no separate "check" before "record a failure": between the two, a parallel
 * burst would all pass the check before any failure was counted. Instead every attempt is counted
 * first, atomically, and a success wipes the count, so what is left counted is failures.
 */
export interface LoginThrottle {
  /**
   * Counts one attempt for the account and says, in the same atomic step, whether it may go on:
   * allowed while the attempts in the current window (this one included) are at most the limit;
   * otherwise refused with the whole seconds (at least 1) until the window ends.
   * Throws LoginThrottleUnavailable when the counters cannot be reached: never an "allowed".
   */
  recordAttempt(accountKey: string): Promise<ThrottleDecision>;
  /**
   * Forgets the account's count, after a successful login. A key with no count is not an error.
   * Throws LoginThrottleUnavailable when the counters cannot be reached.
   */
  reset(accountKey: string): Promise<void>;
}

/**
 * The throttle's store failed or answered nonsense. Login then refuses (the HTTP adapter answers
 * 503): an unavailable throttle must never become an unthrottled login.
 */
export class LoginThrottleUnavailable extends Error {
  constructor(cause: unknown) {
    super('The login throttle is unavailable', { cause });
    this.name = 'LoginThrottleUnavailable';
  }
}
