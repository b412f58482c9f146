import { assertMayChangeRole } from '../../domain/membership';
import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast, type Role } from '../../domain/role';
import { type MemberSummary, memberSummary } from './list-members';
import { lockMembership, memberIdOrThrow, revokeInvitesOutranking } from './membership-transaction';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { Postbox } from '../mail/postbox';
import type { Clock } from '../ports/clock';
import type { UnitOfWork } from '../ports/unit-of-work';

export interface ChangeMemberRoleDeps {
  readonly unitOfWork: UnitOfWork;
  readonly trail: AuditTrail;
  readonly clock: Clock;
  /** Where the "your role was changed" notice goes. */
  readonly postbox: Postbox;
}

/**
 * Sets a member's role under the tenant's membership lock. A real change ends the member's
 * sessions (their tokens carry the old role) and, in the same transaction, revokes the pending
 * invites they sent for a role above the new one, and tells the member by e-mail; setting the role a member already has changes nothing.
 * Callers may change their own role by the same rules (an owner may step down while another owner remains).
 */
export class ChangeMemberRole {
  constructor(private readonly deps: ChangeMemberRoleDeps) {}

  async execute(caller: Principal, memberId: string, role: Role, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<MemberSummary> {
    assertRoleAtLeast(caller.role, 'admin');
    const targetId = memberIdOrThrow(memberId);
    const target = await this.deps.unitOfWork.run(async (tx) => {
      const locked = await lockMembership(tx, caller, targetId);
      assertMayChangeRole(locked.change, role);
      if (locked.target.role === role) return locked.target;
      // The member's row first: work still holding the member's old role (an invite being made)
      // commits before this goes on, so the revocation below sees what it wrote.
      await tx.users.changeRole(caller.tenantId, targetId, role);
      const invitesRevoked = await revokeInvitesOutranking(tx, this.deps.trail, origin, { tenantId: caller.tenantId, actor: caller }, targetId, role);
      await tx.auditEvents.append(this.deps.trail.event(origin, {
        tenantId: caller.tenantId,
        actor: caller,
        action: 'member.role_changed',
        targetId,
        details: { from: locked.target.role, to: role, invites_revoked: invitesRevoked },
      }));
      const tenant = await tx.tenants.findById(caller.tenantId);
      if (tenant) {
        await this.deps.postbox.post(tx, {
          tenantId: caller.tenantId, userId: targetId,
          mail: {
            kind: 'role-changed',
            input: { to: locked.target.email, tenantName: tenant.name, oldRole: locked.target.role, newRole: role, changedAt: this.deps.clock.now().toISOString() },
          },
        }, origin);
      }
      return { ...locked.target, role };
    });
    return memberSummary(target);
  }
}
