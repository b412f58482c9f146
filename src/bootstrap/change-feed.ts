import { CachedCredentialStates, type CredentialCacheOptions } from '../adapters/cache/cached-credential-states';
import { CredentialChangeFanOut } from '../adapters/cache/credential-change-fan-out';
import { CredentialChangeFollower, DEFAULT_FOLLOWER, type FollowerOptions } from '../adapters/cache/credential-change-follower';
import { InProcessFreshness } from '../adapters/cache/in-process-freshness';
import { type FreshnessCheckOptions, SharedFreshnessCheck } from '../adapters/cache/shared-freshness-check';
import type { Freshness } from '../application/ports/freshness';
import type { ChangeListener } from '../adapters/persistence/kysely/change-feed/credential-change-listener';
import type { Storage } from '../adapters/persistence/storage';
import type { ListenForChanges } from './database';

/** The instance's credential cache, and what keeps it in step with every writer of the database. */
export interface CredentialFeed {
  /** The cache the credential check reads. */
  readonly credentials: CachedCredentialStates;
  /** What verifying services' change streams subscribe to, and the trusted service keys watch. */
  readonly changes: CredentialChangeFanOut;
  /** The instance's change position: how far it has followed the change log. */
  readonly positions: CredentialChangeFollower;
  /** What every credential check confirms before it answers from memory. */
  readonly freshness: Freshness;
  close(): Promise<void>;
}

/** On SQL storage: read the log every 5 s without a notification too; prune it every 10 minutes. */
export const SQL_FOLLOWER: FollowerOptions = { ...DEFAULT_FOLLOWER, pollMs: 5_000, pruneEveryMs: 600_000 };

function assemble(storage: Storage, onError: (error: unknown) => void, cache: CredentialCacheOptions | undefined, options: FollowerOptions) {
  const credentials = new CachedCredentialStates(storage.repos, cache);
  const changes = new CredentialChangeFanOut(false);
  const positions = new CredentialChangeFollower(storage.changeLog, credentials, changes, onError, options);
  // This instance's own commits have grown the log: read it now rather than at the notification.
  const stops = [storage.afterCommit(() => positions.wake(false))];
  if (storage.watchLog) stops.push(storage.watchLog(() => positions.wake(false)));
  return { credentials, changes, positions, stop: () => stops.forEach((stop) => stop()) };
}

/**
 * The shared check when other processes write the storage (`shared`), else nothing to check. Its
 * head is read on the listener's connection while it listens (no pool checkout per round), else
 * through the pool, as it is when that read fails (the connection died under it: the pool may
 * still answer). Every one of these reads starts after the round's requests arrived, so each is
 * exact; a read that hangs holds its round until the round's bound, then 503.
 */
function freshnessOf(
  storage: Storage, positions: CredentialChangeFollower, onError: (error: unknown) => void, shared: FreshnessCheckOptions | undefined,
  listener?: ChangeListener,
): Freshness {
  if (!shared) return new InProcessFreshness(positions);
  const { changeLog } = storage;
  const throughPool = (): Promise<number> => changeLog.head();
  const onConnection = listener?.readHead?.bind(listener);
  const readHead = onConnection ? () => onConnection()?.catch(throughPool) ?? throughPool() : throughPool;
  return new SharedFreshnessCheck(readHead, positions, onError, shared);
}

/**
 * The cache, its fan-out and its follower over a storage whose every writer is in this process
 * (memory: it tells the follower of each change itself), or for a test that listens to nothing
 * else. Following starts from the log's head. A test's instance that hears no notification but
 * shares its database (`shared`) still confirms freshness on every check.
 */
export async function localCredentialFeed(
  storage: Storage,
  cache?: CredentialCacheOptions,
  onError: (error: unknown) => void = (error) => console.error('credential changes:', error),
  shared?: FreshnessCheckOptions,
): Promise<CredentialFeed> {
  const feed = assemble(storage, onError, cache, DEFAULT_FOLLOWER);
  await feed.positions.listening();
  return {
    credentials: feed.credentials,
    changes: feed.changes,
    positions: feed.positions,
    freshness: freshnessOf(storage, feed.positions, onError, shared),
    close: async () => {
      feed.stop();
      feed.positions.close();
      feed.changes.suspend();
    },
  };
}

/**
 * On SQL storage every committed credential change is logged by the database (triggers,
 * migration 0010), whoever wrote it, and each commit notifies every instance: the follower reads
 * the log and the cache forgets what it names. While the listener is disconnected the cache keeps
 * nothing and change streams are closed; at start it keeps nothing until the listener is listening
 * and the log's head is read.
 *
 * The notification crosses a socket, so a request sent right after a commit can overtake it. When
 * other processes write the database (`shared`: Postgres), every credential check first confirms
 * freshness by reading the log's head (SharedFreshnessCheck); on the embedded database, whose
 * every writer is in this process, the notification arrives before the writer's statement returns.
 */
export async function openCredentialFeed(
  listenForChanges: ListenForChanges | undefined,
  storage: Storage,
  onError: (error: unknown) => void,
  timing?: Parameters<ListenForChanges>[1],
  cache?: CredentialCacheOptions,
  follower: FollowerOptions = SQL_FOLLOWER,
  shared?: FreshnessCheckOptions,
): Promise<CredentialFeed> {
  if (!listenForChanges) return localCredentialFeed(storage, cache, onError, shared);
  const feed = assemble(storage, onError, cache, follower);
  feed.credentials.suspend();

  let listeningAgain: NodeJS.Timeout | undefined;
  let closed = false;
  // Hearing again is only trusted once the head is read; until then the cache stays suspended.
  const heard = (): Promise<void> => feed.positions.listening().catch((error: unknown) => {
    onError(error);
    if (closed) return;
    listeningAgain = setTimeout(() => void heard(), follower.retryMs);
    listeningAgain.unref();
  });
  let firstHearing: Promise<void> | undefined;
  const listener = listenForChanges({
    onNotified: () => feed.positions.wake(true),
    onListening: () => {
      clearTimeout(listeningAgain);
      firstHearing = heard();
    },
    onLost: () => {
      clearTimeout(listeningAgain);
      feed.positions.lost();
    },
    onError,
  }, timing);
  await listener.start();
  await firstHearing;
  return {
    credentials: feed.credentials,
    changes: feed.changes,
    positions: feed.positions,
    freshness: freshnessOf(storage, feed.positions, onError, shared, listener),
    close: async () => {
      closed = true;
      clearTimeout(listeningAgain);
      feed.stop();
      await listener.close();
      feed.positions.close();
      feed.changes.suspend(); // open change streams end with the instance's hearing
    },
  };
}
