import type { SsoConnection, SsoDomain, SsoIdentity, SsoSignIn } from '../../domain/sso';

/** A tenant's OpenID Connect connection (at most one). */
export interface SsoConnectionRepository {
  /** The tenant's connection; null when it has none. */
  find(tenantId: string): Promise<SsoConnection | null>;
  /** Creates or replaces the tenant's connection (createdAt of a replaced one is kept). */
  save(connection: SsoConnection): Promise<void>;
  /** Removes it; false when the tenant had none. */
  remove(tenantId: string): Promise<boolean>;
}

export interface SsoDomainRepository {
  /**
   * Adds a claim. Throws SsoDomainTaken when another tenant has verified that domain; a claim by the
   * same tenant that exists already answers false and changes nothing. Unverified claims of other
   * tenants do not block (whoever proves it first owns it).
   */
  add(domain: SsoDomain): Promise<boolean>;
  /** The tenant's claims, verified or not, by domain name. */
  listFor(tenantId: string): Promise<SsoDomain[]>;
  /**
   * Marks the tenant's claim verified at `at`. Throws SsoDomainTaken when another tenant verified
   * it first; null when the tenant has no such claim; else the claim as stored after.
   */
  markVerified(tenantId: string, domain: string, at: Date): Promise<SsoDomain | null>;
  /** Drops the tenant's claim; false when it had none. */
  remove(tenantId: string, domain: string): Promise<boolean>;
  /** Across tenants: the tenant that verified the domain; null when nobody has. */
  verifiedOwner(domain: string): Promise<string | null>;
}

export interface SsoIdentityRepository {
  /** Across tenants is never needed: the identity of that subject at that tenant's issuer; null when none. */
  find(tenantId: string, issuer: string, subject: string): Promise<SsoIdentity | null>;
  /** Inserts a new identity; answers false (nothing written) when (tenant, issuer, subject) exists. */
  create(identity: SsoIdentity): Promise<boolean>;
  /** Moves lastSignInAt forward; false when there is no such identity. */
  recordSignIn(tenantId: string, issuer: string, subject: string, at: Date): Promise<boolean>;
}

export interface SsoSignInRepository {
  create(signIn: SsoSignIn): Promise<void>;
  /**
   * Uses the sign-in once: answers it and sets usedAt only while unused and unexpired at `now`;
   * null when unknown, used, or expired. Not walled: the callback names no tenant before it.
   */
  consume(stateHash: string, now: Date): Promise<SsoSignIn | null>;
  /** Drops sign-ins that expired before `before`; returns how many. */
  pruneExpired(before: Date): Promise<number>;
}
