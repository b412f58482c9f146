import { type Kysely, sql } from 'kysely';
import { openPglite, openPostgres, type OpenDatabase, type PostgresOptions } from './dialects';
import { migrateToLatest } from './migrate';
import { migrations } from './migrations';
import { APP_ROLE } from './migrations/0002-tenant-walls';
import type { DB } from './schema';
import { migrateModules, type ModuleMigrations } from '../modules/module-migrations';

/** A database the service serves from: migrated, and working as the walled app role. */
export interface ServingDatabase extends OpenDatabase {
  readonly appliedMigrations: string[];
}

export interface ServingOptions extends Omit<PostgresOptions, 'role'> {
  /** Product modules' migrations, applied after identity's (module-migrations.ts). */
  readonly modules?: readonly ModuleMigrations[];
}

/**
 * Migrations need the owner (they create tables, policies and the role); the service must not be
 * the owner, or the row-level security policies would not bind it. So: migrate over a short-lived
 * connection as the login user, then serve from a pool whose every connection has switched to the
 * app role. The start fails here, not on the first request, when the switch is not allowed.
 */
export async function openServingPostgres(url: string, options: ServingOptions = {}): Promise<ServingDatabase> {
  const { modules = [], ...poolOptions } = options;
  const owner = openPostgres(url, { max: 1, onConnectionError: options.onConnectionError, connectTimeoutMs: options.connectTimeoutMs });
  let appliedMigrations: string[];
  try {
    appliedMigrations = [...await migrateToLatest(owner.db), ...await migrateModules(owner.db, modules)];
  } finally {
    await owner.close();
  }
  const serving = openPostgres(url, { ...poolOptions, role: APP_ROLE });
  try {
    await assertWorksAsAppRole(serving);
  } catch (error) {
    await serving.close();
    throw error;
  }
  return { ...serving, appliedMigrations };
}

/** PGlite has one session: migrate in it, then switch that session to the app role for good. */
export async function openServingPglite(dataDir: string, modules: readonly ModuleMigrations[] = []): Promise<ServingDatabase> {
  const opened = await openPglite(dataDir);
  try {
    const appliedMigrations = [...await migrateToLatest(opened.db), ...await migrateModules(opened.db, modules)];
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

/**
 * The migrations this build knows that the database has not recorded: empty when the schema is
 * current (or newer, during a rolling deploy). For the readiness check, so an instance pointed at a
 * database that is behind (restored from a backup, or not migrated yet) is taken out of rotation.
 * Throws StorageUnavailable when the database does not answer.
 *
 * Kysely's table belongs to the owner and the app role may not read it, so this one read-only
 * transaction switches back to the session's login user (the owner, who migrated at start) with
 * SET LOCAL ROLE, which ends with the transaction. No tenant data is touched.
 */
export async function pendingMigrations(db: Kysely<DB>): Promise<string[]> {
  const applied = await db.transaction().setAccessMode('read only').execute(async (trx) => {
    await sql`set local role none`.execute(trx);
    const exists = await sql<{ found: string | null }>`select to_regclass('kysely_migration')::text as found`.execute(trx);
    if (!exists.rows[0]?.found) return [];
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(trx);
    return rows.map((row) => row.name);
  });
  const recorded = new Set(applied);
  return Object.keys(migrations).filter((name) => !recorded.has(name));
}
