import { assertMayRemove } from '../../domain/membership';
import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast } from '../../domain/role';
import { lockMembership, memberIdOrThrow } from './membership-transaction';
import { type MemberRemovalDeps, removeMemberIn } from './member-removal';
import { type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { UnitOfWork } from '../ports/unit-of-work';

export interface RemoveMemberDeps extends MemberRemovalDeps {
  readonly unitOfWork: UnitOfWork;
}

/**
 * Removes a member, ends their sessions and revokes their API keys and pending invites in the same transaction. The user's row is kept,
 * marked removed (their keys and the invites they sent still name it); the e-mail is free again.
 * Members may remove themselves, the last owner excepted. The member is told by e-mail, at the
 * address they had, in the same unit of work.
 */
export class RemoveMember {
  constructor(private readonly deps: RemoveMemberDeps) {}

  async execute(caller: Principal, memberId: string, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<void> {
    assertRoleAtLeast(caller.role, 'admin');
    const targetId = memberIdOrThrow(memberId);
    await this.deps.unitOfWork.run(async (tx) => {
      const locked = await lockMembership(tx, caller, targetId);
      assertMayRemove(locked.change);
      await removeMemberIn(tx, this.deps, { tenantId: caller.tenantId, actor: caller }, locked.target, 'member.removed', origin);
    });
  }
}
