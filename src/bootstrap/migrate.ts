import { migrateToLatest } from '../adapters/persistence/kysely/migrations/migrate';
import { loadConfig } from './config';
import { openDatabase } from './database';

/**
 * `npm run migrate`: applies pending migrations to the configured database and exits, as
 * MIGRATION_DATABASE_URL's login when set (the owner), else DATABASE_URL's.
 */
async function main(): Promise<void> {
  const { db, close, location } = await openDatabase(loadConfig());
  try {
    const applied = await migrateToLatest(db);
    console.log(applied.length ? `${location}: applied ${applied.join(', ')}` : `${location}: already up to date`);
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
