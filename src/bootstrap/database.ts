import {
  type ChangeListener, type CredentialChangeEvents, CredentialChangeListener, type ListenerTiming,
} from '../adapters/persistence/kysely/change-feed/credential-change-listener';
import { openPglite, openPostgres, type OpenDatabase, type PoolStats } from '../adapters/persistence/kysely/driver/dialects';
import { PgliteChangeListener } from '../adapters/persistence/kysely/change-feed/pglite-change-listener';
import { createKyselyStorage } from '../adapters/persistence/kysely/repositories/kysely-storage';
import { openServingPglite, openServingPostgres, pendingMigrations, servingLoginRisks } from '../adapters/persistence/kysely/driver/serving-database';
import { KyselyServiceKeyRepository } from '../adapters/persistence/kysely/repositories/service-key-repository';
import type { Kysely } from 'kysely';
import type { DB } from '../adapters/persistence/kysely/schema';
import type { Storage } from '../adapters/persistence/storage';
import type { ServiceKeyLookup } from '../application/ports/service-keys';
import { kyselyModuleStore } from '../adapters/persistence/modules/kysely-module-store';
import type { ModuleMigrations } from '../adapters/persistence/modules/module-migrations';
import type { ModuleStore } from '../adapters/persistence/modules/module-store';
import { memoryModuleStore } from '../adapters/persistence/modules/memory-module-store';
import { MemoryChangeLog } from '../adapters/persistence/memory/memory-change-log';
import { MemoryServiceKeys } from '../adapters/persistence/memory/memory-service-keys';
import { createMemoryStorage } from '../adapters/persistence/memory/memory-storage';
import type { Config } from './config';
import { APP_ROLE } from '../adapters/persistence/kysely/migrations/0002-tenant-walls';

type DatabaseConfig = Pick<Config, 'databaseUrl' | 'pgliteDir'>
  & Partial<Pick<Config, 'database' | 'migrationDatabaseUrl' | 'tenantWallKey' | 'tenantWallKeyPrevious'>>
  & {
    /**
     * A dump of an embedded database (PGlite's dumpDataDir) that a new embedded one starts from,
     * instead of initialising an empty cluster: the tests start from one that is already migrated.
     */
    readonly pgliteFrom?: Blob;
  };

export interface OpenedStorage {
  readonly storage: Storage;
  /** The product modules' storage, on the same database and behind the same walls. */
  readonly moduleStore: ModuleStore;
  /** Where the data lives, for the start-up log line (never the password of a URL). */
  readonly location: string;
  readonly appliedMigrations: string[];
  /** For readiness: the migrations the database lacks; throws StorageUnavailable when it does not answer. */
  readonly pendingMigrations: () => Promise<string[]>;
  /** For the pool gauges; undefined on PGlite, which has no pool. */
  readonly poolStats: (() => PoolStats) | undefined;
  /**
   * How this instance hears the database's change notifications (its change listener, change-feed.ts);
   * undefined in memory, where every writer is in this process and tells the change log itself.
   */
  readonly listenForChanges: ListenForChanges | undefined;
  /**
   * Other processes may write this database (Postgres: other instances, an operator's SQL), so
   * each credential check confirms that the instance has heard of every committed change
   * (change-feed.ts). False in memory and on the embedded database, which one process owns.
   */
  readonly shared: boolean;
  /**
   * What the serving login could do beyond the app role (superuser, owner of the tables, ...), for a
   * warning at start; empty for a least-privileged login, and on PGlite, whose one session is
   * always a superuser's (the embedded database has no logins to choose from).
   */
  readonly loginRisks: string[];
  /** Service keys, read as the app role (which may only read them); in memory, also made and revoked there. */
  readonly serviceKeys: ServiceKeyLookup;
  /** SQL storage: the serving database itself, as the app role (tools and tests look under the walls through the owner's view of it). */
  readonly db?: Kysely<DB>;
}

/**
 * Memory storage as the composition root takes storage (the test kit's, and the service's own
 * tests'): its module store inside the same serialised unit of work, service keys kept beside it
 * (their revocations logged in its change log), nothing to migrate or listen to.
 */
