import { openPglite, openPostgres, type OpenDatabase } from '../adapters/persistence/kysely/dialects';
import { createKyselyStorage } from '../adapters/persistence/kysely/kysely-storage';
import { migrateToLatest } from '../adapters/persistence/kysely/migrate';
import type { Storage } from '../adapters/persistence/storage';
import type { Config } from './config';

export interface OpenedStorage {
  readonly storage: Storage;
  /** Where the data lives, for the start-up log line (never the password of a URL). */
  readonly location: string;
  readonly appliedMigrations: string[];
}

/** Postgres when DATABASE_URL is set, the embedded PGlite otherwise; migrated before first use. */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'pgliteDir'>): Promise<OpenDatabase & { location: string }> {
  if (config.databaseUrl) {
    return { ...openPostgres(config.databaseUrl), location: `postgres ${redactUrl(config.databaseUrl)}` };
  }
  return { ...(await openPglite(config.pgliteDir)), location: `embedded PGlite at ${config.pgliteDir}` };
}

export async function openStorage(config: Pick<Config, 'databaseUrl' | 'pgliteDir'>): Promise<OpenedStorage> {
  const { db, close, location } = await openDatabase(config);
  try {
    const appliedMigrations = await migrateToLatest(db);
    return { storage: createKyselyStorage(db, close), location, appliedMigrations };
  } catch (error) {
    await close();
    throw error;
  }
}

function redactUrl(raw: string): string {
  const url = new URL(raw);
  if (url.password) url.password = '***';
  return url.toString();
}
