import type { Principal } from '../../domain/principal';
import type { Repositories } from '../ports/repositories';

export interface SecondFactorSummary {
  /** The confirmed authenticator app (a pending one is not a factor yet); null when none. */
  readonly totp: { readonly enrolledAt: Date } | null;
  readonly recoveryCodesRemaining: number;
}

/** GET /mfa: the caller's own factors, without any secret. */
export class GetSecondFactors {
  constructor(private readonly deps: { readonly repos: Repositories }) {}

  async execute(caller: Principal): Promise<SecondFactorSummary> {
    const { repos } = this.deps;
    const factor = await repos.totpFactors.findByMember(caller.tenantId, caller.userId);
    return {
      totp: factor?.confirmedAt ? { enrolledAt: factor.confirmedAt } : null,
      recoveryCodesRemaining: await repos.recoveryCodes.countUnused(caller.tenantId, caller.userId),
    };
  }
}