export function openMemoryStorage(storage: Storage = createMemoryStorage()): OpenedStorage & { readonly serviceKeys: MemoryServiceKeys } {
  return {
    storage,
    moduleStore: memoryModuleStore(storage.unitOfWork),
    location: 'memory',
    appliedMigrations: [],
    pendingMigrations: async () => [],
    poolStats: undefined,
    listenForChanges: undefined,
    shared: false,
    loginRisks: [],
    serviceKeys: new MemoryServiceKeys(storage.changeLog instanceof MemoryChangeLog ? storage.changeLog : undefined),
  };
}

/** A listener for the credential-change channel of the database the storage is on. */
export type ListenForChanges = (events: CredentialChangeEvents, timing?: ListenerTiming) => ChangeListener;

/**
 * Postgres: a connection of the listener's own (every instance has one), working as the app role
 * like the pool, since it also reads the change log's head for the freshness check. PGlite: its
 * in-process LISTEN, on the one session every writer of an embedded database shares.
 */
export function changeListenerFor(databaseUrl: string | undefined, opened: Pick<OpenDatabase, 'listen'>): ListenForChanges {
  if (databaseUrl) return (events, timing) => new CredentialChangeListener({ connectionString: databaseUrl, role: APP_ROLE }, events, timing);
  const { listen } = opened;
  if (!listen) throw new Error('Database: the embedded database cannot LISTEN');
  return (events) => new PgliteChangeListener(listen, events);
}

/**
 * Postgres when DATABASE_URL is set, the embedded PGlite otherwise, as the login that migrates
 * (MIGRATION_DATABASE_URL when set, else DATABASE_URL): what `npm run migrate` needs. The service
 * itself uses openStorage.
 */
export async function openDatabase(config: DatabaseConfig): Promise<OpenDatabase & { location: string }> {
  const url = config.migrationDatabaseUrl ?? config.databaseUrl;
  if (url) return { ...openPostgres(url), location: `postgres ${redactUrl(url)}` };
  return { ...(await openPglite(config.pgliteDir)), location: locationOf(config) };
}

/**
 * Migrated as the owner, then serving as the app role, so the database's tenant walls hold. A pooled
 * connection that dies while idle (server restart, network cut) is reported to `onIdleConnectionError`
 * and replaced on the next checkout; the service keeps running.
 */
export async function openStorage(
  config: DatabaseConfig,
  onIdleConnectionError: (error: Error) => void = (error) => console.error('postgres: idle connection lost:', error.message),
  modules: readonly ModuleMigrations[] = [],
): Promise<OpenedStorage> {
  const opened = config.databaseUrl
    ? await openServingPostgres(config.databaseUrl, {
      max: config.database?.poolMax,
      connectTimeoutMs: config.database?.connectTimeoutMs,
      statementTimeoutMs: config.database?.statementTimeoutMs,
      onConnectionError: onIdleConnectionError,
      migrationUrl: config.migrationDatabaseUrl,
      modules,
      tenantWallKey: config.tenantWallKey,
      tenantWallKeyPrevious: config.tenantWallKeyPrevious,
    })
    : await openServingPglite(
      config.pgliteDir, modules, { tenantWallKey: config.tenantWallKey, tenantWallKeyPrevious: config.tenantWallKeyPrevious }, config.pgliteFrom,
    );
  const { db, close, appliedMigrations, poolStats } = opened;
  let loginRisks: string[] = [];
  try {
    if (config.databaseUrl) loginRisks = await servingLoginRisks(db);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    loginRisks,
    storage: createKyselyStorage(opened, close),
    listenForChanges: changeListenerFor(config.databaseUrl, opened),
    shared: config.databaseUrl !== undefined,
    moduleStore: kyselyModuleStore(opened),
    location: locationOf(config),
    appliedMigrations,
    pendingMigrations: () => pendingMigrations(db, modules),
    poolStats,
    serviceKeys: new KyselyServiceKeyRepository(db),
    db,
  };
}

function locationOf(config: DatabaseConfig): string {
  return config.databaseUrl ? `postgres ${redactUrl(config.databaseUrl)}` : `embedded PGlite at ${config.pgliteDir}`;
}

function redactUrl(raw: string): string {
  const url = new URL(raw);
  if (url.password) url.password = '***';
  return url.toString();
}
