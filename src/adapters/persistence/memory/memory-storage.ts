import type { CredentialChange } from '../../../application/ports/credential-states';
import type { Repositories } from '../../../application/ports/repositories';
import type { UnitOfWork } from '../../../application/ports/unit-of-work';
import type { CommittedChanges, Storage } from '../storage';
import { MemoryChangeLog } from './memory-change-log';
import { memoryRepositories } from './memory-repositories';
import { credentialChanges, type CredentialRowChange, emptyState, type MemoryState, snapshot } from './memory-state';

/**
 * An in-process backend that keeps the unit of work's promise: each run works on a draft copy that
 * replaces the committed state only when the work succeeds. Runs are serialised, and so is every
 * single call made outside a run, so a commit can never overwrite a write it did not see.
 */
class MemoryUnitOfWork implements UnitOfWork {
  private committed: MemoryState = emptyState();
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<CommittedChanges>();

  constructor(private readonly changeLog: MemoryChangeLog) {}

  afterCommit(listener: CommittedChanges): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  run<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    const result = this.queue.then(async () => {
      const draft = snapshot(this.committed);
      const value = await work(memoryRepositories(draft));
      const changes = credentialChanges(this.committed, draft);
      this.committed = draft;
      if (changes.length > 0) {
        // Listeners get what the SQL storage reports (kind and id); the log also keeps the tenant.
        const reported: CredentialChange[] = changes.map(reportedChange);
        for (const listener of this.listeners) listener(reported);
        this.changeLog.append(changes);
      }
      return value;
    });
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** The committed state, for reading only (see createInspectableMemoryStorage). */
  get state(): MemoryState {
    return this.committed;
  }
}

function reportedChange(change: CredentialRowChange): CredentialChange {
  if (change.kind === 'user') return { kind: 'user', userId: change.userId };
  return change.kind === 'session' ? { kind: 'session', sessionId: change.sessionId } : { kind: 'api-key', keyId: change.keyId };
}

type MethodTable = Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>;

/** Every repository method, each call run as its own one-statement unit of work. */
function autoCommitting(unitOfWork: UnitOfWork): Repositories {
  const shape = memoryRepositories(emptyState()) as unknown as MethodTable;
  const wrapped: MethodTable = {};
  for (const [name, repo] of Object.entries(shape)) {
    wrapped[name] = Object.fromEntries(
      Object.keys(repo).map((method) => [
        method,
        (...args: unknown[]) => unitOfWork.run((repos) => (repos as unknown as MethodTable)[name]![method]!(...args)),
      ]),
    );
  }
  return wrapped as unknown as Repositories;
}

/** Memory storage, with its change log: memory service keys log their revocations in it too. */
export interface MemoryStorage extends Storage {
  readonly changeLog: MemoryChangeLog;
}

export function createMemoryStorage(): MemoryStorage {
  const changeLog = new MemoryChangeLog();
  const unitOfWork = new MemoryUnitOfWork(changeLog);
  return {
    repos: autoCommitting(unitOfWork),
    unitOfWork,
    afterCommit: (l) => unitOfWork.afterCommit(l),
    changeLog,
    watchLog: (watcher) => changeLog.watch(watcher),
    close: async () => undefined,
  };
}

export interface InspectableMemoryStorage extends MemoryStorage {
  /**
   * The committed records of tenants, users, API keys, invites and passkeys as one canonical string: equal strings, equal data.
   * Tests take one before and after a request to show that a refused request changed nothing.
   * A key's lastUsedAt is left out: it records that the key authenticated, which a refused request may do too.
   */
  snapshot(): string;
}

export function createInspectableMemoryStorage(): InspectableMemoryStorage {
  const changeLog = new MemoryChangeLog();
  const unitOfWork = new MemoryUnitOfWork(changeLog);
  const table = (rows: Map<string, object>) => [...rows].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const snapshot = () => {
    const { tenants, users, apiKeys, invites, passkeys } = unitOfWork.state;
    const keys = new Map([...apiKeys].map(([id, { lastUsedAt: _bookkeeping, ...key }]) => [id, key]));
    const credentials = new Map([...passkeys].map(([id, { publicKey, ...passkey }]) => [id, { ...passkey, publicKey: Buffer.from(publicKey).toString('base64url') }]));
    return JSON.stringify({
      tenants: table(tenants), users: table(users), apiKeys: table(keys), invites: table(invites), passkeys: table(credentials),
    });
  };
  return {
    repos: autoCommitting(unitOfWork),
    unitOfWork,
    afterCommit: (l) => unitOfWork.afterCommit(l),
    changeLog,
    watchLog: (watcher) => changeLog.watch(watcher),
    close: async () => undefined,
    snapshot,
  };
}
