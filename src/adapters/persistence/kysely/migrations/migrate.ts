import { type Kysely, type MigrationProvider, Migrator } from 'kysely';
import type { DB } from '../schema';

/** A list of migrations and the tables that record which have run (module-migrations.ts names them). */
export interface MigrationSet {
  readonly provider: MigrationProvider;
  readonly table: string;
  readonly lockTable: string;
}

/**
 * Brings the schema up to date and returns the names of the migrations it applied (empty when
 * already current). Concurrent callers are safe: the Migrator serialises them with a lock.
 * Throws an error naming the failed migration, with the database's error as its cause.
 */
export async function migrateToLatest(db: Kysely<DB>, set: MigrationSet): Promise<string[]> {
  const migrator = new Migrator({ db, provider: set.provider, migrationTableName: set.table, migrationLockTableName: set.lockTable });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results.find((result) => result.status === 'Error');
    const where = failed ? `migration "${failed.migrationName}" failed` : 'migrations could not start';
    throw new Error(`Database ${where}: ${describe(error)}`, { cause: error });
  }
  return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
