import { type Kysely, type Migration, sql } from 'kysely';
import { type MigrationSet, migrateToLatest } from '../kysely/migrations/migrate';
import type { DB } from '../kysely/schema';

/** A module's migrations, applied after identity's and recorded in tables of its own. */
export interface ModuleMigrations {
  /** The module's name: its migrations are recorded in `<name>_kysely_migration`. */
  readonly name: string;
  /** Applied in key order, like identity's (`0001-notes`, `0002-...`). */
  readonly migrations: Readonly<Record<string, Migration>>;
}

/**
 * Recorded apart from identity's (and each other's), so a module's migration names cannot collide
 * with identity's, modules can be added to a database that already has identity's history, and
 * Kysely's check that applied migrations are a prefix of the known ones holds per module.
 */
export function migrationSetOf(module: ModuleMigrations): MigrationSet & { readonly table: string } {
  return {
    provider: { getMigrations: async () => ({ ...module.migrations }) },
    table: `${module.name}_kysely_migration`,
    lockTable: `${module.name}_kysely_migration_lock`,
  };
}

/** Each module's pending migrations, in list order, after identity's; the names of those applied (`notes/0001-notes`). */
export async function migrateModules(db: Kysely<DB>, modules: readonly ModuleMigrations[]): Promise<string[]> {
  const applied: string[] = [];
  for (const module of modules) {
    for (const name of await migrateToLatest(db, migrationSetOf(module))) applied.push(`${module.name}/${name}`);
  }
  return applied;
}

/**
 * The modules' migrations the database has not recorded, for readiness (see pendingMigrations in
 * serving-database.ts: the same owner-only read, in a read-only transaction as the login user).
 */
export async function pendingModuleMigrations(db: Kysely<DB>, modules: readonly ModuleMigrations[]): Promise<string[]> {
  if (modules.length === 0) return [];
  return db.transaction().setAccessMode('read only').execute(async (trx) => {
    await sql`set local role none`.execute(trx);
    const pending: string[] = [];
    for (const module of modules) {
      const { table } = migrationSetOf(module);
      const exists = await sql<{ found: string | null }>`select to_regclass(${table})::text as found`.execute(trx);
      const recorded = new Set(exists.rows[0]?.found
        ? (await sql<{ name: string }>`select name from ${sql.table(table)}`.execute(trx)).rows.map((row) => row.name)
        : []);
      for (const name of Object.keys(module.migrations)) if (!recorded.has(name)) pending.push(`${module.name}/${name}`);
    }
    return pending;
  });
}
