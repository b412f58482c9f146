import { assertMayEndSessions } from '../../domain/membership';
import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast } from '../../domain/role';
import { type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import { lockMembership, memberIdOrThrow } from '../members/membership-transaction';
import type { EndingSessionsDeps } from './session-book';

/**
 * DELETE /members/:id/sessions: an admin ends every session of a member of their tenant (ASVS
 * V7.4.5); an owner's only an owner, as for a role change or a removal, decided under the tenant's
 * membership lock on what the caller is now. Returns how many ended.
 */
export class EndMemberSessions {
  constructor(private readonly deps: EndingSessionsDeps) {}

  async execute(caller: Principal, memberId: string, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<number> {
    assertRoleAtLeast(caller.role, 'admin');
    const targetId = memberIdOrThrow(memberId);
    return this.deps.unitOfWork.run(async (tx) => {
      const locked = await lockMembership(tx, caller, targetId);
      assertMayEndSessions(locked.change);
      return this.deps.book.endAll(tx, { tenantId: caller.tenantId, userId: targetId }, caller, 'admin', origin);
    });
  }
}
