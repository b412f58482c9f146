import { InvalidToken, NoSessionToEnd } from '../../domain/errors';
import type { Principal } from '../../domain/principal';
import { type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { EndingSessionsDeps } from './session-book';

/**
 * POST /logout: ends the session the caller's token names (ASVS V7.4.1); its tokens are refused from
 * the next request on every instance. An API key or a token without a session has none to end.
 */
export class Logout {
  constructor(private readonly deps: EndingSessionsDeps) {}

  async execute(caller: Principal, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<void> {
    const { sessionId } = caller;
    if (caller.method !== 'jwt' || sessionId === undefined) throw new NoSessionToEnd();
    const ended = await this.deps.unitOfWork.run((tx) => this.deps.book.end(tx, caller, sessionId, caller, 'logout', origin));
    // Ended by another request since this one was authenticated: the token no longer stands.
    if (!ended) throw new InvalidToken();
  }
}
