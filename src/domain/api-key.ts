export const API_KEY_PREFIX = 'pcls_';
export const API_KEY_LENGTH = 37;
/** Bytes of randomness behind a key: 16 bytes make the 32 hex characters after the prefix. */
export const API_KEY_RANDOM_BYTES = 16;
export const API_KEY_LOOKUP_PREFIX_LENGTH = 13;

/** A key's name is a label for people: long enough for "CI deploy (staging, eu-west)", no longer. */
export const API_KEY_NAME_MAX_LENGTH = 100;
/** A key may be given a lifetime of 1 day to a year; without one it lives until it is revoked. */
export const API_KEY_MIN_EXPIRY_DAYS = 1;
export const API_KEY_MAX_EXPIRY_DAYS = 365;
/** last_used_at is written at most once per key in this period, so a busy key costs no write per request. */
export const API_KEY_USAGE_WRITE_INTERVAL_MS = 60_000;

const DAY_MS = 86_400_000;

export interface ApiKey {
  readonly id: string;
  readonly tenantId: string;
  /** The creating user: requests with the key act as this user, with the user's current role. */
  readonly userId: string;
  /** First 13 characters of the raw key: shown to people, and narrows the lookup. */
  readonly keyPrefix: string;
  /** SHA-256 of the raw key, lowercase hex. The raw key itself is never stored. */
  readonly keyHash: string;
  readonly revoked: boolean;
  readonly createdAt: Date;
  readonly name: string | null;
  /** Null: the key never expires. */
  readonly expiresAt: Date | null;
  /** Approximate (see API_KEY_USAGE_WRITE_INTERVAL_MS); null until the key is first used. */
  readonly lastUsedAt: Date | null;
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

/** When a key created at `now` with that many days of life expires; null when it is given none. */
export function apiKeyExpiry(now: Date, expiresInDays: number | undefined): Date | null {
  return expiresInDays === undefined ? null : new Date(now.getTime() + expiresInDays * DAY_MS);
}

/** A key is expired from its expiry instant on: it gets the same answer as an unknown key. */
export function isApiKeyExpired(expiresAt: Date | null, now: Date): boolean {
  return expiresAt !== null && expiresAt.getTime() <= now.getTime();
}
