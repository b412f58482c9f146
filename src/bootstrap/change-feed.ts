import { CachedCredentialStates, type CredentialCacheOptions } from '../adapters/cache/cached-credential-states';
import { CredentialChangeListener, type ListenerTiming } from '../adapters/persistence/kysely/credential-change-listener';
import type { Storage } from '../adapters/persistence/storage';

/** The instance's credential cache, and what keeps it in step with other instances. */
export interface CredentialFeed {
  readonly credentials: CachedCredentialStates;
  close(): Promise<void>;
}

/**
 * With Postgres (several instances may share it), the cache is invalidated by every instance's
 * committed changes through LISTEN/NOTIFY, and keeps nothing while the listener is disconnected.
 * On PGlite or memory storage there is one instance, whose own use-cases invalidate it.
 */
export async function openCredentialFeed(
  databaseUrl: string | undefined,
  storage: Storage,
  onError: (error: unknown) => void,
  timing?: ListenerTiming,
  cache?: CredentialCacheOptions,
): Promise<CredentialFeed> {
  const credentials = new CachedCredentialStates(storage.repos, cache);
  if (!databaseUrl) return { credentials, close: async () => undefined };

  credentials.suspend();
  const listener = new CredentialChangeListener(databaseUrl, {
    onChange: (change) => credentials.forget(change),
    onListening: () => credentials.resume(),
    onLost: () => credentials.suspend(),
    onError,
  }, timing);
  await listener.start();
  return { credentials, close: () => listener.close() };
}
