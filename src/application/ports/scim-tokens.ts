import type { ScimToken } from '../../domain/scim';

/** A tenant's SCIM token (domain/scim.ts): at most one per tenant. */
export interface ScimTokenRepository {
  /** Stores the tenant's token, replacing any it had (the old one stops working at once). */
  replace(token: ScimToken): Promise<void>;
  /** The tenant's token; null when it has none. */
  find(tenantId: string): Promise<ScimToken | null>;
  /** Drops the tenant's token; false when it had none. */
  remove(tenantId: string): Promise<boolean>;
  /** Across tenants (a SCIM request names no tenant): the token with that SHA-256 hex; null when unknown. */
  findByHash(tokenHash: string): Promise<ScimToken | null>;
  /** Moves the token's last use forward to `at` (never back); false when the tenant has no token with that hash. */
  markUsed(tenantId: string, tokenHash: string, at: Date): Promise<boolean>;
}
