export const API_KEY_PREFIX = 'pcls_';
export const API_KEY_LENGTH = 37;
/** Bytes of randomness behind a key: 16 bytes make the 32 hex characters after the prefix. */
export const API_KEY_RANDOM_BYTES = 16;
export const API_KEY_LOOKUP_PREFIX_LENGTH = 13;

export interface ApiKey {
  readonly id: string;
  readonly tenantId: string;
  readonly userId: string;
  /** First 13 characters of the raw key: shown to people, and narrows the lookup. */
  readonly keyPrefix: string;
  /** SHA-256 of the raw key, lowercase hex. The raw key itself is never stored. */
  readonly keyHash: string;
  readonly revoked: boolean;
  readonly createdAt: Date;
}

/** Part 5, step 1: only the literal prefix and the length are checked before the lookup. */
export function isWellFormedApiKey(raw: string): boolean {
  return raw.length === API_KEY_LENGTH && raw.startsWith(API_KEY_PREFIX);
}

export function apiKeyLookupPrefix(raw: string): string {
  return raw.slice(0, API_KEY_LOOKUP_PREFIX_LENGTH);
}

export function composeApiKey(randomHex: string): string {
  return `${API_KEY_PREFIX}${randomHex}`;
}
