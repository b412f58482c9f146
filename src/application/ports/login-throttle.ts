/**
 * How many failed logins are allowed, and in what window (LOGIN_FAILURE_* settings). Two counts,
 * both per account: one per client address, so that an attacker elsewhere cannot lock the account's
 * owner out, and a higher one over every address, against guesses spread over many addresses. A
 * known device has a count of its own, with `limit`, instead of both.
 */
export interface LoginFailurePolicy {
  /** Attempts per account from one client address (an IPv6 client: its /56) within the window. */
  readonly limit: number;
  /** Attempts per account from all addresses together within the window; above `limit`. */
  readonly accountLimit: number;
  readonly windowSeconds: number;
}

/** The throttle's answer for one login attempt. */
export type ThrottleDecision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly retryAfterSeconds: number };

/** One attempt: the account it names and where it came from. */
export interface LoginAttempt {
  /** An opaque account key (the use-case passes a SHA-256 of the normalised e-mail). */
  readonly accountKey: string;
  /** The client's address as the driving adapter saw it; undefined counts as one unknown address. */
  readonly clientAddress: string | undefined;
  /**
   * The id of a known device (its proof verified for this account, DeviceProofs): the attempt is
   * counted against that device's own allowance (`limit` per window) and not against the address's
   * nor the account-wide counts, so failures from elsewhere never lock the device out.
   */
  readonly device?: string | undefined;
}

/**
 * Limits login attempts per account and client address, and per account over every address, so
 * that guesses spread over many addresses still get few tries while one attacker cannot lock the
 * account's owner out from another address. Accounts are named by an opaque key: an adapter never
 * sees, let alone stores, an e-mail address.
 *
 * Counting is in fixed windows: the first attempt opens a window of the configured length, and the
 * window's count starts again only when it ends (a blocked attempt does not extend it). An attempt
 * refused by its address's count is not counted over every address, so one address cannot use up
 * the account's ceiling.
 *
 * There is deliberately no separate "check" before "record a failure": between the two, a parallel
 * burst would all pass the check before any failure was counted. Instead every attempt is counted
 * first, atomically, and a success takes itself back, so what is left counted is failures.
 */
export interface LoginThrottle {
  /**
   * Counts one attempt and says, in the same atomic step, whether it may go on: allowed while the
   * attempts in the current windows (this one included) are within both limits; otherwise refused
   * with the whole seconds (at least 1) until the window that refused it ends.
   * Throws LoginThrottleUnavailable when the counters cannot be reached: never an "allowed".
   */
  recordAttempt(attempt: LoginAttempt): Promise<ThrottleDecision>;
  /**
   * After a successful login: forgets the failures of this account from this address, and takes
   * this attempt back from the count over every address (failures from elsewhere stay counted); for
   * a known device's attempt, forgets that device's failures only.
   * An attempt with no count is not an error. Throws LoginThrottleUnavailable when the counters
   * cannot be reached.
   */
  recordSuccess(attempt: LoginAttempt): Promise<void>;
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
