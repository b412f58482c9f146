import type { ChangePositions } from '../../application/ports/change-positions';
import type { Freshness } from '../../application/ports/freshness';
import type { ChangePosition } from '../../domain/change-position';

/**
 * Freshness where every writer of the storage is in this process (memory; the embedded database,
 * which one process owns): a unit of work forgets what it changed before it resolves, and the
 * embedded database's notification reaches this process (and fences the cache) before the writer's
 * statement returns. Nothing can have committed unseen, so there is nothing to check.
 */
export class InProcessFreshness implements Freshness {
  constructor(private readonly positions: ChangePositions) {}

  confirm(): Promise<ChangePosition> {
    return Promise.resolve(this.positions.current);
  }
}
