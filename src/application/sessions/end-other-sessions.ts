import type { Principal } from '../../domain/principal';
import { type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { EndingSessionsDeps } from './session-book';

/**
 * DELETE /sessions: the caller ends every live session of theirs but the one their token names
 * (ASVS V7.4.3); by an API key or a token without a session, every one. Returns how many ended.
 */
export class EndOtherSessions {
  constructor(private readonly deps: EndingSessionsDeps) {}

  async execute(caller: Principal, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<number> {
    return this.deps.unitOfWork.run((tx) => this.deps.book.endAll(tx, caller, caller, 'user', origin, caller.sessionId));
  }
}
