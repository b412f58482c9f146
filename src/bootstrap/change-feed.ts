import { CachedCredentialStates, type CredentialCacheOptions } from '../adapters/cache/cached-credential-states';
import type { Storage } from '../adapters/persistence/storage';
import type { ListenForChanges } from './database';

/** The instance's credential cache, and what keeps it in step with every writer of the database. */
export interface CredentialFeed {
  readonly credentials: CachedCredentialStates;
  close(): Promise<void>;
}

/**
 * On SQL storage the database announces every committed credential change itself (triggers), to
 * every instance, whoever wrote it: the cache forgets each change it hears, and keeps nothing while
 * the listener is disconnected. At start it keeps nothing until the listener is listening. Memory
 * storage has no other writer: the unit of work's own report (wire.ts) is all there is.
 */
export async function openCredentialFeed(
  listenForChanges: ListenForChanges | undefined,
  storage: Storage,
  onError: (error: unknown) => void,
  timing?: Parameters<ListenForChanges>[1],
  cache?: CredentialCacheOptions,
): Promise<CredentialFeed> {
  const credentials = new CachedCredentialStates(storage.repos, cache);
  if (!listenForChanges) return { credentials, close: async () => undefined };

  credentials.suspend();
  const listener = listenForChanges({
    onChange: (change) => credentials.forget(change),
    onListening: () => credentials.resume(),
    onLost: () => credentials.suspend(),
    onError,
  }, timing);
  await listener.start();
  return { credentials, close: () => listener.close() };
}
