import type { Principal } from './principal';

/** What is remembered about one credential Portcullis vouched for. */
export interface Verdict {
  readonly principal: Principal;
  /**
   * Epoch milliseconds from which the verdict is not used: the credential's own expiry, or the
   * longest any verdict is kept (`maxAgeMs` after it was given), whichever comes first.
   */
  readonly staleAtMs: number;
  /** For an API key: the id its revocation is announced under. */
  readonly keyId: string | undefined;
  /** For a bearer token of a session: the id the session's end is announced under. */
  readonly sessionId: string | undefined;
}

/** Which header a credential came in: a bearer token and an API key are never the same credential. */
export type CredentialKind = 'token' | 'api_key';

/**
 * A bounded map that forgets what was used least recently, kept in two generations: lookups are
 * served from the newer one without touching the map, an entry found only in the older one moves
 * up, and when the newer one is full the older one is dropped whole. That keeps a hit to one Map
 * lookup (a hit in a strict LRU map is a delete and a set as well: the verifier bench,
 * scripts/bench/verifier.ts, is what that cost was measured against). What goes is approximately
 * the least recently used: entries not used since the newer generation started.
 */
class Generations<V> {
  private newer = new Map<string, V>();
  private older = new Map<string, V>();

  constructor(private readonly perGeneration: number) {}

  get size(): number {
    return this.newer.size + this.older.size;
  }

  get(key: string): V | undefined {
    const value = this.newer.get(key);
    if (value !== undefined) return value;
    const old = this.older.get(key);
    if (old !== undefined) {
      this.older.delete(key);
      this.put(key, old);
    }
    return old;
  }

  set(key: string, value: V): void {
    this.older.delete(key);
    this.put(key, value);
  }

  delete(key: string): void {
    this.newer.delete(key);
    this.older.delete(key);
  }

  deleteWhere(matches: (value: V) => boolean): void {
    for (const map of [this.newer, this.older]) {
      for (const [key, value] of map) if (matches(value)) map.delete(key);
    }
  }

  clear(): void {
    this.newer.clear();
    this.older.clear();
  }

  private put(key: string, value: V): void {
    if (!this.newer.has(key) && this.newer.size >= this.perGeneration) {
      this.older = this.newer;
      this.newer = new Map();
    }
    this.newer.set(key, value);
  }
}

/**
 * Credentials Portcullis vouched for, bounded, the least recently used dropped first. It keeps
 * anything only while `trusted` (the change feed is open): otherwise a revocation could go unheard.
 * It knows the highest change position heard on the feed (`seen`), and keeps no answer given at an
 * earlier position: such an answer may predate a change already heard (another Portcullis
 * instance answered it, one that had not applied that change yet). A lookup that started before a
 * change may not store its answer either (`generation`), so a slow answer cannot put back what the
 * change just took out. Refusals are never kept: a flood of made-up credentials must not push out
 * the ones in use. Tokens and API keys are kept apart, so a key's text sent as a bearer token is
 * never taken for the key. And no verdict outlives its `staleAtMs`, whatever the feed says.
 */
export class VerdictCache {
  private readonly byKind: Record<CredentialKind, Generations<Verdict>>;
  private trusted = false;
  private generationCount = 0;
  private seenPosition = 0;

  /** `maxEntries`: for tokens and for API keys each, at most this many remembered. */
  constructor(maxEntries: number) {
    const perGeneration = Math.max(1, Math.ceil(maxEntries / 2));
    this.byKind = { token: new Generations(perGeneration), api_key: new Generations(perGeneration) };
  }

  get size(): number {
    return this.byKind.token.size + this.byKind.api_key.size;
  }

  /** Changes every time something may have been invalidated; pass it back to `set`. */
  get generation(): number {
    return this.generationCount;
  }

  /** The highest change position heard on the feed: an answer from before it may be stale. */
  get seen(): number {
    return this.seenPosition;
  }

  get(kind: CredentialKind, credential: string, nowMs: number): Verdict | undefined {
    const entries = this.byKind[kind];
    const verdict = entries.get(credential);
    if (verdict === undefined) return undefined;
    if (nowMs >= verdict.staleAtMs) {
      entries.delete(credential);
      return undefined;
    }
    return verdict;
  }

  /** Kept only while trusted, if nothing changed since `generation`, and if the answer is at least as fresh as every change heard. */
  set(kind: CredentialKind, credential: string, verdict: Verdict, generation: number, position: number): void {
    if (!this.trusted || generation !== this.generationCount || position < this.seenPosition) return;
    this.byKind[kind].set(credential, verdict);
  }

  /** A change at `position` was heard (and acted on): answers from before it are not kept from now on. */
  heard(position: number): void {
    if (position > this.seenPosition) this.seenPosition = position;
  }

  /** A member removed, re-roled, or whose password changed: their tokens and keys all go. */
  forgetUser(userId: string): void {
    this.drop((verdict) => verdict.principal.userId === userId);
  }

  forgetKey(keyId: string): void {
    this.drop((verdict) => verdict.keyId === keyId);
  }

  /** A session ended (logout, or ended by an admin): its tokens go, the member's other sessions stay. */
  forgetSession(sessionId: string): void {
    this.drop((verdict) => verdict.sessionId === sessionId);
  }

  /**
   * The feed is open, at `position` (the instance's, when it said `ready`): remembering is safe
   * again, from nothing. A lower position than one heard before (an instance that is behind) does
   * not lower what is asked of answers: changes heard before the feed dropped stay heard.
   */
  trust(position: number): void {
    this.clear();
    this.heard(position);
    this.trusted = true;
  }

  /**
   * Portcullis answered that it holds no change as late as `asked`, after reading its log: the
   * positions heard belong to a database since restored. From `to` on, its positions are believed.
   */
  unheard(asked: number, to: number): void {
    if (this.seenPosition === asked) this.seenPosition = to;
  }

  /** The feed is gone: forget everything and keep nothing until `trust`. */
  distrust(): void {
    this.trusted = false;
    this.clear();
  }

  private clear(): void {
    this.generationCount += 1;
    this.byKind.token.clear();
    this.byKind.api_key.clear();
  }

  private drop(matches: (verdict: Verdict) => boolean): void {
    this.generationCount += 1;
    this.byKind.token.deleteWhere(matches);
    this.byKind.api_key.deleteWhere(matches);
  }
}
