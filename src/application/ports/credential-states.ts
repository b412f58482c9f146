import type { SessionState, UserAuthState } from './repositories';

/** What a verified API key stands for; the role is never kept here, it is always the owner's current one. */
export interface ApiKeyGrant {
  readonly keyId: string;
  readonly tenantId: string;
  readonly userId: string;
  readonly expiresAt: Date | null;
}

/**
 * A committed change after which what an instance remembers about a credential is wrong.
 * `everything`: one unit of work changed more credentials than the storage lists one by one.
 */
export type CredentialChange =
  | { readonly kind: 'user'; readonly userId: string }
  | { readonly kind: 'api-key'; readonly keyId: string }
  | { readonly kind: 'session'; readonly sessionId: string }
  | { readonly kind: 'everything' };

/**
 * What authentication reads on every request: the member behind a token or key, and the key
 * behind a hash. An implementation may answer from memory, as long as a change it is told to
 * `forget` is never answered from memory again (the next request sees the change).
 */
export interface CredentialStates {
  /** The member's current state; null when unknown, removed, or not of that tenant. */
  user(tenantId: string, userId: string): Promise<UserAuthState | null>;
  /** The non-revoked key with that prefix and hash whose owner is a member; null otherwise. Expiry is not checked. */
  apiKey(keyPrefix: string, keyHash: string): Promise<ApiKeyGrant | null>;
  /**
   * The tenant's live session; null when ended, unknown, or another tenant's. `fresh`: read from
   * storage whatever is remembered (a remembered last use may be older than another instance's).
   */
  session(tenantId: string, sessionId: string, fresh?: boolean): Promise<SessionState | null>;
  /**
   * Called for each change the storage reports: by the unit of work that made it, right after it
   * commits (so that this instance's very next request sees it), and for every change the database
   * announces, whoever made it (so that every instance does).
   */
  forget(change: CredentialChange): void;
}
