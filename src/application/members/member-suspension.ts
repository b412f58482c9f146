import type { RequestOrigin } from '../audit/audit-trail';
import type { Clock } from '../ports/clock';
import type { Repositories } from '../ports/repositories';
import type { SessionBook } from '../sessions/session-book';
import type { MemberChangeBy } from './membership-transaction';

export interface SuspensionDeps {
  readonly clock: Clock;
  readonly sessions: SessionBook;
}

/**
 * Suspends a member inside the caller's unit of work, after its rules were checked: the row is
 * marked (which raises the auth version: every token issued before is refused, and the storage
 * announces the change to every instance and verifier) and every live session is ended. Keys,
 * factors and the address stay; the keys are refused while the suspension lasts. False, changing
 * nothing, when the member was suspended already.
 */
export async function suspendMemberIn(tx: Repositories, deps: SuspensionDeps, by: MemberChangeBy, userId: string, origin: RequestOrigin): Promise<boolean> {
  if (!(await tx.users.suspend(by.tenantId, userId, deps.clock.now()))) return false;
  await deps.sessions.endAll(tx, { tenantId: by.tenantId, userId }, by.actor, 'suspension', origin);
  return true;
}
