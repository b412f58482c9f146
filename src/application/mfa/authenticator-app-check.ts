import { isWellFormedTotpCode } from '../../domain/second-factor';
import type { AuthenticatorCodes } from '../ports/authenticator-codes';
import type { Clock } from '../ports/clock';
import type { FactorSecrets } from '../ports/factor-secrets';
import type { Repositories } from '../ports/repositories';
import type { FactorOwner, SecondFactorCheck } from './second-factor';

export interface AuthenticatorAppDeps {
  readonly codes: AuthenticatorCodes;
  readonly factorSecrets: FactorSecrets;
  readonly clock: Clock;
}

/** What a sealed secret is bound to: its member (FactorSecrets). */
export function secretContext(owner: FactorOwner): string {
  return `totp:${owner.tenantId}:${owner.userId}`;
}

/**
 * An authenticator app's code (TOTP): right now or one step either side, and of a step after the
 * last one accepted. The step is written conditionally on that, so a code is accepted once, and of
 * two sign-ins racing with one code exactly one passes (ASVS V6.5.1).
 */
export class AuthenticatorAppCheck implements SecondFactorCheck {
  readonly method = 'totp' as const;

  constructor(private readonly deps: AuthenticatorAppDeps) {}

  async enrolled(repos: Repositories, owner: FactorOwner): Promise<boolean> {
    const factor = await repos.totpFactors.findByMember(owner.tenantId, owner.userId);
    return factor !== null && factor.confirmedAt !== null;
  }

  async verify(tx: Repositories, owner: FactorOwner, proof: unknown): Promise<boolean> {
    if (!isWellFormedTotpCode(proof)) return false;
    const factor = await tx.totpFactors.findByMember(owner.tenantId, owner.userId);
    if (!factor || factor.confirmedAt === null) return false;
    const secret = this.deps.factorSecrets.open(factor.secret, secretContext(owner));
    const step = this.deps.codes.matchingStep(secret, proof, this.deps.clock.now());
    if (step === null || (factor.lastUsedStep !== null && step <= factor.lastUsedStep)) return false;
    return tx.totpFactors.useStep(owner.tenantId, owner.userId, factor.id, step);
  }
}
