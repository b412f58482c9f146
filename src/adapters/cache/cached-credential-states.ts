import { LRUCache } from 'lru-cache';
import type { ApiKeyGrant, CredentialChange, CredentialStates } from '../../application/ports/credential-states';
import type { ApiKeyRepository, SessionRepository, SessionState, UserAuthState, UserRepository } from '../../application/ports/repositories';

/**
 * What one remembered credential is counted at: its entry, its strings, the LRU's bookkeeping and,
 * for a key, the index from key id to hash, with room for the tables' growth. Keys of one owner
 * share the owner's id strings, which is what the key's figure assumes. Measured on V8's heap by
 * `scripts/bench/cache-entry-size.ts` (docs/benchmarks.md); measure again after changing an entry.
 */
export const MEMBER_ENTRY_BYTES = 320;
export const KEY_ENTRY_BYTES = 400;
/** Three ids of its own and two Dates: the largest entry of the three. */
export const SESSION_ENTRY_BYTES = 800;

export interface CredentialCacheOptions {
  /**
   * Memory for members and keys together, counted at MEMBER_ENTRY_BYTES and KEY_ENTRY_BYTES an
   * entry; past it, the least recently used entry of either kind is dropped.
   */
  readonly memoryBytes: number;
  /**
   * A fallback only: the change follower is what keeps entries right. The TTL bounds how long an entry
   * can be wrong if one is lost without the listener noticing (a silently dead connection).
   */
  readonly ttlMs: number;
  /** Milliseconds on a monotonic clock, for the TTL; performance.now() unless given (tests move it). */
  readonly now?: () => number;
}

export const DEFAULT_CREDENTIAL_CACHE: CredentialCacheOptions = { memoryBytes: 96 * 2 ** 20, ttlMs: 600_000 };

export interface CredentialSource {
  readonly users: Pick<UserRepository, 'findAuthState'>;
  readonly apiKeys: Pick<ApiKeyRepository, 'findActiveByHash'>;
  readonly sessions: Pick<SessionRepository, 'findLive'>;
}

type Entry = UserAuthState | ApiKeyGrant | SessionState;

function isMember(entry: Entry): entry is UserAuthState {
  return 'authVersion' in entry;
}

function isSession(entry: Entry): entry is SessionState {
  return 'sessionId' in entry;
}

/** Sessions are keyed apart from members (a user id) and keys (a 64-character hash). */
function sessionKey(sessionId: string): string {
  return `s:${sessionId.toLowerCase()}`;
}

/**
 * The instance's in-memory view of what authentication checks on every request: members (role,
 * auth version) by user id, live sessions by id, and verified keys (id, tenant, user, expiry) by key hash, in one cache
 * bounded by memory (a user id and a key hash never look alike: 36 characters against 64). A key's
 * role is never kept with the key: it is always read from its owner's entry, so a role change or a
 * removal needs one invalidation, of the member. Misses are not remembered: a flood of unknown keys
 * must not push out the keys in use, and a removed member or a revoked key never comes back anyway.
 *
 * A load that began before an invalidation is returned to its own request but not kept: otherwise a
 * lookup racing a change could put the old state back right after `forget` took it out.
 * While `suspend`ed (the change listener is disconnected, so changes may go unheard) nothing is kept
 * and every check reads storage. While `fence`d (the database said its change log has grown, and
 * what it holds is being read) nothing is answered from memory or kept either, so the request after
 * a notification never meets a state the notification was about.
 */
export class CachedCredentialStates implements CredentialStates {
  private readonly entries: LRUCache<string, Entry>;
  /** Key id to key hash, for a logged change of a revoked key, which names the id. */
  private readonly hashOfKey = new Map<string, string>();
  private generation = 0;
  private live = true;
  private fenced = false;

  constructor(private readonly source: CredentialSource, options: CredentialCacheOptions = DEFAULT_CREDENTIAL_CACHE) {
    this.entries = new LRUCache<string, Entry>({
      maxSize: options.memoryBytes,
      sizeCalculation: (entry) => (isMember(entry) ? MEMBER_ENTRY_BYTES : isSession(entry) ? SESSION_ENTRY_BYTES : KEY_ENTRY_BYTES),
      ttl: options.ttlMs,
      // A clock of the caller's is read on every check (lru-cache otherwise reuses a reading for 1 ms of real time).
      ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
      // Evicted, expired, deleted or replaced: the index must not outlive the entry.
      dispose: (entry, hash) => {
        if (!isMember(entry) && !isSession(entry) && this.hashOfKey.get(entry.keyId) === hash) this.hashOfKey.delete(entry.keyId);
      },
    });
  }

