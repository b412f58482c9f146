import type { Repositories } from '../ports/repositories';

/** The ways a member can prove a second factor at sign-in, in the order answers list them. */
export type SecondFactorMethod = 'totp' | 'recovery_code' | 'passkey';

export const SECOND_FACTOR_METHODS: readonly SecondFactorMethod[] = ['totp', 'recovery_code', 'passkey'];

/** The member a factor belongs to. */
export interface FactorOwner {
  readonly tenantId: string;
  readonly userId: string;
}

/**
 * One kind of second factor: whether a member has one, and checking a proof of it inside the
 * caller's unit of work. A proof that works once (a code, a recovery code, a passkey challenge) is
 * consumed by the check that accepts it, conditionally, so two racing checks cannot both pass.
 */
export interface SecondFactorCheck {
  readonly method: SecondFactorMethod;
  enrolled(repos: Repositories, owner: FactorOwner): Promise<boolean>;
  /**
   * `proof` is the request body's value for this method, not yet validated. `challengeKey` names the
   * sign-in attempt the proof answers (the mfa_token's id): a passkey assertion must answer the
   * challenge issued for that attempt; the other kinds ignore it.
   */
  verify(tx: Repositories, owner: FactorOwner, proof: unknown, challengeKey: string): Promise<boolean>;
}
