import { normalizeEmail } from '../../domain/email';
import { ScimUserNameImmutable } from '../../domain/errors';
import { assertLeavesActiveOwner } from '../../domain/membership';
import { type AuditTrail, type RequestOrigin, SCIM_ACTOR, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import { suspendMemberIn, type SuspensionDeps } from '../members/member-suspension';
import type { UnitOfWork } from '../ports/unit-of-work';
import type { ScimCaller } from './scim-caller';
import { lockScimMember, type ScimMember, scimMemberOrThrow } from './scim-members';

export interface SetScimUserActiveDeps extends SuspensionDeps {
  readonly unitOfWork: UnitOfWork;
  readonly trail: AuditTrail;
}

export interface ScimUserChange {
  readonly active: boolean;
  /** A PUT's userName: it must be the member's address (it is never changed over SCIM). */
  readonly userName?: string | undefined;
}

/**
 * PATCH and PUT /Users/:id: `active: false` suspends the member (suspendMemberIn: sessions ended,
 * tokens and keys refused on the next request everywhere), `active: true` lifts it; asking for the
 * state the member is in changes and records nothing. The tenant's last owner who is not suspended
 * cannot be suspended.
 */
export class SetScimUserActive {
  constructor(private readonly deps: SetScimUserActiveDeps) {}

  async execute(caller: ScimCaller, memberId: string, change: ScimUserChange, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<ScimMember> {
    const { unitOfWork, trail } = this.deps;
    const by = { tenantId: caller.tenantId, actor: SCIM_ACTOR };
    return unitOfWork.run(async (tx) => {
      const member = await lockScimMember(tx, caller, memberId);
      const { user } = member;
      if (change.userName !== undefined && normalizeEmail(change.userName) !== user.email) throw new ScimUserNameImmutable();
      const suspended = member.suspendedAt !== null;
      if (change.active === !suspended) return member;
      if (change.active) {
        await tx.users.restore(caller.tenantId, user.id);
      } else {
        assertLeavesActiveOwner({ role: user.role, suspended }, await tx.users.countOwners(caller.tenantId));
        await suspendMemberIn(tx, this.deps, by, user.id, origin);
      }
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: caller.tenantId, actor: SCIM_ACTOR, action: change.active ? 'scim.user_restored' : 'scim.user_suspended', targetId: user.id,
        details: { email: user.email },
      }));
      return scimMemberOrThrow(tx, caller.tenantId, user.id);
    });
  }
}
