import { InvalidCredentials, InvalidToken, NoSessionToRenew } from '../../domain/errors';
import type { Principal } from '../../domain/principal';
import { type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import { callerGone } from '../authentication/caller-gone';
import { proveOwnPassword } from '../passwords/throttled-password-check';
import type { Clock } from '../ports/clock';
import type { LoginThrottle } from '../ports/login-throttle';
import type { PasswordHasher } from '../ports/password-hasher';
import type { Repositories } from '../ports/repositories';
import type { Secrets } from '../ports/secrets';

export interface ReauthenticateDeps {
  readonly repos: Pick<Repositories, 'users' | 'sessions'>;
  readonly hasher: PasswordHasher;
  readonly secrets: Secrets;
  readonly throttle: LoginThrottle;
  readonly clock: Clock;
  readonly reauthWindowSeconds: number;
}

/**
 * POST /reauthenticate: the caller proves their password again, and the session their token names
 * counts as recently authenticated for the reauthentication window (ASVS V7.5.1). The password is
 * checked through the login throttle, counted per account and address as /login counts it, so a
 * stolen token cannot guess faster than a login could. Only a session can be renewed.
 */
export class Reauthenticate {
  constructor(private readonly deps: ReauthenticateDeps) {}

  /** Returns until when the session counts as recently authenticated. */
  async execute(caller: Principal, password: string, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<Date> {
    const { repos, hasher, secrets, throttle, clock, reauthWindowSeconds } = this.deps;
    const { sessionId } = caller;
    if (caller.method !== 'jwt' || sessionId === undefined) throw new NoSessionToRenew();
    const user = await repos.users.findById(caller.tenantId, caller.userId);
    if (!user) throw callerGone(caller);

    await proveOwnPassword({ hasher, secrets, throttle }, user, password, origin, () => new InvalidCredentials());

    const now = clock.now();
    // Ended since the request was authenticated: the token no longer stands.
    if (!(await repos.sessions.renewAuthentication(caller.tenantId, caller.userId, sessionId, now))) throw new InvalidToken();
    return new Date(now.getTime() + reauthWindowSeconds * 1000);
  }
}
