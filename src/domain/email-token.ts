/**
 * A token sent by e-mail that proves its holder reads one address: a password reset, an address's
 * verification, or the confirmation of a new address; and, never sent by e-mail, a sign-in's
 * mfa_token between the password and the second factor (`mfa_sign_in`), held by the client, and the
 * one-time code that hands a session started by single sign-on to the console (`sso_handoff`).
 * The link carries 32 random bytes as 64 lower-case hex; only their SHA-256 is stored. Each is used once, expires on the service's clock,
 * and a newer one of the same purpose for the same member voids the older.
 */
export const EMAIL_TOKEN_PURPOSES = ['password_reset', 'email_verify', 'email_change', 'mfa_sign_in', 'sso_handoff'] as const;
export type EmailTokenPurpose = (typeof EMAIL_TOKEN_PURPOSES)[number];

/** The random part of a link's token, in bytes; hex doubles it. */
export const EMAIL_TOKEN_BYTES = 32;

export interface EmailToken {
  readonly id: string;
  readonly tenantId: string;
  readonly userId: string;
  readonly purpose: EmailTokenPurpose;
  /** SHA-256 of the token, lower-case hex. */
  readonly tokenHash: string;
  /** The address the token was sent to: a token for an address the member no longer has proves nothing. */
  readonly email: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  /** Set when the token was used, or voided by a newer one or by a password change. */
  readonly usedAt: Date | null;
}

/** What a link may carry: anything else is answered as an unknown token, without a lookup. */
export function isWellFormedEmailToken(token: unknown): token is string {
  return typeof token === 'string' && /^[0-9a-f]{64}$/.test(token);
}

export function isUsable(token: EmailToken, now: Date): boolean {
  return token.usedAt === null && token.expiresAt.getTime() > now.getTime();
}
