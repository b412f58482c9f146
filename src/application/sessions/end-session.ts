import { SessionNotFound } from '../../domain/errors';
import { isUuid } from '../../domain/ids';
import type { Principal } from '../../domain/principal';
import { type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { EndingSessionsDeps } from './session-book';

/**
 * DELETE /sessions/:id: the caller ends one of their own live sessions (ASVS V7.4.3, V7.5.2). Any
 * other id (another member's, another tenant's, ended, malformed) is one answer: not found.
 */
export class EndSession {
  constructor(private readonly deps: EndingSessionsDeps) {}

  async execute(caller: Principal, sessionId: string, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<void> {
    if (!isUuid(sessionId)) throw new SessionNotFound();
    const id = sessionId.toLowerCase();
    const ended = await this.deps.unitOfWork.run((tx) => this.deps.book.end(tx, caller, id, caller, 'user', origin));
    if (!ended) throw new SessionNotFound();
  }
}
