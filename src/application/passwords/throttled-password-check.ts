import { TooManyFailedLogins } from '../../domain/errors';
import type { User } from '../../domain/user';
import type { RequestOrigin } from '../audit/audit-trail';
import type { LoginThrottle } from '../ports/login-throttle';
import type { PasswordHasher } from '../ports/password-hasher';
import type { Secrets } from '../ports/secrets';

export interface ThrottledPasswordCheckDeps {
  readonly hasher: PasswordHasher;
  readonly secrets: Secrets;
  readonly throttle: LoginThrottle;
}

/**
 * A signed-in member proving their password (to change it, to change their address, to renew a
 * session's recent authentication): counted by the login throttle per account and address, as a
 * login is, so a stolen token cannot guess faster than a login could (ASVS V6.3.1). Throws
 * TooManyFailedLogins when throttled, `wrong()` when the password does not match; a success takes
 * its attempt back.
 */
export async function proveOwnPassword(
  deps: ThrottledPasswordCheckDeps, user: Pick<User, 'email' | 'passwordHash'>, password: string, origin: RequestOrigin, wrong: () => Error,
): Promise<void> {
  const attempt = { accountKey: deps.secrets.sha256Hex(user.email), clientAddress: origin.clientAddress };
  const decision = await deps.throttle.recordAttempt(attempt);
  if (!decision.allowed) throw new TooManyFailedLogins(decision.retryAfterSeconds);
  if (!(await deps.hasher.verify(password, user.passwordHash))) throw wrong();
  await deps.throttle.recordSuccess(attempt);
}
