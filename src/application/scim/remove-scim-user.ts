import { assertLeavesActiveOwner } from '../../domain/membership';
import { type RequestOrigin, SCIM_ACTOR, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import { type MemberRemovalDeps, removeMemberIn } from '../members/member-removal';
import type { UnitOfWork } from '../ports/unit-of-work';
import type { ScimCaller } from './scim-caller';
import { lockScimMember } from './scim-members';

export interface RemoveScimUserDeps extends MemberRemovalDeps {
  readonly unitOfWork: UnitOfWork;
}

/**
 * DELETE /Users/:id: removes the member exactly as DELETE /members/:id does (removeMemberIn: keys
 * revoked, sessions ended, invites revoked, the notice sent), recorded as SCIM's doing. The tenant's
 * last owner who is not suspended cannot be removed.
 */
export class RemoveScimUser {
  constructor(private readonly deps: RemoveScimUserDeps) {}

  async execute(caller: ScimCaller, memberId: string, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<void> {
    await this.deps.unitOfWork.run(async (tx) => {
      const { user, suspendedAt } = await lockScimMember(tx, caller, memberId);
      assertLeavesActiveOwner({ role: user.role, suspended: suspendedAt !== null }, await tx.users.countOwners(caller.tenantId));
      await removeMemberIn(tx, this.deps, { tenantId: caller.tenantId, actor: SCIM_ACTOR }, user, 'scim.user_removed', origin);
    });
  }
}
