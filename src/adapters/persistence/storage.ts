import type { Repositories } from '../../application/ports/repositories';
import type { UnitOfWork } from '../../application/ports/unit-of-work';

/**
 * One storage backend as the composition root sees it: repositories for single statements outside
 * a transaction, the unit of work for atomic changes, and a way to let go of connections.
 */
export interface Storage {
  readonly repos: Repositories;
  readonly unitOfWork: UnitOfWork;
  close(): Promise<void>;
}
