import { openPglite, openPostgres, type OpenDatabase, type PoolStats } from '../adapters/persistence/kysely/dialects';
import { createKyselyStorage } from '../adapters/persistence/kysely/kysely-storage';
import { openServingPglite, openServingPostgres, pendingMigrations } from '../adapters/persistence/kysely/serving-database';
import type { Storage } from '../adapters/persistence/storage';
import { kyselyModuleStore } from '../adapters/persistence/modules/kysely-module-store';
import { type ModuleMigrations, pendingModuleMigrations } from '../adapters/persistence/modules/module-migrations';
import type { ModuleStore } from '../adapters/persistence/modules/module-store';
import type { Config } from './config';

type DatabaseConfig = Pick<Config, 'databaseUrl' | 'pgliteDir'> & Partial<Pick<Config, 'database'>>;

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
  modules: readonly ModuleMigrations[] = [],
): Promise<OpenedStorage> {
  const { db, close, appliedMigrations, poolStats } = config.databaseUrl
    ? await openServingPostgres(config.databaseUrl, {
      max: config.database?.poolMax,
      connectTimeoutMs: config.database?.connectTimeoutMs,
      statementTimeoutMs: config.database?.statementTimeoutMs,
      onConnectionError: onIdleConnectionError,
      modules,
    })
    : await openServingPglite(config.pgliteDir, modules);
  return {
    storage: createKyselyStorage(db, close),
    moduleStore: kyselyModuleStore(db),
    location: locationOf(config),
    appliedMigrations,
    pendingMigrations: async () => [...await pendingMigrations(db), ...await pendingModuleMigrations(db, modules)],
    poolStats,
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
