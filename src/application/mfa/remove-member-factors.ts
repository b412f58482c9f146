import { OwnerRoleRequired, SecondFactorNotEnrolled } from '../../domain/errors';
import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast } from '../../domain/role';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { Postbox } from '../mail/postbox';
import { lockMembership, memberIdOrThrow } from '../members/membership-transaction';
import type { Clock } from '../ports/clock';
import type { UnitOfWork } from '../ports/unit-of-work';
import type { SessionBook } from '../sessions/session-book';
import { postFactorNotice } from './factor-notices';
import type { SecondFactors } from './second-factors';

export interface RemoveMemberFactorsDeps {
  readonly unitOfWork: UnitOfWork;
  readonly factors: SecondFactors;
  readonly sessions: SessionBook;
  readonly clock: Clock;
  readonly trail: AuditTrail;
  readonly postbox: Postbox;
}

/**
 * DELETE /members/:id/mfa (admin or owner, recent authentication): a member who lost every factor
 * gets back in. Every factor of theirs goes (SecondFactors.removeAll: each kind registered), every
 * session of theirs ends, they are told by e-mail, and the trail records `mfa.removed` with the
 * caller as actor, all in one unit of work. An owner's factors only an owner may remove (ASVS V6.4.3).
 */
export class RemoveMemberFactors {
  constructor(private readonly deps: RemoveMemberFactorsDeps) {}

  async execute(caller: Principal, memberId: string, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<void> {
    assertRoleAtLeast(caller.role, 'admin');
    const targetId = memberIdOrThrow(memberId);
    const { unitOfWork, factors, sessions, clock, trail } = this.deps;
    await unitOfWork.run(async (tx) => {
      const locked = await lockMembership(tx, caller, targetId);
      if (locked.change.targetRole === 'owner' && locked.change.callerRole !== 'owner') throw new OwnerRoleRequired();
      const owner = { tenantId: caller.tenantId, userId: targetId };
      const removed = await factors.removeAll(tx, owner);
      if (removed === 0) throw new SecondFactorNotEnrolled();
      const ended = await sessions.endAll(tx, owner, caller, 'admin', origin);
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: caller.tenantId, actor: caller, action: 'mfa.removed', targetId,
        details: { method: 'all', factors_removed: removed, sessions_ended: ended },
      }));
      await postFactorNotice(this.deps.postbox, tx, owner, { kind: 'removed', byAdmin: true }, 'all', clock.now(), origin);
    });
  }
}
