import { SecondFactorNotEnrolled } from '../../domain/errors';
import type { Principal } from '../../domain/principal';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { UnitOfWork } from '../ports/unit-of-work';
import type { RecoveryCodes } from './recovery-codes';
import type { SecondFactors } from './second-factors';

export interface RegenerateRecoveryCodesDeps {
  readonly unitOfWork: UnitOfWork;
  readonly factors: SecondFactors;
  readonly recoveryCodes: RecoveryCodes;
  readonly trail: AuditTrail;
}

/** POST /mfa/recovery-codes (recent authentication): a new set of ten, shown once; the old set, used or not, stops working. */
export class RegenerateRecoveryCodes {
  constructor(private readonly deps: RegenerateRecoveryCodesDeps) {}

  async execute(caller: Principal, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<string[]> {
    const owner = { tenantId: caller.tenantId, userId: caller.userId };
    return this.deps.unitOfWork.run(async (tx) => {
      if (!(await this.deps.factors.hasOtherThan(tx, owner, ['recovery_code']))) throw new SecondFactorNotEnrolled();
      const codes = await this.deps.recoveryCodes.issue(tx, owner);
      await tx.auditEvents.append(this.deps.trail.event(origin, {
        tenantId: owner.tenantId, actor: caller, action: 'mfa.recovery_codes_regenerated', targetId: owner.userId,
      }));
      return codes;
    });
  }
}
