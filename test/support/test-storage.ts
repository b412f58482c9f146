import type { ModuleMigrations } from '../../src/adapters/persistence/modules/module-migrations';
import { type OpenedStorage, openStorage } from '../../src/bootstrap/database';
import { migratedPglite } from './pglite';

/**
 * The database a test runs on: the embedded one, or Postgres at `postgres`, served as `servingLogin`
 * (a least-privileged login, migrated as `postgres`'s owner) when given.
 */
export type TestDatabase = 'pglite' | { readonly postgres: string; readonly servingLogin?: string };

/**
 * Storage opened as the service opens it (migrated as the owner, serving as the walled app role),
 * the embedded database started from the migrated snapshot.
 */
export async function openTestStorage(
  database: TestDatabase,
  modules: readonly ModuleMigrations[] = [],
  poolMax = 10,
): Promise<OpenedStorage> {
  if (database === 'pglite') {
    return openStorage({ databaseUrl: undefined, pgliteDir: 'memory://', pgliteFrom: await migratedPglite() }, () => undefined, modules);
  }
  return openStorage(
    {
      databaseUrl: database.servingLogin ?? database.postgres,
      migrationDatabaseUrl: database.servingLogin ? database.postgres : undefined,
      pgliteDir: '',
      database: { poolMax, connectTimeoutMs: 2_000, statementTimeoutMs: 5_000 },
    },
    () => undefined,
    modules,
  );
}
