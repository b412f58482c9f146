import type { Principal } from './principal';

/** What is remembered about one credential Portcullis vouched for. */
export interface Verdict {
  readonly principal: Principal;
  /** Epoch milliseconds from which the credential is no longer valid on its own; null: never. */
  readonly expiresAtMs: number | null;
  /** For an API key: the id its revocation is announced under. */
  readonly keyId: string | undefined;
}

/**
 * Credentials Portcullis vouched for, bounded, least recently used dropped first. It keeps
 * anything only while `trusted` (the change feed is open): otherwise a revocation could go unheard.
 * A lookup that started before a change may not store its answer (`generation`), so a slow answer
 * cannot put back what the change just took out. Refusals are never kept: a flood of made-up
 * credentials must not push out the ones in use.
 */
export class VerdictCache {
  private readonly entries = new Map<string, Verdict>();
  private trusted = false;
  private generationCount = 0;

  constructor(private readonly maxEntries: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** Changes every time something may have been invalidated; pass it back to `set`. */
  get generation(): number {
    return this.generationCount;
  }

  get(credential: string, nowMs: number): Verdict | undefined {
    const verdict = this.entries.get(credential);
    if (!verdict) return undefined;
    if (verdict.expiresAtMs !== null && nowMs >= verdict.expiresAtMs) {
      this.entries.delete(credential);
      return undefined;
    }
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(credential);
    this.entries.set(credential, verdict);
    return verdict;
  }

  set(credential: string, verdict: Verdict, generation: number): void {
    if (!this.trusted || generation !== this.generationCount) return;
    this.entries.delete(credential);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(credential, verdict);
  }

  /** A member removed, re-roled, or whose password changed: their tokens and keys all go. */
  forgetUser(userId: string): void {
    this.drop((verdict) => verdict.principal.userId === userId);
  }

  forgetKey(keyId: string): void {
    this.drop((verdict) => verdict.keyId === keyId);
  }

  /** The feed is open: remembering is safe again, from nothing. */
  trust(): void {
    this.clear();
    this.trusted = true;
  }

  /** The feed is gone: forget everything and keep nothing until `trust`. */
  distrust(): void {
    this.trusted = false;
    this.clear();
  }

  private clear(): void {
    this.generationCount += 1;
    this.entries.clear();
  }

  private drop(matches: (verdict: Verdict) => boolean): void {
    this.generationCount += 1;
    for (const [credential, verdict] of this.entries) if (matches(verdict)) this.entries.delete(credential);
  }
}
