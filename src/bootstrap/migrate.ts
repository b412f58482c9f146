import { migrateAll } from '../adapters/persistence/modules/module-migrations';
import { prepareForServing } from '../adapters/persistence/kysely/driver/serving-database';
import { loginOf } from '../adapters/persistence/kysely/driver/tenant-wall-setup';
import { TenantWalls } from '../adapters/persistence/kysely/driver/tenant-walls';
import { loadConfig } from './config';
import { openDatabase } from './database';

/**
 * `npm run migrate`: applies pending migrations to the configured database and exits, as
 * MIGRATION_DATABASE_URL's login when set (the owner), else DATABASE_URL's. Then, as a start does,
 * installs TENANT_WALL_KEY (or finds it installed: another key is an error) and, with both URLs
 * set, lets only DATABASE_URL's login (and the owner) connect.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env, { ownerTool: true });
  const { db, close, location } = await openDatabase(config);
  try {
    const applied = await migrateAll(db);
    await prepareForServing(db, new TenantWalls(config.tenantWallKey), {
      tenantWallKeyPrevious: config.tenantWallKeyPrevious,
      servingLogin: config.migrationDatabaseUrl && config.databaseUrl ? loginOf(config.databaseUrl) : undefined,
    });
    console.log(applied.length ? `${location}: applied ${applied.join(', ')}` : `${location}: already up to date`);
  } finally {
    await close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
