import { LRUCache } from 'lru-cache';
import type { Clock } from '../../application/ports/clock';
import type { SessionRepository } from '../../application/ports/repositories';
import type { SessionActivity } from '../../application/ports/session-activity';
import { BatchedLastUse, type LastUseMs, type LastUseOptions } from './batched-last-use';

/** Sessions whose latest use on this instance is remembered; the least recently used go first. */
const REMEMBERED_USES = 100_000;

/**
 * Sessions' last_seen_at, written in batches (batched-last-use.ts), plus this instance's own latest
 * use of each session it served lately. Storage lags by up to one write interval; what this
 * instance saw itself it never forgets before a session it serves could idle out. A use costs the
 * request one entry of the batch, as a key's does: it reaches the memory of uses seen when its batch
 * leaves for the write, and until then it is answered from the batch.
 */
export class BatchedSessionActivity extends BatchedLastUse implements SessionActivity {
  private readonly seen = new LRUCache<string, number>({ max: REMEMBERED_USES });

  constructor(sessions: Pick<SessionRepository, 'markSeen'>, clock: Clock, onError: (error: unknown) => void, options: LastUseOptions) {
    super((uses) => sessions.markSeen(uses.map(({ tenantId, id, at }) => ({ tenantId, sessionId: id, at }))), clock, onError, options);
  }

  protected override handedOff(batch: readonly LastUseMs[]): void {
    for (const { id, atMs } of batch) {
      const known = this.seen.get(id);
      if (known === undefined || known < atMs) this.seen.set(id, atMs);
    }
  }

  lastUse(sessionId: string): Date | undefined {
    const gathered = this.gathered(sessionId);
    const seen = this.seen.get(sessionId);
    const at = gathered === undefined ? seen : seen === undefined ? gathered : Math.max(gathered, seen);
    return at === undefined ? undefined : new Date(at);
  }
}
