import { AnnouncingCredentialStates } from '../adapters/cache/announcing-credential-states';
import { CachedCredentialStates, type CredentialSource } from '../adapters/cache/cached-credential-states';
import { CredentialChangeFanOut } from '../adapters/cache/credential-change-fan-out';
import { CredentialChangeListener, type ListenerTiming } from '../adapters/persistence/kysely/credential-change-listener';
import type { Storage } from '../adapters/persistence/storage';

/** The instance's credential cache, and what keeps it in step with other instances. */
export interface CredentialFeed {
  /** The cache, announcing every change it forgets to `changes`. */
  readonly credentials: AnnouncingCredentialStates;
  /** What verifying services' change streams subscribe to. */
  readonly changes: CredentialChangeFanOut;
  close(): Promise<void>;
}

/**
 * The cache and its fan-out for one instance that hears only its own changes (PGlite, memory): the
 * use-cases' own `forget` after each commit is all there is to hear.
 */
export function localCredentialFeed(source: CredentialSource): Omit<CredentialFeed, 'close'> {
  const changes = new CredentialChangeFanOut();
  return { credentials: new AnnouncingCredentialStates(new CachedCredentialStates(source), changes), changes };
}

/**
 * With Postgres (several instances may share it), the cache is invalidated by every instance's
 * committed changes through LISTEN/NOTIFY, and keeps nothing while the listener is disconnected.
 * On PGlite or memory storage there is one instance, whose own use-cases invalidate it. Either way,
 * every change reaches the cache through `credentials`, which hands it on to `changes`.
 */
export async function openCredentialFeed(
  databaseUrl: string | undefined,
  storage: Storage,
  onError: (error: unknown) => void,
  timing?: ListenerTiming,
): Promise<CredentialFeed> {
  const { credentials, changes } = localCredentialFeed(storage.repos);
  if (!databaseUrl) return { credentials, changes, close: async () => undefined };

  credentials.suspend();
  const listener = new CredentialChangeListener(databaseUrl, {
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
