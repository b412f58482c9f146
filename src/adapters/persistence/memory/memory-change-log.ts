import type { ChangeLogPage, CredentialChangeLog, LoggedChange } from '../../../application/ports/credential-change-log';
import { type ChangePosition, NO_CHANGE } from '../../../domain/change-position';

/** A change before it is given its position. */
export type UnloggedChange =
  | { readonly kind: 'user'; readonly userId: string; readonly tenantId: string }
  | { readonly kind: 'api-key'; readonly keyId: string; readonly tenantId: string }
  | { readonly kind: 'session'; readonly sessionId: string; readonly tenantId: string }
  | { readonly kind: 'service-key'; readonly serviceKeyId: string }
  | { readonly kind: 'everything' };

/** Changes kept for readers; a reader further behind than this starts over (as after pruning on SQL). */
const KEPT = 10_000;

/**
 * The change log of memory storage: positions in the order changes are committed (runs are
 * serialised), kept in process. Whoever appends tells the watchers at once, as the database's
 * notification does on SQL storage.
 */
export class MemoryChangeLog implements CredentialChangeLog {
  private entries: LoggedChange[] = [];
  private head: ChangePosition = NO_CHANGE;
  private readonly watchers = new Set<() => void>();

  /** Gives each change the next position, in order, then tells the watchers. */
  append(changes: readonly UnloggedChange[]): void {
    if (changes.length === 0) return;
    for (const change of changes) {
      this.head += 1;
      this.entries.push({ ...change, position: this.head });
    }
    if (this.entries.length > 2 * KEPT) this.entries = this.entries.slice(-KEPT);
    for (const watcher of this.watchers) watcher();
  }

  async read(after: ChangePosition, limit: number): Promise<ChangeLogPage> {
    const from = this.entries.findIndex((entry) => entry.position > after);
    const changes = from < 0 || limit <= 0 ? [] : this.entries.slice(from, from + limit);
    return { head: this.head, changes };
  }

  async prune(): Promise<number> {
    const dropped = Math.max(0, this.entries.length - KEPT);
    this.entries = this.entries.slice(dropped);
    return dropped;
  }

  /** Called after every append; returns what stops it. */
  watch(watcher: () => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }
}
