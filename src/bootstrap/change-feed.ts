import { AnnouncingCredentialStates } from '../adapters/cache/announcing-credential-states';
import { CachedCredentialStates, type CredentialCacheOptions, type CredentialSource } from '../adapters/cache/cached-credential-states';
import { CredentialChangeFanOut } from '../adapters/cache/credential-change-fan-out';
import type { Storage } from '../adapters/persistence/storage';
import type { ListenForChanges } from './database';

/** The instance's credential cache, and what keeps it in step with every writer of the database. */
export interface CredentialFeed {
  /** The cache, announcing every change it forgets to `changes`. */
  readonly credentials: AnnouncingCredentialStates;
  /** What verifying services' change streams subscribe to. */
  readonly changes: CredentialChangeFanOut;
  close(): Promise<void>;
}

/**
 * The cache and its fan-out before anything feeds them: with memory storage (no other writer) the
 * unit of work's own report after each commit (wire.ts) is all there is to hear.
 */
export function localCredentialFeed(source: CredentialSource, cache?: CredentialCacheOptions): Omit<CredentialFeed, 'close'> {
  const changes = new CredentialChangeFanOut();
  return { credentials: new AnnouncingCredentialStates(new CachedCredentialStates(source, cache), changes), changes };
}

/**
 * On SQL storage the database announces every committed credential change itself (triggers), to
 * every instance, whoever wrote it: the cache forgets each change it hears, and keeps nothing while
 * the listener is disconnected. At start it keeps nothing until the listener is listening. Memory
 * storage has no other writer: the unit of work's own report (wire.ts) is all there is.
 * Either way, every change reaches the cache through `credentials`, which hands it on to `changes`
 * (a change this instance made may reach it twice: after its commit and from the database; a
 * verifier forgets idempotently).
 */
export async function openCredentialFeed(
  listenForChanges: ListenForChanges | undefined,
  storage: Storage,
  onError: (error: unknown) => void,
  timing?: Parameters<ListenForChanges>[1],
  cache?: CredentialCacheOptions,
): Promise<CredentialFeed> {
  const { credentials, changes } = localCredentialFeed(storage.repos, cache);
  if (!listenForChanges) return { credentials, changes, close: async () => undefined };

  credentials.suspend();
  const listener = listenForChanges({
    onChange: (change) => credentials.forget(change),
    onListening: () => credentials.resume(),
    onLost: () => credentials.suspend(),
    onError,
  }, timing);
  await listener.start();
  return {
    credentials,
    changes,
    close: async () => {
      await listener.close();
      changes.suspend(); // open change streams end with the instance's hearing
    },
  };
}
