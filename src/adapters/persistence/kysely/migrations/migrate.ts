import { type Kysely, type MigrationProvider, Migrator } from 'kysely';
import { migrationProvider } from './';
import type { DB } from '../schema';

/** A list of migrations and where they are recorded: identity's (Kysely's default tables) or a module's own. */
export interface MigrationSet {
  readonly provider: MigrationProvider;
  /** The table that records which have run, and its lock table; unset: Kysely's kysely_migration(_lock). */
  readonly table?: string;
  readonly lockTable?: string;
}

const IDENTITY_MIGRATIONS: MigrationSet = { provider: migrationProvider };

/**
 * Brings the schema up to date and returns the names of the migrations it applied (empty when
 * already current). Concurrent callers are safe: the Migrator serialises them with a lock.
 * Throws an error naming the failed migration, with the database's error as its cause.
 */
export async function migrateToLatest(db: Kysely<DB>, set: MigrationSet = IDENTITY_MIGRATIONS): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: set.provider,
    ...(set.table === undefined ? {} : { migrationTableName: set.table }),
    ...(set.lockTable === undefined ? {} : { migrationLockTableName: set.lockTable }),
  });
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
