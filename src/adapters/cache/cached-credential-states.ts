import { LRUCache } from 'lru-cache';
import type { ApiKeyGrant, CredentialChange, CredentialStates } from '../../application/ports/credential-states';
import type { ApiKeyRepository, UserAuthState, UserRepository } from '../../application/ports/repositories';

export interface CredentialCacheOptions {
  /** Members and keys remembered, each; the least recently used is dropped beyond it. */
  readonly maxEntries: number;
  /**
   * A fallback only: invalidation is what keeps entries right. The TTL bounds how long an entry can
   * be wrong if an announcement is lost without the listener noticing (a silently dead connection).
   */
  readonly ttlMs: number;
}

export const DEFAULT_CREDENTIAL_CACHE: CredentialCacheOptions = { maxEntries: 10_000, ttlMs: 10_000 };

export interface CredentialSource {
  readonly users: Pick<UserRepository, 'findAuthState'>;
  readonly apiKeys: Pick<ApiKeyRepository, 'findActiveByHash'>;
}

/**
 * The instance's in-memory view of what authentication checks on every request: members (role,
 * auth version) by user id, and verified keys (id, tenant, user, expiry) by key hash. A key's role
 * is never kept with the key: it is always read from its owner's entry, so a role change needs one
 * invalidation, of the member. Misses are not remembered: a flood of unknown keys must not push out
 * the keys in use, and a removed member or a revoked key never comes back anyway.
 *
 * A load that began before an invalidation is returned to its own request but not kept: otherwise a
 * lookup racing a change could put the old state back right after `forget` took it out.
 * While `suspend`ed (the change listener is disconnected, so changes may go unheard) nothing is kept
 * and every check reads storage.
 */
export class CachedCredentialStates implements CredentialStates {
  private readonly users: LRUCache<string, UserAuthState>;
  private readonly keys: LRUCache<string, ApiKeyGrant>;
  private generation = 0;
  private live = true;

  constructor(private readonly source: CredentialSource, options: CredentialCacheOptions = DEFAULT_CREDENTIAL_CACHE) {
    this.users = new LRUCache({ max: options.maxEntries, ttl: options.ttlMs });
    this.keys = new LRUCache({ max: options.maxEntries, ttl: options.ttlMs });
  }

  async user(tenantId: string, userId: string): Promise<UserAuthState | null> {
    const hit = this.users.get(userId);
    if (hit) return hit.tenantId === tenantId ? hit : null;
    const generation = this.generation;
    const state = await this.source.users.findAuthState(tenantId, userId);
    if (state && this.mayKeep(generation)) this.users.set(userId, state);
    return state;
  }

  async apiKey(keyPrefix: string, keyHash: string): Promise<ApiKeyGrant | null> {
    // The hash is of the whole raw key, prefix included: a hit on the hash is a hit on both.
    const hit = this.keys.get(keyHash);
    if (hit) return hit;
    const generation = this.generation;
    const found = await this.source.apiKeys.findActiveByHash(keyPrefix, keyHash);
    if (!found) return null;
    const grant: ApiKeyGrant = { keyId: found.keyId, tenantId: found.tenantId, userId: found.userId, expiresAt: found.expiresAt };
    if (this.mayKeep(generation)) {
      this.keys.set(keyHash, grant);
      // The same row gave the owner's state: the key's first use then costs one lookup, not two.
      this.users.set(found.owner.userId, found.owner);
    }
    return grant;
  }

  /** Rare (a revocation, a role change), so a scan of the keys is cheaper than a second index. */
  forget(change: CredentialChange): void {
    this.generation += 1;
    if (change.kind === 'user') {
      this.users.delete(change.userId);
      this.dropKeys((grant) => grant.userId === change.userId);
    } else {
      this.dropKeys((grant) => grant.keyId === change.keyId);
    }
  }

  /** Forgets everything and keeps nothing until `resume`. */
  suspend(): void {
    this.live = false;
    this.clear();
  }

  /** Starts again from nothing: changes made while suspended may have gone unheard. */
  resume(): void {
    this.clear();
    this.live = true;
  }

  private clear(): void {
    this.generation += 1;
    this.users.clear();
    this.keys.clear();
  }

  private mayKeep(generation: number): boolean {
    return this.live && generation === this.generation;
  }

  private dropKeys(matches: (grant: ApiKeyGrant) => boolean): void {
    for (const [hash, grant] of this.keys.entries()) if (matches(grant)) this.keys.delete(hash);
  }
}
