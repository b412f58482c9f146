import { AuthenticatorAppNotEnrolled } from '../../domain/errors';
import type { Principal } from '../../domain/principal';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { Postbox } from '../mail/postbox';
import type { Clock } from '../ports/clock';
import type { UnitOfWork } from '../ports/unit-of-work';
import { postFactorNotice } from './factor-notices';
import type { SecondFactors } from './second-factors';

export interface RemoveAuthenticatorAppDeps {
  readonly unitOfWork: UnitOfWork;
  readonly factors: SecondFactors;
  readonly clock: Clock;
  readonly trail: AuditTrail;
  readonly postbox: Postbox;
}

/**
 * DELETE /mfa/totp (recent authentication): the caller's authenticator app goes, pending or
 * confirmed. Recovery codes back up a factor: when no other factor is left (a passkey), they go
 * too, and the member signs in with a password alone again. Told by e-mail; `mfa.removed`.
 */
export class RemoveAuthenticatorApp {
  constructor(private readonly deps: RemoveAuthenticatorAppDeps) {}

  async execute(caller: Principal, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<void> {
    const { unitOfWork, factors, clock, trail } = this.deps;
    const owner = { tenantId: caller.tenantId, userId: caller.userId };
    await unitOfWork.run(async (tx) => {
      const factor = await tx.totpFactors.findByMember(owner.tenantId, owner.userId);
      if (!factor || !(await tx.totpFactors.deleteOf(owner.tenantId, owner.userId))) throw new AuthenticatorAppNotEnrolled();
      const codesRemoved = (await factors.hasOtherThan(tx, owner, ['totp', 'recovery_code']))
        ? 0 : await tx.recoveryCodes.deleteAllOf(owner.tenantId, owner.userId);
      // A pending app was never a factor: nothing to record or tell.
      if (factor.confirmedAt === null) return;
      const now = clock.now();
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: owner.tenantId, actor: caller, action: 'mfa.removed', targetId: owner.userId,
        details: { method: 'totp', recovery_codes_removed: codesRemoved },
      }));
      await postFactorNotice(this.deps.postbox, tx, owner, { kind: 'removed', byAdmin: false }, 'totp', now, origin);
    });
  }
}
