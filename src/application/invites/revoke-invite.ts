import { InviteNotFound } from '../../domain/errors';
import { isUuid } from '../../domain/ids';
import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast } from '../../domain/role';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { UnitOfWork } from '../ports/unit-of-work';

export interface RevokeInviteDeps {
  readonly unitOfWork: UnitOfWork;
  readonly trail: AuditTrail;
}

/** Deletes an unaccepted invite of the caller's tenant; expiry is not checked (docs/contract.md, "Routes": DELETE /invites/:id). */
export class RevokeInvite {
  constructor(private readonly deps: RevokeInviteDeps) {}

  async execute(caller: Principal, inviteId: string, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<void> {
    assertRoleAtLeast(caller.role, 'admin');
    // UUIDs are case-insensitive; ids are stored in lowercase, so every backend matches alike.
    if (!isUuid(inviteId)) throw new InviteNotFound();
    const id = inviteId.toLowerCase();
    const deleted = await this.deps.unitOfWork.run(async (tx) => {
      if (!(await tx.invites.deleteUnaccepted(caller.tenantId, id))) return false;
      await tx.auditEvents.append(this.deps.trail.event(origin, {
        tenantId: caller.tenantId, actor: caller, action: 'invite.revoked', targetId: id,
      }));
      return true;
    });
    if (!deleted) throw new InviteNotFound();
  }
}
