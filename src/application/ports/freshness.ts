import type { ChangePosition } from '../../domain/change-position';

/**
 * Whether what this instance answers from memory is as fresh as the database: every credential
 * check asks it before reading members, keys or service keys (docs/architecture.md, "Every change
 * in force on the next request").
 */
export interface Freshness {
  /**
   * Resolves once every credential change committed before the call is reflected in what the
   * instance answers, with the instance's change position then (domain/change-position.ts).
   * Throws AuthenticationUnavailable when that cannot be confirmed within the instance's bound
   * (the database is cut off or does not answer in time): the caller refuses rather than answer
   * from memory.
   */
  confirm(): Promise<ChangePosition>;
}
