/**
 * Second factors kept for a member: an authenticator app's secret (TOTP, RFC 6238) and recovery
 * codes. How a session was authenticated is its `amr` (RFC 8176's values where one fits).
 */

/**
 * Every value an `amr` may hold: password, authenticator code, recovery code, passkey, two factors
 * used, API key, and the tenant's identity provider (single sign-on).
 */
export const AMR_VALUES = ['pwd', 'otp', 'recovery_code', 'passkey', 'mfa', 'api_key', 'sso'] as const;
export type Amr = (typeof AMR_VALUES)[number];

/** What a session started by a password alone (and a token with a session but no `amr` claim) counts as. */
export const PASSWORD_AMR: readonly Amr[] = ['pwd'];

export function isAmrList(value: unknown): value is Amr[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string' && (AMR_VALUES as readonly string[]).includes(v));
}

/**
 * A member's authenticator app. `secret` is the encrypted shared secret as stored (never the plain
 * one). Pending until a first code confirms it (`confirmedAt`); `lastUsedStep` is the 30-second
 * step of the latest code accepted, so a code is accepted once.
 */
export interface TotpFactor {
  readonly id: string;
  readonly tenantId: string;
  readonly userId: string;
  readonly secret: string;
  readonly createdAt: Date;
  readonly confirmedAt: Date | null;
  readonly lastUsedStep: number | null;
}

/** One recovery code: only its SHA-256 is kept (each code carries 120 random bits). */
export interface RecoveryCode {
  readonly id: string;
  readonly tenantId: string;
  readonly userId: string;
  readonly codeHash: string;
  readonly createdAt: Date;
  readonly usedAt: Date | null;
}

/** How many recovery codes a set holds. */
export const RECOVERY_CODE_COUNT = 10;
/** Characters of a recovery code (RFC 4648 base32 alphabet, lower case), in groups of four: 24 × 5 = 120 bits. */
export const RECOVERY_CODE_CHARS = 24;

/** A recovery code as typed: case, spaces and dashes do not matter. Null when it cannot be one. */
export function normalizeRecoveryCode(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 64) return null;
  const plain = value.replace(/[\s-]/g, '').toLowerCase();
  return new RegExp(`^[a-z2-7]{${RECOVERY_CODE_CHARS}}$`).test(plain) ? plain : null;
}

/** A recovery code shown to its member: groups of four. */
export function formatRecoveryCode(plain: string): string {
  return plain.match(/.{1,4}/g)!.join('-');
}

/** What an authenticator app shows: six digits. */
export function isWellFormedTotpCode(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9]{6}$/.test(value);
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32 (lower case, no padding) of bytes given as hex: what recovery codes are made of. */
export function base32OfHex(hex: string): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (let i = 0; i < hex.length; i += 2) {
    value = (value << 8) | parseInt(hex.slice(i, i + 2), 16);
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** The amr of a sign-in that used a password and then `second`: both, and that two factors were used. */
export function passwordAnd(second: 'otp' | 'recovery_code' | 'passkey'): Amr[] {
  return ['pwd', second, 'mfa'];
}

/** A tenant's second-factor policy: `required` makes every sign-in without one an enrollment session. */
export const MFA_POLICIES = ['optional', 'required'] as const;
export type MfaPolicy = (typeof MFA_POLICIES)[number];

/** Whether a session of this amr used a second factor (two factors, or a passkey that verified its user). */
export function usedSecondFactor(amr: readonly Amr[]): boolean {
  return amr.includes('mfa');
}

/**
 * Whether a sign-in with this amr, in a tenant with this policy, opens only the enrollment routes:
 * under `required`, any sign-in that used no second factor.
 */
export function isEnrollmentOnly(policy: MfaPolicy, amr: readonly Amr[]): boolean {
  return policy === 'required' && !usedSecondFactor(amr);
}
