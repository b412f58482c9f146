import { LRUCache } from 'lru-cache';
import type { Clock } from '../../application/ports/clock';
import type { SessionRepository } from '../../application/ports/repositories';
import type { SessionActivity } from '../../application/ports/session-activity';
import { BatchedLastUse, type LastUseOptions } from './batched-last-use';

/** Sessions whose latest use on this instance is remembered; the least recently used go first. */
const REMEMBERED_USES = 100_000;

/**
 * Sessions' last_seen_at, written in batches (batched-last-use.ts), plus this instance's own latest
 * use of each session it served lately. Storage lags by up to one write interval; what this
 * instance saw itself it never forgets before a session it serves could idle out.
 */
export class BatchedSessionActivity extends BatchedLastUse implements SessionActivity {
  private readonly seen = new LRUCache<string, number>({ max: REMEMBERED_USES });

  constructor(sessions: Pick<SessionRepository, 'markSeen'>, clock: Clock, onError: (error: unknown) => void, options: LastUseOptions) {
    super((uses) => sessions.markSeen(uses.map(({ tenantId, id, at }) => ({ tenantId, sessionId: id, at }))), clock, onError, options);
  }

  override recordUse(tenantId: string, sessionId: string, at: Date): void {
    const known = this.seen.get(sessionId);
    if (known === undefined || known < at.getTime()) this.seen.set(sessionId, at.getTime());
    super.recordUse(tenantId, sessionId, at);
  }

  lastUse(sessionId: string): Date | undefined {
    const at = this.seen.get(sessionId);
    return at === undefined ? undefined : new Date(at);
  }
}
