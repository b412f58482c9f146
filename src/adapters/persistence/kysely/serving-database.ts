import { sql } from 'kysely';
import { openPglite, openPostgres, type OpenDatabase, type PostgresOptions } from './dialects';
import { migrateToLatest } from './migrate';
import { APP_ROLE } from './migrations/0002-tenant-walls';

/** A database the service serves from: migrated, and working as the walled app role. */
export interface ServingDatabase extends OpenDatabase {
  readonly appliedMigrations: string[];
}

/**
 * Migrations need the owner (they create tables, policies and the role); the service must not be
 * the owner, or the row-level security policies would not bind it. So: migrate over a short-lived
 * connection as the login user, then serve from a pool whose every connection has switched to the
 * app role. The start fails here, not on the first request, when the switch is not allowed.
 */
export async function openServingPostgres(url: string, options: Omit<PostgresOptions, 'role'> = {}): Promise<ServingDatabase> {
  const owner = openPostgres(url, { max: 1, onIdleError: options.onIdleError });
  let appliedMigrations: string[];
  try {
    appliedMigrations = await migrateToLatest(owner.db);
  } finally {
    await owner.close();
  }
  const serving = openPostgres(url, { ...options, role: APP_ROLE });
  try {
    await assertWorksAsAppRole(serving);
  } catch (error) {
    await serving.close();
    throw error;
  }
  return { ...serving, appliedMigrations };
}

/** PGlite has one session: migrate in it, then switch that session to the app role for good. */
export async function openServingPglite(dataDir: string): Promise<ServingDatabase> {
  const opened = await openPglite(dataDir);
  try {
    const appliedMigrations = await migrateToLatest(opened.db);
    await sql`set role ${sql.id(APP_ROLE)}`.execute(opened.db);
    await assertWorksAsAppRole(opened);
    return { ...opened, appliedMigrations };
  } catch (error) {
    await opened.close();
    throw error;
  }
}

async function assertWorksAsAppRole({ db }: OpenDatabase): Promise<void> {
  const { rows } = await sql<{ role: string }>`select current_user as role`.execute(db);
  if (rows[0]?.role !== APP_ROLE) throw new Error(`Database: expected to work as ${APP_ROLE}, not ${rows[0]?.role}`);
}
