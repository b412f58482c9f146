import type { Role } from './roles';

/** Who a request acts as, once Portcullis has vouched for its credential. */
export interface Principal {
  readonly tenantId: string;
  readonly userId: string;
  /** The user's current role (for an API key, its owner's). A string: a newer Portcullis may add roles. */
  readonly role: Role | (string & {});
  readonly method: 'jwt' | 'api_key';
  /**
   * The Portcullis session a bearer token belongs to (its end refuses the token everywhere); absent
   * for an API key, and for a token issued without a session.
   */
  readonly sessionId?: string;
  /**
   * How the caller authenticated (RFC 8176 style, as Portcullis records it): `["pwd"]` for a
   * password, `["pwd", "otp", "mfa"]` with an authenticator app's code, `["passkey", "mfa"]` for a
   * passkey that verified its user, `["api_key"]` for an API key. `mfa` is present exactly when two
   * factors were used. Values are strings: a newer Portcullis may add some.
   */
  readonly amr: readonly string[];
}

const principals = new WeakMap<object, Principal>();

export function setPrincipal(req: object, principal: Principal): void {
  principals.set(req, principal);
}

/** The request's principal, or undefined when the portcullis middleware has not admitted it. */
export function principalIfAny(req: object): Principal | undefined {
  return principals.get(req);
}

/**
 * The request's principal. Throws when the portcullis middleware did not run before the handler:
 * that is a wiring mistake, and an error (500) is better than a handler that acts as nobody.
 */
export function principalOf(req: object): Principal {
  const principal = principals.get(req);
  if (!principal) throw new Error('No principal on this request: mount the portcullis middleware before this handler');
  return principal;
}
