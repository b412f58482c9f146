import { InvalidToken, RecentAuthenticationRequired } from '../../domain/errors';
import type { Principal } from '../../domain/principal';
import type { Clock } from '../ports/clock';
import type { CredentialStates } from '../ports/credential-states';

export interface RequireRecentAuthenticationDeps {
  readonly credentials: Pick<CredentialStates, 'session'>;
  readonly clock: Clock;
  readonly reauthWindowSeconds: number;
}

/**
 * The check of a route declared `recentAuth` (ASVS V7.5.1): the caller's session proved its password
 * within the reauthentication window, at sign-in or by POST /reauthenticate. Read from storage, not
 * from memory, since a renewal on another instance is no credential change. An API key or a token
 * without a session proves nothing of when its holder last gave a password, and is refused alike.
 */
export class RequireRecentAuthentication {
  constructor(private readonly deps: RequireRecentAuthenticationDeps) {}

  async execute(caller: Principal): Promise<void> {
    const { sessionId } = caller;
    if (caller.method !== 'jwt' || sessionId === undefined) throw new RecentAuthenticationRequired();
    const session = await this.deps.credentials.session(caller.tenantId, sessionId, true);
    if (!session || session.userId !== caller.userId) throw new InvalidToken();
    const age = this.deps.clock.now().getTime() - session.authenticatedAt.getTime();
    if (age > this.deps.reauthWindowSeconds * 1000) throw new RecentAuthenticationRequired();
  }
}
