import type { Amr } from '../../domain/second-factor';

export interface TokenClaims {
  readonly tenantId: string;
  readonly userId: string;
  readonly email: string;
  readonly role: string;
  /**
   * The user's auth version when the token was issued. Undefined only for a token issued before
   * tokens carried one; Authenticate decides what such a token is worth.
   */
  readonly authVersion?: number | undefined;
  /** The session the token belongs to (the JWT's `sid`). Absent in tokens of the contract's own claims only. */
  readonly sessionId?: string | undefined;
  /** How the session was authenticated (the JWT's `amr`); absent in older tokens and tokens without a session. */
  readonly amr?: readonly Amr[] | undefined;
  /**
   * A sign-in that used no second factor in a tenant that requires one (the JWT's `mfa_enroll`):
   * the token opens only the routes that enroll a factor. Absent otherwise.
   */
  readonly enrollmentOnly?: true | undefined;
}

export interface TokenService {
  /** The lifetime as the contract writes it in responses (`24h`). */
  readonly expiresIn: string;
  issue(claims: TokenClaims): string;
  /** The claims of a valid, unexpired token; null for anything else (never a throw). */
  verify(token: string): TokenClaims | null;
  /** When a token `verify` accepts stops being valid; null for a token it would refuse. */
  expiresAt(token: string): Date | null;
}
