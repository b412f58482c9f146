/** A proof handed to a client after it signed in: the value it sends back, and when it stops counting. */
export interface DeviceProof {
  /** What the client keeps and sends back (`v1.<device id>.<expiry>.<signature>`). */
  readonly value: string;
  /** The random id of the device, named by the proof. */
  readonly deviceId: string;
  readonly expiresAt: Date;
}

/**
 * Proofs that a client has signed in to an account before (a "known device"), so the login throttle
 * can give that device an allowance of its own that failures from elsewhere do not use up. A proof
 * is bound to one account by its opaque key (the SHA-256 the throttle uses, never an address) and
 * carries no secret of the account: holding one buys a device's allowance of guesses, no more.
 */
export interface DeviceProofs {
  /** A proof for the account: for the device named, when refreshing its proof, or for a new random device. */
  issue(accountKey: string, deviceId?: string): DeviceProof;
  /**
   * The device id of a proof this service signed for this account and that has not expired; null
   * for anything else (malformed, tampered, expired, another account's, signed with a key no longer held).
   */
  verify(value: string, accountKey: string): string | null;
}
