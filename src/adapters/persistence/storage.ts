import type { CredentialChange } from '../../application/ports/credential-states';
import type { Repositories } from '../../application/ports/repositories';
import type { UnitOfWork } from '../../application/ports/unit-of-work';

/** Told of the credential changes one unit of work made, right after it commits, before its `run` resolves. */
export type CommittedChanges = (changes: readonly CredentialChange[]) => void;

/**
 * One storage backend as the composition root sees it: repositories for single statements outside
 * a transaction, the unit of work for atomic changes, and a way to let go of connections.
 */
export interface Storage {
  readonly repos: Repositories;
  readonly unitOfWork: UnitOfWork;
  /**
   * Adds a listener for every unit of work's credential changes (the storage finds them itself: the
   * database's triggers on SQL, a comparison with the committed state in memory). This is how the
   * instance that made a change forgets it before answering, in one place for every use-case.
   * Returns what removes the listener.
   */
  afterCommit(listener: CommittedChanges): () => void;
  close(): Promise<void>;
}
