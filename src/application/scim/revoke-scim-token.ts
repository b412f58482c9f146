import { ScimTokenNotFound } from '../../domain/errors';
import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast } from '../../domain/role';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import { holdCaller } from '../authentication/hold-caller';
import type { UnitOfWork } from '../ports/unit-of-work';

export interface RevokeScimTokenDeps {
  readonly unitOfWork: UnitOfWork;
  readonly trail: AuditTrail;
}

/** DELETE /sso/scim-token: the owner drops the tenant's SCIM token; the identity provider is refused from the next request. */
export class RevokeScimToken {
  constructor(private readonly deps: RevokeScimTokenDeps) {}

  async execute(caller: Principal, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<void> {
    assertRoleAtLeast(caller.role, 'owner');
    await this.deps.unitOfWork.run(async (tx) => {
      await holdCaller(tx.users, caller, 'owner');
      if (!(await tx.scimTokens.remove(caller.tenantId))) throw new ScimTokenNotFound();
      await tx.auditEvents.append(this.deps.trail.event(origin, {
        tenantId: caller.tenantId, actor: caller, action: 'scim.token_revoked', targetId: caller.tenantId,
      }));
    });
  }
}
