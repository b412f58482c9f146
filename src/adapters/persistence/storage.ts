import type { CredentialChangeLog } from '../../application/ports/credential-change-log';
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
  /** Every committed credential change with its position, from every writer (change-feed.ts follows it). */
  readonly changeLog: CredentialChangeLog;
  /**
   * Calls `watcher` whenever the log may have grown, where the storage itself knows (memory: every
   * writer is in this process). Absent on SQL storage, where the database's notification says it
   * (change-feed.ts listens). Returns what stops it.
   */
  readonly watchLog?: ((watcher: () => void) => () => void) | undefined;
  close(): Promise<void>;
}
