import { ApiKeyNotFound, OwnerKeyRequiresOwner } from '../../domain/errors';
import { isUuid } from '../../domain/ids';
import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast } from '../../domain/role';
import { holdCaller } from '../authentication/hold-caller';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { UnitOfWork } from '../ports/unit-of-work';

export interface RevokeApiKeyDeps {
  readonly unitOfWork: UnitOfWork;
  readonly trail: AuditTrail;
}

/**
 * Revokes a key of the caller's tenant; the record stays. Revoking a revoked key again is not an
 * error, and records nothing: no event without a change. Only an owner revokes a key whose creator
 * is an owner (the rule for members, applied to the credentials that act as them); an admin revokes
 * any other key.
 */
export class RevokeApiKey {
  constructor(private readonly deps: RevokeApiKeyDeps) {}

  async execute(caller: Principal, keyId: string, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<void> {
    assertRoleAtLeast(caller.role, 'admin');
    if (!isUuid(keyId)) throw new ApiKeyNotFound();
    const id = keyId.toLowerCase();
    // In a unit of work so that the revocation and its event commit together.
    const outcome = await this.deps.unitOfWork.run(async (tx) => {
      const callerRole = await holdCaller(tx.users, caller, 'admin');
      const key = await tx.apiKeys.findById(caller.tenantId, id);
      if (!key) return 'not_found' as const;
      // The key acts with its creator's current role: an owner's key is an owner's credential.
      if (callerRole !== 'owner' && (await tx.users.findById(caller.tenantId, key.userId))?.role === 'owner') {
        throw new OwnerKeyRequiresOwner();
      }
      const revocation = await tx.apiKeys.revoke(caller.tenantId, id);
      if (revocation === 'revoked') {
        await tx.auditEvents.append(this.deps.trail.event(origin, {
          // The prefix and name, so the trail says which key in words, as api_key.created does.
          tenantId: caller.tenantId, actor: caller, action: 'api_key.revoked', targetId: id, details: { prefix: key.keyPrefix, name: key.name },
        }));
      }
      return revocation;
    });
    if (outcome === 'not_found') throw new ApiKeyNotFound();
  }
}
