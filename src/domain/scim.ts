/**
 * SCIM provisioning (RFC 7643/7644): a tenant's identity provider creates, suspends, restores and
 * removes members with a bearer token the tenant's owner made. One token per tenant; only its
 * SHA-256 is stored, and a new one replaces the old.
 */
export interface ScimToken {
  readonly tenantId: string;
  /** SHA-256 hex of the whole raw token. */
  readonly tokenHash: string;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
}

/** What a raw SCIM token starts with, so that it is recognisable in a secret scanner or a log. */
export const SCIM_TOKEN_PREFIX = 'pcscim_';

/** Random bytes in a token, after its prefix (as lowercase hex). */
export const SCIM_TOKEN_BYTES = 32;

const SCIM_TOKEN_SHAPE = new RegExp(`^${SCIM_TOKEN_PREFIX}[0-9a-f]{${SCIM_TOKEN_BYTES * 2}}$`);

/** Whether a presented value could be a SCIM token at all, so that anything else costs no hash and no lookup. */
export function looksLikeScimToken(value: string): boolean {
  return SCIM_TOKEN_SHAPE.test(value);
}
