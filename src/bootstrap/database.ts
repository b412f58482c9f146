import { openPglite, openPostgres, type OpenDatabase, type PoolStats } from '../adapters/persistence/kysely/dialects';
import { createKyselyStorage } from '../adapters/persistence/kysely/kysely-storage';
import { openServingPglite, openServingPostgres, pendingMigrations } from '../adapters/persistence/kysely/serving-database';
import { KyselyServiceKeyRepository } from '../adapters/persistence/kysely/service-key-repository';
import type { Storage } from '../adapters/persistence/storage';
import type { ServiceKeyLookup } from '../application/ports/service-keys';
import type { Config } from './config';

type DatabaseConfig = Pick<Config, 'databaseUrl' | 'pgliteDir'> & Partial<Pick<Config, 'database'>>;

export interface OpenedStorage {
  readonly storage: Storage;
  /** Where the data lives, for the start-up log line (never the password of a URL). */
  readonly location: string;
  readonly appliedMigrations: string[];
  /** For readiness: the migrations the database lacks; throws StorageUnavailable when it does not answer. */
  readonly pendingMigrations: () => Promise<string[]>;
  /** For the pool gauges; undefined on PGlite, which has no pool. */
  readonly poolStats: (() => PoolStats) | undefined;
  /** Service keys, read as the app role (which may only read them). */
  readonly serviceKeys: ServiceKeyLookup;
}

/**
 * Postgres when DATABASE_URL is set, the embedded PGlite otherwise, as the connecting user (the
 * schema's owner): what `npm run migrate` needs. The service itself uses openStorage.
 */
export async function openDatabase(config: DatabaseConfig): Promise<OpenDatabase & { location: string }> {
  if (config.databaseUrl) return { ...openPostgres(config.databaseUrl), location: locationOf(config) };
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
): Promise<OpenedStorage> {
  const { db, close, appliedMigrations, poolStats } = config.databaseUrl
    ? await openServingPostgres(config.databaseUrl, {
      max: config.database?.poolMax,
      connectTimeoutMs: config.database?.connectTimeoutMs,
      statementTimeoutMs: config.database?.statementTimeoutMs,
      onConnectionError: onIdleConnectionError,
    })
    : await openServingPglite(config.pgliteDir);
  return {
    storage: createKyselyStorage(db, close),
    location: locationOf(config),
    appliedMigrations,
    pendingMigrations: () => pendingMigrations(db),
    poolStats,
    serviceKeys: new KyselyServiceKeyRepository(db),
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
