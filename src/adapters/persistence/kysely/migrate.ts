import { type Kysely, Migrator } from 'kysely';
import { migrationProvider } from './migrations';
import type { DB } from './schema';

/**
 * Brings the schema up to date and returns the names of the migrations it applied (empty when
 * already current). Concurrent callers are safe: the Migrator serialises them with a lock.
 * Throws an error naming the failed migration, with the database's error as its cause.
 */
export async function migrateToLatest(db: Kysely<DB>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
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
