import type { Amr } from './second-factor';

/** Who a protected request acts as, once the check of docs/contract.md, "Authentication of protected routes" has passed. */
export interface Principal {
  readonly tenantId: string;
  readonly userId: string;
  readonly role: string;
  readonly method: 'jwt' | 'api_key';
  /** The session the bearer token names (its `sid`); absent for an API key and for a token without one. */
  readonly sessionId?: string | undefined;
  /**
   * How the caller authenticated (domain/second-factor.ts): a token's `amr` claim, `["pwd"]` for a
   * token without one, `["api_key"]` for an API key. Authenticate always sets it.
   */
  readonly amr?: readonly Amr[] | undefined;
  /**
   * A session that used no second factor in a tenant that requires one (the token's `mfa_enroll`
   * claim): only routes declared `enrollment` admit it.
   */
  readonly enrollmentOnly?: boolean | undefined;
}
