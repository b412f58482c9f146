import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast } from '../../domain/role';
import { SCIM_TOKEN_BYTES, SCIM_TOKEN_PREFIX } from '../../domain/scim';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import { holdCaller } from '../authentication/hold-caller';
import type { Clock } from '../ports/clock';
import type { Secrets } from '../ports/secrets';
import type { UnitOfWork } from '../ports/unit-of-work';

export interface CreateScimTokenDeps {
  readonly unitOfWork: UnitOfWork;
  readonly trail: AuditTrail;
  readonly secrets: Secrets;
  readonly clock: Clock;
}

export interface CreatedScimToken {
  /** The raw token: shown to the owner once, never stored. */
  readonly token: string;
  readonly createdAt: Date;
}

/** POST /sso/scim-token: the owner makes the tenant's SCIM token; any earlier one stops working in the same commit. */
export class CreateScimToken {
  constructor(private readonly deps: CreateScimTokenDeps) {}

  async execute(caller: Principal, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<CreatedScimToken> {
    assertRoleAtLeast(caller.role, 'owner');
    const { unitOfWork, trail, secrets, clock } = this.deps;
    const token = `${SCIM_TOKEN_PREFIX}${secrets.randomHex(SCIM_TOKEN_BYTES)}`;
    const createdAt = clock.now();
    await unitOfWork.run(async (tx) => {
      await holdCaller(tx.users, caller, 'owner');
      const replaced = (await tx.scimTokens.find(caller.tenantId)) !== null;
      await tx.scimTokens.replace({ tenantId: caller.tenantId, tokenHash: secrets.sha256Hex(token), createdAt, lastUsedAt: null });
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: caller.tenantId, actor: caller, action: 'scim.token_created', targetId: caller.tenantId, details: { replaced },
      }));
    });
    return { token, createdAt };
  }
}
