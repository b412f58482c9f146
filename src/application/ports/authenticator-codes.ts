/**
 * Authenticator-app codes (TOTP, RFC 6238): SHA-1, six digits, 30-second steps. The secret is the
 * base32 text an app is given.
 */
export interface AuthenticatorCodes {
  /** A new random shared secret (160 bits), base32. */
  newSecret(): string;
  /** The otpauth:// URI an app reads (from a QR code): the issuer and the account's label. */
  uri(secret: string, issuer: string, account: string): string;
  /** The step of `code` if it is right at `at` or one step either side of it; null otherwise. */
  matchingStep(secret: string, code: string, at: Date): number | null;
}
