import type { Repositories } from '../ports/repositories';
import { type FactorOwner, SECOND_FACTOR_METHODS, type SecondFactorCheck, type SecondFactorMethod } from './second-factor';
import { type Amr, passwordAnd, ssoAnd } from '../../domain/second-factor';

/** The amr of a proof of `method` given with (or after) a password. */
export function amrAfterPassword(method: SecondFactorMethod): Amr[] {
  return passwordAnd(method === 'totp' ? 'otp' : method);
}

/** The amr of a proof of `method` given after a sign-in through the tenant's identity provider. */
export function amrAfterSso(method: SecondFactorMethod): Amr[] {
  return ssoAnd(method === 'totp' ? 'otp' : method);
}

/** Takes away every factor of one kind a member has, inside the caller's unit of work; returns how many. */
export type FactorRemoval = (tx: Repositories, owner: FactorOwner) => Promise<number>;

/**
 * The kinds of second factor the service knows, as registered at start (wire.ts): one check per
 * kind, and how to take each kind away. Sign-in, a reset and an admin's removal ask here, so a new
 * kind (passkeys) is one more entry in each list.
 */
export class SecondFactors {
  constructor(
    private readonly checks: readonly SecondFactorCheck[],
    private readonly removals: readonly FactorRemoval[],
  ) {}

  /** The kinds the member has, in SECOND_FACTOR_METHODS order; none: the member signs in with a password alone. */
  async methodsOf(repos: Repositories, owner: FactorOwner): Promise<SecondFactorMethod[]> {
    const methods: SecondFactorMethod[] = [];
    for (const method of SECOND_FACTOR_METHODS) {
      const check = this.checkFor(method);
      if (check && await check.enrolled(repos, owner)) methods.push(method);
    }
    return methods;
  }

  /** Whether the member has a factor of a kind other than `except` (recovery codes back up the others). */
  async hasOtherThan(repos: Repositories, owner: FactorOwner, except: readonly SecondFactorMethod[]): Promise<boolean> {
    return (await this.methodsOf(repos, owner)).some((method) => !except.includes(method));
  }

  checkFor(method: SecondFactorMethod): SecondFactorCheck | undefined {
    return this.checks.find((check) => check.method === method);
  }

  /**
   * Checks the one proof a request carries, inside its unit of work; false when it carries none, more
   * than one, or one of a kind the member does not have, or the check refuses it.
   */
  async verifyOne(tx: Repositories, owner: FactorOwner, proofs: Partial<Record<SecondFactorMethod, unknown>>, challengeKey: string): Promise<SecondFactorMethod | null> {
    const given = SECOND_FACTOR_METHODS.filter((method) => proofs[method] !== undefined);
    if (given.length !== 1) return null;
    const method = given[0]!;
    const check = this.checkFor(method);
    if (!check || !(await check.enrolled(tx, owner))) return null;
    return (await check.verify(tx, owner, proofs[method], challengeKey)) ? method : null;
  }

  /** Takes away every factor of the member; returns how many were taken. */
  async removeAll(tx: Repositories, owner: FactorOwner): Promise<number> {
    let count = 0;
    for (const remove of this.removals) count += await remove(tx, owner);
    return count;
  }
}
