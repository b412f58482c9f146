import type { Repositories } from './repositories';

/**
 * Runs work atomically: the repositories handed to `work` write in one transaction that commits when
 * the promise resolves and rolls back, keeping nothing, when it rejects (the rejection is rethrown).
 * Keep slow work (password hashing) outside, and side effects after it resolves.
 */
export interface UnitOfWork {
  run<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
}
