import { assertMayRemove } from '../../domain/membership';
import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast } from '../../domain/role';
import { lockMembership, memberIdOrThrow, revokeInvitesOutranking } from './membership-transaction';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { Postbox } from '../mail/postbox';
import type { Clock } from '../ports/clock';
import type { UnitOfWork } from '../ports/unit-of-work';
import type { SessionBook } from '../sessions/session-book';

export interface RemoveMemberDeps {
  readonly unitOfWork: UnitOfWork;
  readonly clock: Clock;
  readonly trail: AuditTrail;
  /** Where the "you were removed" notice goes. */
  readonly postbox: Postbox;
  readonly sessions: SessionBook;
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
      // The member's row first: work still holding the member (a key or an invite being made)
      // commits before this goes on, so the revocations below see what it wrote.
      const now = this.deps.clock.now();
      await tx.users.markRemoved(caller.tenantId, targetId, now);
      const keysRevoked = await tx.apiKeys.revokeAllOf(caller.tenantId, targetId);
      await this.deps.sessions.endAll(tx, { tenantId: caller.tenantId, userId: targetId }, caller, 'removal', origin);
      const invitesRevoked = await revokeInvitesOutranking(tx, this.deps.trail, origin, caller, targetId, null);
      await tx.auditEvents.append(this.deps.trail.event(origin, {
        tenantId: caller.tenantId,
        actor: caller,
        action: 'member.removed',
        targetId,
        // The address too: once removed, the member is in no list that could name the id.
        details: { email: locked.target.email, role: locked.target.role, api_keys_revoked: keysRevoked, invites_revoked: invitesRevoked },
      }));
      const tenant = await tx.tenants.findById(caller.tenantId);
      if (tenant) {
        await this.deps.postbox.post(tx, {
          tenantId: caller.tenantId, userId: targetId,
          mail: { kind: 'member-removed', input: { to: locked.target.email, tenantName: tenant.name, removedAt: now.toISOString() } },
        }, origin);
      }
    });
  }
}
