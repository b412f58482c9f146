import { type Kysely, type Migration, sql } from 'kysely';
import { migrations } from '../kysely/migrations';
import { type MigrationSet, migrateToLatest } from '../kysely/migrations/migrate';
import type { DB } from '../kysely/schema';
import { isInsufficientPrivilege } from '../kysely/driver/pg-errors';
import { APPLIED_MODULE_MIGRATIONS } from '../kysely/migrations/0011-module-readiness-and-audit-action-index';

/** A module's migrations (identity's too), applied in module order and recorded in tables of its own. */
export interface ModuleMigrations {
  /** The module's name: its migrations are recorded in `<name>_kysely_migration`. */
  readonly name: string;
  /** Applied in key order (`0001-notes`, `0002-...`). */
  readonly migrations: Readonly<Record<string, Migration>>;
}

/**
 * Identity's migrations, the first module's: recorded in Kysely's own tables (`kysely_migration`),
 * where every database this service has ever migrated keeps identity's history.
 */
export const IDENTITY_MIGRATIONS: ModuleMigrations = { name: 'identity', migrations };

/**
 * Each module's record apart from the others', so migration names cannot collide across modules,
 * a module can be added to a database that already has identity's history, and Kysely's check that
 * applied migrations are a prefix of the known ones holds per module.
 */
export function migrationSetOf(module: ModuleMigrations): MigrationSet & { readonly table: string } {
  const table = module === IDENTITY_MIGRATIONS ? 'kysely_migration' : `${module.name}_kysely_migration`;
  return { provider: { getMigrations: async () => ({ ...module.migrations }) }, table, lockTable: `${table}_lock` };
}

/**
 * Identity's pending migrations, then each module's in list order; the names of those applied,
 * identity's as they are (`0010-credential-change-log`), a module's after its name (`notes/0001-notes`).
 */
export async function migrateAll(db: Kysely<DB>, modules: readonly ModuleMigrations[] = []): Promise<string[]> {
  const applied: string[] = [];
  for (const module of [IDENTITY_MIGRATIONS, ...modules]) {
    for (const name of await migrateToLatest(db, migrationSetOf(module))) applied.push(module === IDENTITY_MIGRATIONS ? name : `${module.name}/${name}`);
  }
  return applied;
}

/**
 * The modules' migrations the database has not recorded, for readiness and for the start-up check
 * (see pendingMigrations in serving-database.ts). The tables that record them belong to the owner,
 * and neither the app role nor a least-privileged login may read them: the security-definer function
 * APPLIED_MODULE_MIGRATIONS answers the names, for the owner and the app role alike. A schema older
 * than that function is read directly, as the login (`set local role none`), which only its owner
 * can do; for anyone else every module migration counts as pending, as identity's newer ones do.
 */
export async function pendingModuleMigrations(db: Kysely<DB>, modules: readonly ModuleMigrations[]): Promise<string[]> {
  if (modules.length === 0) return [];
  const found = await sql<{ fn: string | null }>`select to_regprocedure(${`${APPLIED_MODULE_MIGRATIONS}(text)`})::text as fn`.execute(db);
  const read = found.rows[0]?.fn ? appliedThroughFunction : appliedAsLogin;
  const pending: string[] = [];
  for (const module of modules) {
    const recorded = new Set(await read(db, module));
    for (const name of Object.keys(module.migrations)) if (!recorded.has(name)) pending.push(`${module.name}/${name}`);
  }
  return pending;
}

async function appliedThroughFunction(db: Kysely<DB>, module: ModuleMigrations): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from ${sql.id(APPLIED_MODULE_MIGRATIONS)}(${module.name}) as name`.execute(db);
  return rows.map((row) => row.name);
}

async function appliedAsLogin(db: Kysely<DB>, module: ModuleMigrations): Promise<string[]> {
  const { table } = migrationSetOf(module);
  try {
    return await db.transaction().setAccessMode('read only').execute(async (trx) => {
      await sql`set local role none`.execute(trx);
      const exists = await sql<{ found: string | null }>`select to_regclass(${table})::text as found`.execute(trx);
      if (!exists.rows[0]?.found) return [];
      return (await sql<{ name: string }>`select name from ${sql.table(table)}`.execute(trx)).rows.map((row) => row.name);
    });
  } catch (error) {
    if (!isInsufficientPrivilege(error)) throw error;
    return [];
  }
}