  /** How many members and keys are held, and the memory they are counted at. */
  get size(): { readonly entries: number; readonly bytes: number } {
    return { entries: this.entries.size, bytes: this.entries.calculatedSize };
  }

  async user(tenantId: string, userId: string): Promise<UserAuthState | null> {
    const hit = this.fenced ? undefined : this.entries.get(userId);
    if (hit && isMember(hit)) return hit.tenantId === tenantId ? hit : null;
    const generation = this.generation;
    const state = await this.source.users.findAuthState(tenantId, userId);
    if (state && this.mayKeep(generation)) this.entries.set(userId, state);
    return state;
  }

  async apiKey(keyPrefix: string, keyHash: string): Promise<ApiKeyGrant | null> {
    // The hash is of the whole raw key, prefix included: a hit on the hash is a hit on both.
    const hit = this.fenced ? undefined : this.entries.get(keyHash);
    if (hit && !isMember(hit) && !isSession(hit)) return hit;
    const generation = this.generation;
    const found = await this.source.apiKeys.findActiveByHash(keyPrefix, keyHash);
    if (!found) return null;
    if (!this.mayKeep(generation)) return { keyId: found.keyId, tenantId: found.tenantId, userId: found.userId, expiresAt: found.expiresAt };
    // The same row gave the owner's state: the key's first use then costs one lookup, not two. The
    // owner's entry, when it is already held and current, lends its strings to the key's, so that
    // the many keys of one owner do not each hold a copy of the same two ids.
    const held = this.entries.get(found.userId);
    const owner = held && isMember(held) && sameState(held, found.owner) ? held : found.owner;
    if (owner !== held) this.entries.set(owner.userId, owner);
    const grant: ApiKeyGrant = { keyId: found.keyId, tenantId: owner.tenantId, userId: owner.userId, expiresAt: found.expiresAt };
    this.entries.set(keyHash, grant);
    this.hashOfKey.set(grant.keyId, keyHash);
    return grant;
  }

  /**
   * A live session as storage last said; a remembered one unless `fresh`. Its last use is what
   * storage held when it was read: the caller adds what this instance saw since.
   */
  async session(tenantId: string, sessionId: string, fresh = false): Promise<SessionState | null> {
    const key = sessionKey(sessionId);
    const hit = this.fenced || fresh ? undefined : this.entries.get(key);
    if (hit && isSession(hit)) return hit.tenantId === tenantId ? hit : null;
    const generation = this.generation;
    const state = await this.source.sessions.findLive(tenantId, sessionId);
    if (state && this.mayKeep(generation)) this.entries.set(key, state);
    else if (!state && fresh) this.entries.delete(key); // storage has just said it is gone: never answer it from memory again
    return state;
  }

  /** O(1) for every kind but `everything`: a member by id, a session by its key, a key through the id-to-hash index. */
  forget(change: CredentialChange): void {
    this.generation += 1;
    if (change.kind === 'user') {
      this.entries.delete(change.userId);
    } else if (change.kind === 'session') {
      this.entries.delete(sessionKey(change.sessionId));
    } else if (change.kind === 'api-key') {
      const hash = this.hashOfKey.get(change.keyId);
      if (hash !== undefined) this.entries.delete(hash);
    } else {
      this.clear();
    }
  }

  /** Answers nothing from memory and keeps nothing until `unfence`: changes are known to be on their way. */
  fence(): void {
    this.fenced = true;
  }

  /** The changes the fence waited for have been forgotten. */
  unfence(): void {
    this.fenced = false;
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
    this.entries.clear();
    this.hashOfKey.clear();
  }

  private mayKeep(generation: number): boolean {
    return this.live && !this.fenced && generation === this.generation;
  }
}

function sameState(a: UserAuthState, b: UserAuthState): boolean {
  return a.tenantId === b.tenantId && a.role === b.role && a.authVersion === b.authVersion;
}
