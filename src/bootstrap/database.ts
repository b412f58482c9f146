import { openPglite, openPostgres, type OpenDatabase } from '../adapters/persistence/kysely/dialects';
import { createKyselyStorage } from '../adapters/persistence/kysely/kysely-storage';
import { openServingPglite, openServingPostgres } from '../adapters/persistence/kysely/serving-database';
import type { Storage } from '../adapters/persistence/storage';
import type { Config } from './config';

type DatabaseConfig = Pick<Config, 'databaseUrl' | 'pgliteDir'>;

export interface OpenedStorage {
  readonly storage: Storage;
  /** Where the data lives, for the start-up log line (never the password of a URL). */
  readonly location: string;
  readonly appliedMigrations: string[];
}

/**
 * Postgres when DATABASE_URL is set, the embedded PGlite otherwise, as the connecting user (the
 * schema's owner): what `npm run migrate` needs. The service itself uses openStorage.
 */
export async function openDatabase(config: DatabaseConfig): Promise<OpenDatabase & { location: string }> {
  if (config.databaseUrl) return { ...openPostgres(config.databaseUrl), location: locationOf(config) };
  return { ...(await openPglite(config.pgliteDir)), location: locationOf(config) };
}

/** Migrated as the owner, then serving as the app role, so the database's tenant walls hold. */
export async function openStorage(config: DatabaseConfig): Promise<OpenedStorage> {
  const { db, close, appliedMigrations } = config.databaseUrl
    ? await openServingPostgres(config.databaseUrl)
    : await openServingPglite(config.pgliteDir);
  return { storage: createKyselyStorage(db, close), location: locationOf(config), appliedMigrations };
}

function locationOf(config: DatabaseConfig): string {
  return config.databaseUrl ? `postgres ${redactUrl(config.databaseUrl)}` : `embedded PGlite at ${config.pgliteDir}`;
}

function redactUrl(raw: string): string {
  const url = new URL(raw);
  if (url.password) url.password = '***';
  return url.toString();
}
