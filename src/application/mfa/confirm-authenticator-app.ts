import { InvalidEnrollmentCode } from '../../domain/errors';
import type { Principal } from '../../domain/principal';
import { isWellFormedTotpCode } from '../../domain/second-factor';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { Postbox } from '../mail/postbox';
import type { AuthenticatorCodes } from '../ports/authenticator-codes';
import type { Clock } from '../ports/clock';
import type { FactorSecrets } from '../ports/factor-secrets';
import type { UnitOfWork } from '../ports/unit-of-work';
import { secretContext } from './authenticator-app-check';
import { postFactorNotice } from './factor-notices';
import type { RecoveryCodes } from './recovery-codes';

export interface ConfirmAuthenticatorAppDeps {
  readonly unitOfWork: UnitOfWork;
  readonly codes: AuthenticatorCodes;
  readonly factorSecrets: FactorSecrets;
  readonly recoveryCodes: RecoveryCodes;
  readonly clock: Clock;
  readonly trail: AuditTrail;
  readonly postbox: Postbox;
}

/**
 * POST /mfa/totp/confirm: a code from the app proves it holds the pending secret; the factor is then
 * the member's, its step counts as used, and a new set of recovery codes is made and shown this once.
 * The member is told by e-mail and the trail records `mfa.enrolled`, in the same unit of work.
 */
export class ConfirmAuthenticatorApp {
  constructor(private readonly deps: ConfirmAuthenticatorAppDeps) {}

  async execute(caller: Principal, code: string, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<{ recoveryCodes: string[] }> {
    const { unitOfWork, codes, factorSecrets, clock, trail } = this.deps;
    const owner = { tenantId: caller.tenantId, userId: caller.userId };
    if (!isWellFormedTotpCode(code)) throw new InvalidEnrollmentCode();
    return unitOfWork.run(async (tx) => {
      const factor = await tx.totpFactors.findByMember(owner.tenantId, owner.userId);
      if (!factor || factor.confirmedAt !== null) throw new InvalidEnrollmentCode();
      const now = clock.now();
      const step = codes.matchingStep(factorSecrets.open(factor.secret, secretContext(owner)), code, now);
      if (step === null || !(await tx.totpFactors.confirm(owner.tenantId, owner.userId, factor.id, now, step))) throw new InvalidEnrollmentCode();
      const recoveryCodes = await this.deps.recoveryCodes.issue(tx, owner);
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: owner.tenantId, actor: caller, action: 'mfa.enrolled', targetId: owner.userId, details: { method: 'totp' },
      }));
      await postFactorNotice(this.deps.postbox, tx, owner, { kind: 'added' }, 'totp', now, origin);
      return { recoveryCodes };
    });
  }
}
